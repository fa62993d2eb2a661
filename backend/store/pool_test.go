package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
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

// TestMaintain: where autovacuum is off, a table changed by more than autovacuum's analyse
// threshold gets analysed, and one with more dead rows than its vacuum threshold vacuumed,
// once; where autovacuum is on, the daemon's work is left to it.
func TestMaintain(t *testing.T) {
	ctx := context.Background()
	s := testenv.Open(t, testenv.PostgresURL(t))
	db := s.SQL()
	if _, err := db.ExecContext(ctx, `INSERT INTO settings (key, value, created_at)
SELECT 'k' || g, 'v', now() FROM generate_series(1, 400) g`); err != nil {
		t.Fatal(err)
	}
	type counts struct {
		changed, dead      int64
		analysed, vacuumed bool
	}
	// note: backends report their counters to the statistics system about once a second
	read := func() (c counts) {
		err := db.QueryRowContext(ctx, `SELECT n_mod_since_analyze, n_dead_tup, last_analyze IS NOT NULL, last_vacuum IS NOT NULL
FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'settings'`).Scan(&c.changed, &c.dead, &c.analysed, &c.vacuumed)
		if err != nil && err != sql.ErrNoRows {
			t.Fatal(err)
		}
		return c
	}
	waitFor := func(what string, ok func(counts) bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(read()); time.Sleep(200 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s never reached the statistics system: %+v", what, read())
			}
		}
	}
	waitFor("the 400 inserted rows", func(c counts) bool { return c.changed >= 400 })
	var autovacuum string
	if err := db.QueryRowContext(ctx, "SHOW autovacuum").Scan(&autovacuum); err != nil {
		t.Fatal(err)
	}
	done, err := s.Maintain(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if autovacuum == "on" {
		if len(done.Analyzed)+len(done.Vacuumed) != 0 {
			t.Fatalf("autovacuum is on, yet Maintain did %+v", done)
		}
		return
	}
	if !slices.Contains(done.Analyzed, "settings") || slices.Contains(done.Vacuumed, "settings") {
		t.Fatalf("after inserts: %+v, want settings analysed, not vacuumed", done)
	}
	if c := read(); !c.analysed || c.vacuumed {
		t.Fatalf("settings after the first pass: %+v", c)
	}
	if again, err := s.Maintain(ctx); err != nil || slices.Contains(again.Analyzed, "settings") {
		t.Fatalf("settings maintained again without changes: %+v %v", again, err)
	}
	if _, err := db.ExecContext(ctx, `DELETE FROM settings WHERE key LIKE 'k%' AND length(key) = 4`); err != nil {
		t.Fatal(err)
	}
	waitFor("the 300 deleted rows", func(c counts) bool { return c.dead >= 300 })
	if done, err = s.Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(done.Vacuumed, "settings") || !slices.Contains(done.Analyzed, "settings") {
		t.Fatalf("after deletes: %+v, want settings vacuumed and analysed", done)
	}
	if c := read(); !c.vacuumed || c.dead != 0 {
		t.Fatalf("settings after vacuum: %+v", c)
	}

	// a pass that finds another one running (a vacuum outlasting the period) does nothing
	if _, err := db.ExecContext(ctx, `INSERT INTO settings (key, value, created_at)
SELECT 'm' || g, 'v', now() FROM generate_series(1, 400) g`); err != nil {
		t.Fatal(err)
	}
	waitFor("the 400 inserted rows", func(c counts) bool { return c.changed >= 400 })
	other, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	const lock = "hashtext('arbiter maintenance ' || current_schema())"
	if _, err := other.ExecContext(ctx, "SELECT pg_advisory_lock("+lock+")"); err != nil {
		t.Fatal(err)
	}
	if done, err = s.Maintain(ctx); err != nil || len(done.Analyzed)+len(done.Vacuumed) != 0 {
		t.Fatalf("while another pass runs: %+v %v", done, err)
	}
	if _, err := other.ExecContext(ctx, "SELECT pg_advisory_unlock("+lock+")"); err != nil {
		t.Fatal(err)
	}
	if done, err = s.Maintain(ctx); err != nil || !slices.Contains(done.Analyzed, "settings") {
		t.Fatalf("after the other pass: %+v %v", done, err)
	}
}

// TestSQLiteSynchronous: a sqlite: URL chooses how commits reach the disk, and nothing else.
func TestSQLiteSynchronous(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, c := range []struct {
		query string
		want  int // PRAGMA synchronous: 1 NORMAL, 2 FULL
	}{{"", 1}, {"?synchronous=normal", 1}, {"?synchronous=FULL", 2}} {
		s, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "a.db")+c.query)
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		var got int
		err = s.SQL().QueryRowContext(ctx, "PRAGMA synchronous").Scan(&got)
		s.Close()
		if err != nil || got != c.want {
			t.Fatalf("%q: synchronous %d (%v), want %d", c.query, got, err, c.want)
		}
	}
	for query, want := range map[string]string{"?journal=off": `unknown sqlite option "journal"`, "?synchronous=off": "want normal or full"} {
		if _, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "b.db")+query); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %q", query, err, want)
		}
	}
}

// TestQueueWalksStageIndex: the claim's query walks the items of its stage in the queue index,
// not the primary key past the items that have moved on, whatever the statistics say. The
// project's decided items sit at the front of the id order, as they do after a day of work.
func TestQueueWalksStageIndex(t *testing.T) {
	ctx := context.Background()
	s := testenv.Open(t, testenv.PostgresURL(t))
	tx, err := s.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, q := range []string{
		"SET LOCAL session_replication_role = replica", // note: the items' project and people need not exist
		`INSERT INTO items (id, project_id, external_id, inputs, stage, created_at, updated_at)
SELECT lpad(g::text, 8, '0'), 'p', 'e' || g, '{}', 'label', now(), now() FROM generate_series(1, 20000) g`,
		"ANALYZE items", // note: as after an import; the statistics lag behind the work that follows
		"UPDATE items SET stage = 'done' WHERE id <= '00000800'",
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	plan, err := store.ExplainNextItem(ctx, s, "p", "u", flow.StageLabel, 3, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "items_queue_idx") || strings.Contains(text, "items_pkey") {
		t.Fatalf("the claim does not walk items_queue_idx:\n%s", text)
	}
}
