-- The integration test's fixtures: a table of orders, filled and checked.
create table orders (id int primary key, amount_cents int not null);
insert into orders select i, i * 100 from generate_series(1, 50000) as i;
select count(*) as orders, sum(amount_cents) as total_cents from orders;
