// Package orders answers what the API serves about the orders table, from PostgreSQL.
package orders

import (
	"context"
	"database/sql"
)

// Summary is the count of the orders and their total, in cents.
type Summary struct {
	Orders     int64 `json:"orders"`
	TotalCents int64 `json:"total_cents"`
}

// Query is the statement the API runs; the integration test runs it too, so both read the same rows.
const Query = `select count(*), coalesce(sum(amount_cents), 0) from orders`

// Load runs Query on db.
func Load(ctx context.Context, db *sql.DB) (Summary, error) {
	var s Summary
	err := db.QueryRowContext(ctx, Query).Scan(&s.Orders, &s.TotalCents)
	return s, err
}
