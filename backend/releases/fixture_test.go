package releases_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// fixture is a likert-rating project whose items were imported with ground truth (rule), so
// they are done, and a release service whose jobs are run by the test.
type fixture struct {
	t        *testing.T
	st       *store.Store
	blobs    blob.Store
	flow     *workflow.Service
	projects *projects.Service
	imports  *imports.Service
	media    *media.Service
	rel      *releases.Service
	jobs     *recordingQueue
	fp       *workflow.Project
	user     string
}

func newFixture(t *testing.T, st *store.Store, blobs blob.Store) *fixture {
	t.Helper()
	ctx := context.Background()
	u := &store.User{Email: "lead@example.org", Name: "Lead", PasswordHash: "x", CanCreateProjects: true}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	m := media.New(st, blobs, media.Config{MaxUploadBytes: 1 << 20, SignedURLTTL: time.Minute})
	flow := workflow.New(workflow.Deps{Store: st, Media: m})
	prj := projects.New(st, flow, blobs)
	d, err := prj.CreateProject(ctx, u, projects.ProjectSpec{Name: "Ratings", Template: "likert-rating"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := st.Project(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	fp, err := flow.LoadProject(ctx, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, st: st, blobs: blobs, flow: flow, projects: prj, imports: imports.New(imports.Deps{Store: st, Workflow: flow, Blobs: blobs, Media: m}), media: m, fp: fp, user: u.ID, jobs: &recordingQueue{}}
	f.rel = releases.New(releases.Deps{Store: st, Blobs: blobs, Flow: flow, Insight: insight.New(st, flow), Version: "test"})
	f.rel.UseJobs(f.jobs)
	return f
}

// importDone imports n items with rule ground truth; output gives item i's output value.
func (f *fixture) importDone(n int, output func(i int) any) {
	f.t.Helper()
	var b strings.Builder
	for i := range n {
		line, _ := json.Marshal(map[string]any{
			"external_id":  fmt.Sprintf("item-%05d", i),
			"inputs":       map[string]any{"prompt": fmt.Sprintf("prompt %d", i), "output": []any{map[string]any{"id": "o1", "type": "text", "value": output(i)}}},
			"meta":         map[string]any{"split": []string{"train", "test"}[i%2]},
			"ground_truth": map[string]any{"answers": map[string]any{"quality": 1 + i%5}, "provenance": "rule"},
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	rep, err := f.imports.ImportItems(context.Background(), f.fp, f.user, strings.NewReader(b.String()), nil)
	if err != nil || rep.Imported != n {
		f.t.Fatalf("import: %+v %v", rep, err)
	}
}

// start asks for a release and returns its id; its job is not run.
func (f *fixture) start(formats []string, options map[string]any) string {
	f.t.Helper()
	r, err := f.rel.Start(context.Background(), f.fp, f.user, releases.Request{Name: "v1", Formats: formats, Options: options})
	if err != nil {
		f.t.Fatal(err)
	}
	return r.ID
}

// get reads a release.
func (f *fixture) get(id string) *releases.Release {
	f.t.Helper()
	r, err := f.rel.Get(context.Background(), f.fp.ID, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// file reads one file of a done release through the service.
func (f *fixture) file(id, path string) []byte {
	f.t.Helper()
	d, err := f.rel.File(context.Background(), f.fp.ID, id, path)
	if err != nil {
		f.t.Fatalf("%s: %v", path, err)
	}
	var r io.ReadCloser = d.Local
	if d.Local == nil {
		r = get(f.t, d.URL)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// recordingQueue is a job queue that only records what was queued; tests run the jobs.
type recordingQueue struct {
	mu   sync.Mutex
	ids  []string
	fail error
}

func (q *recordingQueue) EnqueueRelease(_ context.Context, tx *store.Store, id string) error {
	if _, ok := tx.SQLTx(); !ok {
		return errors.New("enqueued outside a transaction")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.fail != nil {
		return q.fail
	}
	q.ids = append(q.ids, id)
	return nil
}

// flakyBlobs is a blob store that stops taking release files after a number of bytes, as a
// blob store going down part way through a release does; it records the release keys it
// was given. With down set, every Put fails.
type flakyBlobs struct {
	blob.Store
	limited bool
	budget  atomic.Int64 // bytes of release files still accepted when limited
	down    atomic.Bool
	onLimit func() // called once when the budget runs out, instead of failing
	once    sync.Once
	mu      sync.Mutex
	keys    []string
}

var errBlobDown = errors.New("connection refused")

func (b *flakyBlobs) Put(ctx context.Context, key string, r io.Reader, size int64, ct string) error {
	if b.down.Load() {
		return errBlobDown
	}
	if !strings.HasPrefix(key, "releases/") || !b.limited {
		return b.Store.Put(ctx, key, r, size, ct)
	}
	b.mu.Lock()
	b.keys = append(b.keys, key)
	b.mu.Unlock()
	if b.budget.Load() < 0 {
		return errBlobDown
	}
	return b.Store.Put(ctx, key, &budgetReader{r: r, b: b}, size, ct)
}

// budgetReader fails once the store's byte budget is spent.
type budgetReader struct {
	r io.Reader
	b *flakyBlobs
}

func (r *budgetReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if r.b.budget.Add(-int64(n)) >= 0 {
		return n, err
	}
	if r.b.onLimit != nil {
		r.b.once.Do(r.b.onLimit)
		return n, err
	}
	return 0, errBlobDown
}

// get fetches a signed URL.
func get(t *testing.T, url string) io.ReadCloser {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	return resp.Body
}
