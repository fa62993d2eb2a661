package api_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/api"
	"github.com/arbiter-annotation/arbiter/backend/jobs"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// startJobs runs the job queue on the test store; for PostgreSQL it needs the store's URL,
// which testenv keeps in the search_path of the store's own pool, so it is read back here.
func startJobs(t *testing.T, st *store.Store, svc api.Services, rel *releases.Service) jobs.Runner {
	t.Helper()
	url := ""
	if st.Dialect() == store.Postgres {
		url = st.URL()
	}
	r, err := jobs.Start(context.Background(), jobs.Deps{Store: st, DatabaseURL: url, Imports: svc.Imports, Insight: svc.Insight, Releases: rel,
		Webhooks: svc.Webhooks, Log: slog.New(slog.DiscardHandler), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		r.Stop(ctx)
	})
	return r
}

// TestBackgroundImport queues a file, polls its progress and reads the report.
func TestBackgroundImport(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		var p struct{ ID string }
		e.admin.must("POST", "/api/v1/projects", map[string]any{"name": "bg", "template": "d3omni-t2i"}, 201, &p)
		var lines []string
		for i := 1; i <= 1200; i++ {
			if i == 700 {
				lines = append(lines, `{"external_id": broken`)
				continue
			}
			lines = append(lines, fmt.Sprintf(`{"external_id":"bg-%d","inputs":{"prompt":"p","image":"media/apple.png","generator":"g"}}`, i))
		}
		status, body := e.admin.do("POST", "/api/v1/projects/"+p.ID+"/items?async=true&filename=batch-1.ndjson", strings.Join(lines, "\n"), "Content-Type", "application/x-ndjson")
		if status != 202 {
			t.Fatalf("async import: %d %s", status, body)
		}
		var im struct {
			ID, Status, Filename string
			Percent              float64
			Report               struct {
				Imported int
				Errors   []struct{ Line int }
			}
		}
		jsonUnmarshal(body, &im)
		deadline := time.Now().Add(30 * time.Second)
		for im.Status != "done" && im.Status != "failed" && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			e.admin.must("GET", "/api/v1/projects/"+p.ID+"/imports/"+im.ID, nil, 200, &im)
		}
		if im.Status != "done" || im.Filename != "batch-1.ndjson" || im.Percent != 100 || im.Report.Imported != 1199 || len(im.Report.Errors) != 1 || im.Report.Errors[0].Line != 700 {
			t.Fatalf("import ended as %+v", im)
		}
		if n := len(e.admin.items(p.ID, "")); n != 500 { // one page of the listing
			t.Fatalf("listed %d items", n)
		}
	})
}
