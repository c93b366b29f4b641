// The integration test, run in the compose stack against the running API and its database: it loads the
// fixtures (FIXTURES, a SQL file) into the database, then asks the API for the orders' summary and checks
// it against the same query run on the database itself.
package integration

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	_ "github.com/lib/pq"

	"example.com/team/api/internal/orders"
)

func env(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set", name)
	}
	return v
}

func TestSummaryComesFromTheDatabase(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := sql.Open("postgres", env(t, "DATABASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fixtures, err := os.ReadFile(env(t, "FIXTURES"))
	if err != nil {
		t.Fatal(err)
	}
	// No arguments: one simple query, so the file's statements run as one batch.
	if _, err := db.ExecContext(ctx, string(fixtures)); err != nil {
		t.Fatalf("loading %s: %v", os.Getenv("FIXTURES"), err)
	}
	want, err := orders.Load(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if want.Orders == 0 {
		t.Fatal("the fixtures left no orders")
	}

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, env(t, "API_URL")+"/orders/summary", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /orders/summary: %s", resp.Status)
	}
	var got orders.Summary
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("the API says %+v, the database %+v", got, want)
	}
	t.Logf("%d orders, %d cents, from the API as in the database", got.Orders, got.TotalCents)
}
