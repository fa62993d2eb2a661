package store_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// TestPoolKeepsIdleConnections: a PostgreSQL pool keeps as many idle connections as it may
// open, so a busy server does not close and reopen connections between requests.
func TestPoolKeepsIdleConnections(t *testing.T) {
	url := testenv.PostgresURL(t)
	ctx := context.Background()
	s, err := store.OpenPool(ctx, url, store.Pool{MaxOpen: 6})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conns := make([]*sql.Conn, 6)
	for i := range conns {
		if conns[i], err = s.SQL().Conn(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range conns {
		c.Close()
	}
	if st := s.SQL().Stats(); st.Idle != 6 || st.MaxIdleClosed != 0 {
		t.Fatalf("after 6 connections were released: %d idle, %d closed for want of idle room", st.Idle, st.MaxIdleClosed)
	}
}
