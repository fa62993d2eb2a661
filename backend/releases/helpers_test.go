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
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
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

// importLines imports NDJSON items and requires every line to be taken.
func (f *fixture) importLines(lines ...string) {
	f.t.Helper()
	rep, err := f.imports.ImportItems(context.Background(), f.fp, f.user, strings.NewReader(strings.Join(lines, "\n")+"\n"), nil)
	if err != nil || len(rep.Errors) > 0 {
		f.t.Fatalf("import: %v %+v", err, rep)
	}
}

// fieldCode is the code of err's field error at field, "" when there is none.
func fieldCode(err error, field string) string {
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return ""
	}
	return fe[field].Code
}

// drop has the lead flag the one item waiting for labels, then drop it with the reason.
func (f *fixture) drop(externalID, reason string) {
	f.t.Helper()
	ctx := context.Background()
	roles := store.RoleSet{store.RoleLead, store.RoleAnnotator}
	if err := f.st.SetMember(ctx, f.fp.ID, f.user, roles); err != nil {
		f.t.Fatal(err)
	}
	u, err := f.st.User(ctx, f.user)
	if err != nil {
		f.t.Fatal(err)
	}
	c, err := f.flow.Next(ctx, f.fp, u, roles, flow.StageLabel, false)
	if err != nil || c == nil {
		f.t.Fatalf("claim: %v %v", c, err)
	}
	it, err := f.st.ItemByExternalID(ctx, f.fp.ID, externalID)
	if err != nil || c.Assignment.ItemID != it.ID {
		f.t.Fatalf("claimed %s, not %s: %v", c.Assignment.ItemID, externalID, err)
	}
	if err := f.flow.Flag(ctx, f.fp, workflow.Worker{ID: f.user, Roles: roles}, c.Assignment.ID, flow.FlagOther, reason); err != nil {
		f.t.Fatal(err)
	}
	if err := f.flow.ResolveFlag(ctx, f.fp, f.user, it.ID, flow.FlagDrop, ""); err != nil {
		f.t.Fatal(err)
	}
}

// useProject makes a project of the schema with the policy and releases it from then on.
func (f *fixture) useProject(schema string, pol workflow.Policy) {
	f.t.Helper()
	ctx := context.Background()
	var s tasks.Schema
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		f.t.Fatal(err)
	}
	u, err := f.st.User(ctx, f.user)
	if err != nil {
		f.t.Fatal(err)
	}
	d, err := f.projects.CreateProject(ctx, u, projects.ProjectSpec{Name: "Media", Schema: &s, Workflow: &pol})
	if err != nil {
		f.t.Fatal(err)
	}
	p, _ := f.st.Project(ctx, d.ID)
	if f.fp, err = f.flow.LoadProject(ctx, p, 0); err != nil {
		f.t.Fatal(err)
	}
}

// pngBytes is the smallest PNG file: one transparent pixel.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\x00\x01\x00\x00\x05\x00\x01\r\n-\xb4\x00\x00\x00\x00IEND\xaeB`\x82")

// member makes an account with the roles in the current project.
func (f *fixture) member(email string, roles ...store.Role) *store.User {
	f.t.Helper()
	u := &store.User{Email: email, Name: email, PasswordHash: "x"}
	if err := f.st.CreateUser(context.Background(), u); err != nil {
		f.t.Fatal(err)
	}
	if err := f.st.SetMember(context.Background(), f.fp.ID, u.ID, store.RoleSet(roles)); err != nil {
		f.t.Fatal(err)
	}
	return u
}

// claim claims the next work of a stage for u, and requires there to be some.
func (f *fixture) claim(u *store.User, stage flow.Stage) *store.Assignment {
	f.t.Helper()
	m, err := f.st.Member(context.Background(), f.fp.ID, u.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	c, err := f.flow.Next(context.Background(), f.fp, u, m.Roles, stage, false)
	if err != nil || c == nil {
		f.t.Fatalf("%s claims %s work: %v %v", u.Email, stage, c, err)
	}
	return c.Assignment
}

// submit submits an assignment of u.
func (f *fixture) submit(u *store.User, aid string, sub workflow.Submission) {
	f.t.Helper()
	m, err := f.st.Member(context.Background(), f.fp.ID, u.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.flow.Submit(context.Background(), f.fp, workflow.Worker{ID: u.ID, Roles: m.Roles}, aid, sub); err != nil {
		f.t.Fatalf("%s submits: %v", u.Email, err)
	}
}

// item reads an item of the current project by its external id.
func (f *fixture) item(externalID string) *store.Item {
	f.t.Helper()
	it, err := f.st.ItemByExternalID(context.Background(), f.fp.ID, externalID)
	if err != nil {
		f.t.Fatal(err)
	}
	return it
}

// externalID is the external id of an item of the current project.
func (f *fixture) externalID(itemID string) string {
	f.t.Helper()
	it, err := f.st.Item(context.Background(), f.fp.ID, itemID)
	if err != nil {
		f.t.Fatal(err)
	}
	return it.ExternalID
}
