-- The integration test's fixtures: a table of orders, filled. The test then asks the API for their count
-- and total and checks it against the database.
create table orders (id int primary key, amount_cents int not null);
insert into orders select i, i * 100 from generate_series(1, 50000) as i;
