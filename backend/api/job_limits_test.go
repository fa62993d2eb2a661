package api_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// heldJobs holds every release file and every background import's file until open is closed,
// so that the jobs stay running.
type heldJobs struct {
	blob.Store
	open chan struct{}
}

func (b *heldJobs) hold(ctx context.Context, key string) error {
	if strings.HasPrefix(key, "releases/") || strings.HasPrefix(key, "imports/") {
		select {
		case <-b.open:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (b *heldJobs) Put(ctx context.Context, key string, r io.Reader, size int64, ct string) error {
	if strings.HasPrefix(key, "releases/") {
		if err := b.hold(ctx, key); err != nil {
			return err
		}
	}
	return b.Store.Put(ctx, key, r, size, ct)
}

func (b *heldJobs) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := b.hold(ctx, key); err != nil {
		return nil, err
	}
	return b.Store.Get(ctx, key)
}

// TestTooManyJobsPerProject: a project may have releases.MaxUnfinished releases and
// imports.MaxUnfinished background imports queued or running; one more is refused with 429
// too_many_jobs, a message that says why and Retry-After, and nothing is written for it.
// Another project is not held back, and once the jobs end the project may queue again.
func TestTooManyJobsPerProject(t *testing.T) {
	held := &heldJobs{open: make(chan struct{})}
	e := newEnv(t, testenv.SQLite, func(o *options) {
		o.jobs = true
		o.blobs = func(tb testing.TB) blob.Store { held.Store = testenv.LocalBlobs(tb); return held }
	})
	t.Cleanup(func() { close(held.open) })
	lead, pid, _ := ratedProject(t, e, 2)
	release := map[string]any{"name": "v1", "formats": []string{"jsonl"}}
	for range releases.MaxUnfinished {
		lead.startRelease(pid, release)
	}
	line := `{"external_id":"x-%d","inputs":{"prompt":"a pear","output":[{"id":"o1","type":"text","value":"a pear"}]}}`
	async := func(project string) (int, http.Header, []byte) {
		return lead.doH("POST", "/api/v1/projects/"+project+"/items?async=true", strings.ReplaceAll(line, "%d", "1"), "Content-Type", "application/x-ndjson")
	}
	for range imports.MaxUnfinished {
		if st, _, b := async(pid); st != http.StatusAccepted {
			t.Fatalf("a background import: %d %s", st, b)
		}
	}
	for name, call := range map[string]func() (int, http.Header, []byte){
		"release": func() (int, http.Header, []byte) {
			return lead.doH("POST", "/api/v1/projects/"+pid+"/releases", release)
		},
		"import": func() (int, http.Header, []byte) { return async(pid) },
	} {
		st, h, b := call()
		if st != http.StatusTooManyRequests || errorCode(t, b) != "too_many_jobs" || h.Get("Retry-After") == "" || !strings.Contains(string(b), "queued or running") {
			t.Fatalf("one %s too many: %d %v %s", name, st, h, b)
		}
		t.Logf("one %s too many: %d %s", name, st, b)
	}
	if rs, _ := e.store.Releases(context.Background(), pid, 100); len(rs) != releases.MaxUnfinished {
		t.Fatalf("%d releases stored", len(rs))
	}
	if ims, _ := e.store.Imports(context.Background(), pid, 100); len(ims) != imports.MaxUnfinished {
		t.Fatalf("%d imports stored", len(ims))
	}
	var other string
	{
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "Other", "template": "likert-rating"}, 201, &p)
		other = p.ID
	}
	if st, _, b := async(other); st != http.StatusAccepted {
		t.Fatalf("another project's import: %d %s", st, b)
	}
}
