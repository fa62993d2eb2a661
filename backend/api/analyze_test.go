package api_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestLargeImportIsAnalyzed: an import of a thousand items or more refreshes the planner's
// statistics of the items table, so the queue is planned for the table's real size.
func TestLargeImportIsAnalyzed(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		pid := e.admin.createProjectFrom("likert-rating")
		lines := make([]string, 1000)
		for i := range lines {
			lines[i] = fmt.Sprintf(`{"external_id":"a-%d","inputs":{"prompt":"p","output":[{"id":"o1","type":"text","value":"v"}]}}`, i)
		}
		if rep := e.admin.importNDJSON("/api/v1/projects/"+pid+"/items", lines...); rep["imported"].(float64) != 1000 {
			t.Fatalf("import: %v", rep)
		}
		q := `SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'items'`
		if e.store.Dialect() == store.Postgres {
			q = `SELECT count(*) FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'items' AND last_analyze IS NOT NULL`
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			var n int
			err := e.store.SQL().QueryRow(q).Scan(&n)
			if err != nil && !strings.Contains(err.Error(), "no such table") {
				t.Fatal(err)
			}
			if n > 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the items table was not analyzed after the import")
			}
		}
	})
}
