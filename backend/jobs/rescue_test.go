package jobs_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/jobs"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// testLease is a short lease, so that a rescue takes a second rather than half a minute.
var testLease = jobs.Lease{Heartbeat: 100 * time.Millisecond, Bound: time.Second, Reap: 100 * time.Millisecond}

// hangingBlobs hangs the first call that matches, as a process that stopped would: it ignores
// its context and returns (an error, having done nothing) only once open is closed. entered
// is closed when it begins, and ctx is the context it was called with.
type hangingBlobs struct {
	blob.Store
	dir     string
	put     func(key string) bool
	get     func(key string) bool
	open    chan struct{}
	entered chan struct{}
	once    sync.Once
	opened  sync.Once
	ctx     context.Context
}

// release lets the hung call return.
func (b *hangingBlobs) release() { b.opened.Do(func() { close(b.open) }) }

var errStopped = errors.New("the process had stopped")

func newHangingBlobs(t *testing.T) *hangingBlobs {
	dir := t.TempDir()
	s, err := blob.NewLocal(dir, []byte("0123456789abcdef0123456789abcdef"), "/blobs")
	if err != nil {
		t.Fatal(err)
	}
	return &hangingBlobs{Store: s, dir: dir, put: func(string) bool { return false }, get: func(string) bool { return false },
		open: make(chan struct{}), entered: make(chan struct{})}
}

func (b *hangingBlobs) hang(ctx context.Context) bool {
	first := false
	b.once.Do(func() { first, b.ctx = true, ctx; close(b.entered) })
	if first {
		<-b.open
	}
	return first
}

func (b *hangingBlobs) Put(ctx context.Context, key string, r io.Reader, size int64, ct string) error {
	if b.put(key) && b.hang(ctx) {
		return errStopped
	}
	return b.Store.Put(ctx, key, r, size, ct)
}

func (b *hangingBlobs) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if b.get(key) && b.hang(ctx) {
		return nil, errStopped
	}
	return b.Store.Get(ctx, key)
}

// files lists the blobs under a folder of the store.
func (b *hangingBlobs) files(t *testing.T, folder string) []string {
	var out []string
	filepath.WalkDir(filepath.Join(b.dir, filepath.FromSlash(folder)), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// wait waits for a channel for at most d.
func wait(t *testing.T, what string, c <-chan struct{}, d time.Duration) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(d):
		t.Fatalf("%s did not happen in %s", what, d)
	}
}

// TestJobOfAStoppedReplicaIsRescued: a replica stops (its process frozen, then continued) while
// it works a job. Another replica finds the job's lease unrenewed and runs it again within the
// lease's bound: a release ends failed with every file its first run wrote removed, an import
// finishes. When the stopped replica goes on, its job learns that its lease is lost and stops
// without writing anything.
func TestJobOfAStoppedReplicaIsRescued(t *testing.T) {
	bound := testLease.Bound + testLease.Reap
	for _, be := range testenv.Backends() {
		t.Run(be.Name+"/release", func(t *testing.T) {
			hb := newHangingBlobs(t)
			hb.put = func(key string) bool { return strings.HasSuffix(key, "/manifest.json") } // note: every data file is stored by then
			st := be.Open(t)
			f := newFixture(t, st, hb, testLease)
			t.Cleanup(hb.release) // note: before the queues stop, so that a failed test ends
			if _, err := f.imports.ImportItems(f.ctx, f.fp, f.lead, strings.NewReader(itemLines(50)), nil); err != nil {
				t.Fatal(err)
			}
			rel, err := f.releases.Start(f.ctx, f.fp, f.lead, releases.Request{Name: "v1", Formats: []string{"jsonl", "csv"}})
			if err != nil {
				t.Fatal(err)
			}
			wait(t, "the release's manifest", hb.entered, 30*time.Second)
			folder := "releases/" + f.fp.ID + "/" + rel.ID
			partial := hb.files(t, folder)
			if len(partial) == 0 {
				t.Fatal("the first run stored nothing before it hung; the test proves nothing")
			}
			other := startJobs(t, st, f.deps(testLease)) // note: started once the first replica holds the job
			thaw := jobs.Freeze(f.runner)
			stoppedAt := time.Now()
			f.waitFor("the release to fail", func() bool {
				r, err := f.releases.Get(f.ctx, f.fp.ID, rel.ID)
				return err == nil && r.Status == flow.ReleaseFailed
			})
			took := time.Since(stoppedAt)
			r, _ := f.releases.Get(f.ctx, f.fp.ID, rel.ID)
			if r.Error == nil || !strings.Contains(*r.Error, "interrupted") {
				t.Fatalf("the rescued release: %+v", r)
			}
			if left := hb.files(t, folder); len(left) != 0 {
				t.Fatalf("%d of the %d files of the first run are left: %v", len(left), len(partial), left)
			}
			if took > bound+3*time.Second {
				t.Fatalf("the release failed %s after its replica stopped; the bound is %s", took, bound)
			}
			t.Logf("%d partial files; the release failed %s after its replica stopped (bound %s), none left", len(partial), took.Round(time.Millisecond), bound)
			thaw()
			wait(t, "the stopped run to learn its lease is lost", hb.ctx.Done(), 5*time.Second)
			hb.release()
			q := queue(t, st)
			f.waitFor("the release job to end", func() bool {
				s := f.jobStates(q, "release")
				return len(s) == 1 && s[0] == "completed"
			})
			got, _ := f.st.Release(f.ctx, f.fp.ID, rel.ID)
			if files, _ := f.st.ReleaseFiles(f.ctx, rel.ID); got.Status != flow.ReleaseFailed || len(files) != 0 || got.BytesStored != 0 || len(hb.files(t, folder)) != 0 {
				t.Fatalf("after the stopped run went on: %s, %d files listed, %d bytes counted, %v stored", got.Status, len(files), got.BytesStored, hb.files(t, folder))
			}
			_ = other
		})
		t.Run(be.Name+"/import", func(t *testing.T) {
			hb := newHangingBlobs(t)
			hb.get = func(key string) bool { return strings.HasPrefix(key, "imports/") }
			st := be.Open(t)
			f := newFixture(t, st, hb, testLease)
			t.Cleanup(hb.release) // note: before the queues stop, so that a failed test ends
			im, err := f.imports.StartImport(f.ctx, f.fp, f.lead, flow.ImportItems, "items.ndjson", strings.NewReader(itemLines(40)))
			if err != nil {
				t.Fatal(err)
			}
			wait(t, "the import to start", hb.entered, 30*time.Second)
			startJobs(t, st, f.deps(testLease))
			thaw := jobs.Freeze(f.runner)
			stoppedAt := time.Now()
			f.waitFor("the import to finish on the other replica", func() bool {
				got, err := f.imports.Import(f.ctx, f.fp.ID, im.ID)
				return err == nil && got.Status == flow.ImportDone
			})
			took := time.Since(stoppedAt)
			if took > bound+3*time.Second {
				t.Fatalf("the import finished %s after its replica stopped; the bound is %s", took, bound)
			}
			t.Logf("the import finished on the other replica %s after the first stopped (bound %s)", took.Round(time.Millisecond), bound)
			thaw()
			wait(t, "the stopped run to learn its lease is lost", hb.ctx.Done(), 5*time.Second)
			hb.release()
			q := queue(t, st)
			f.waitFor("the import job to end", func() bool {
				s := f.jobStates(q, "import")
				return len(s) == 1 && s[0] == "completed"
			})
			got, _ := f.imports.Import(f.ctx, f.fp.ID, im.ID)
			if n, _ := f.st.CountItemsInStages(f.ctx, f.fp.ID, []flow.Stage{flow.StageDone}); got.Status != flow.ImportDone || n != 40 {
				t.Fatalf("after the stopped run went on: import %s, %d items", got.Status, n)
			}
		})
	}
}
