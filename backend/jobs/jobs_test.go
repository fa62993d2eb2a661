package jobs_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/jobs"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// TestJobsRunToTheirEnd: an import, an agreement refresh, a figures refresh and a release,
// each queued in the transaction that asks for it, are worked to their end state, and their
// jobs end completed.
func TestJobsRunToTheirEnd(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t), testenv.LocalBlobs(t))
			q := queue(t, f.st)
			im, err := f.imports.StartImport(f.ctx, f.fp, f.lead, flow.ImportItems, "items.ndjson", strings.NewReader(itemLines(30)))
			if err != nil {
				t.Fatal(err)
			}
			f.waitFor("the import", func() bool {
				got, err := f.imports.Import(f.ctx, f.fp.ID, im.ID)
				return err == nil && got.Status == flow.ImportDone
			})
			if n, _ := f.st.CountItemsInStages(f.ctx, f.fp.ID, []flow.Stage{flow.StageDone}); n != 30 {
				t.Fatalf("%d items done after the import job", n)
			}
			err = f.st.WithTx(f.ctx, func(tx *store.Store) error {
				if err := f.runner.EnqueueAgreement(f.ctx, tx, f.fp.ID, flow.StageLabel); err != nil {
					return err
				}
				return f.runner.EnqueueFigures(f.ctx, tx, f.fp.ID, flow.FiguresReport, "")
			})
			if err != nil {
				t.Fatal(err)
			}
			f.waitFor("the agreement figures", func() bool {
				r, err := f.st.AgreementResult(f.ctx, f.fp.ID, flow.StageLabel)
				return err == nil && r.ComputedAt != nil
			})
			f.waitFor("the dataset report", func() bool {
				r, err := f.st.FiguresResult(f.ctx, f.fp.ID, string(flow.FiguresReport))
				return err == nil && r.ComputedAt != nil && len(r.Result) > 0
			})
			rel, err := f.releases.Start(f.ctx, f.fp, f.lead, releases.Request{Name: "v1", Formats: []string{"jsonl"}})
			if err != nil {
				t.Fatal(err)
			}
			f.waitFor("the release", func() bool {
				r, err := f.releases.Get(f.ctx, f.fp.ID, rel.ID)
				return err == nil && r.Status == flow.ReleaseDone && r.Summary != nil && r.Summary.Records == 30
			})
			for _, kind := range []string{"import", "agreement", "figures", "release"} {
				f.waitFor(kind+" job completed", func() bool { return slices.Equal(f.jobStates(q, kind), []string{"completed"}) })
			}
		})
	}
}

// TestFailingJobIsDiscarded: a job that fails on every attempt is retried until its attempts
// are spent and then ends discarded with each attempt's error.
func TestFailingJobIsDiscarded(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t), testenv.LocalBlobs(t))
			q := queue(t, f.st)
			err := f.st.WithTx(f.ctx, func(tx *store.Store) error {
				return f.runner.EnqueueFigures(f.ctx, tx, f.fp.ID, "colour", "")
			})
			if err != nil {
				t.Fatal(err)
			}
			f.waitFor("the job to be discarded", func() bool {
				res, err := q.JobList(f.ctx, river.NewJobListParams().Kinds("figures"))
				if err != nil || len(res.Jobs) != 1 {
					return false
				}
				j := res.Jobs[0]
				if j.State == "retryable" { // note: the retry waits for its backoff otherwise
					q.JobRetry(f.ctx, j.ID)
				}
				return j.State == "discarded"
			})
			res, _ := q.JobList(f.ctx, river.NewJobListParams().Kinds("figures"))
			j := res.Jobs[0]
			if j.Attempt != 3 || len(j.Errors) != 3 || !strings.Contains(j.Errors[2].Error, `unknown figures kind "colour"`) {
				t.Fatalf("discarded after %d attempts: %+v", j.Attempt, j.Errors)
			}
		})
	}
}

// TestStopDrains: Stop waits for a running job to finish before it returns.
func TestStopDrains(t *testing.T) {
	gate := &gatedBlobs{Store: testenv.LocalBlobs(t), open: make(chan struct{}), entered: make(chan struct{})}
	f := newFixture(t, testenv.SQLite(t), gate)
	im, err := f.imports.StartImport(f.ctx, f.fp, f.lead, flow.ImportItems, "items.ndjson", strings.NewReader(itemLines(5)))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-gate.entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the import job never started")
	}
	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		stopped <- f.runner.Stop(ctx)
	}()
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned while a job ran: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(gate.open)
	if err := <-stopped; err != nil {
		t.Fatalf("Stop: %v", err)
	}
	got, err := f.imports.Import(f.ctx, f.fp.ID, im.ID)
	if err != nil || got.Status != flow.ImportDone {
		t.Fatalf("the running import after Stop: %v %+v", err, got)
	}
}

// TestEnqueueNeedsATransaction: a job is only queued inside the transaction that writes what it
// works on, never on its own.
func TestEnqueueNeedsATransaction(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	for name, err := range map[string]error{
		"import":    f.runner.EnqueueImport(f.ctx, f.st, "x"),
		"agreement": f.runner.EnqueueAgreement(f.ctx, f.st, f.fp.ID, flow.StageLabel),
		"figures":   f.runner.EnqueueFigures(f.ctx, f.st, f.fp.ID, flow.FiguresBalance, ""),
		"release":   f.runner.EnqueueRelease(f.ctx, f.st, "x"),
	} {
		if err == nil || !strings.Contains(err.Error(), "needs a transaction") {
			t.Errorf("%s outside a transaction: %v", name, err)
		}
	}
}

// TestMaintenanceOnPostgres: on PostgreSQL the maintenance job runs when the queue starts.
func TestMaintenanceOnPostgres(t *testing.T) {
	st := testenv.Postgres(t)
	f := newFixture(t, st, testenv.LocalBlobs(t))
	q := queue(t, st)
	f.waitFor("the maintenance job", func() bool { return slices.Contains(f.jobStates(q, jobs.MaintenanceArgs{}.Kind()), "completed") })
}

// TestStartFails: a queue that cannot reach its database does not start.
func TestStartFails(t *testing.T) {
	st := testenv.Postgres(t)
	_, err := jobs.Start(context.Background(), jobs.Deps{Store: st, DatabaseURL: "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=1"})
	if err == nil || !strings.HasPrefix(err.Error(), "job queue") {
		t.Fatalf("a queue without its database: %v", err)
	}
}

// stalledReleases holds every release file until open is closed, as a slow object store
// holds a large release's files; started counts the files waiting.
type stalledReleases struct {
	blob.Store
	open    chan struct{}
	started atomic.Int32
}

func (b *stalledReleases) Put(ctx context.Context, key string, r io.Reader, size int64, ct string) error {
	if strings.HasPrefix(key, "releases/") {
		b.started.Add(1)
		select {
		case <-b.open:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return b.Store.Put(ctx, key, r, size, ct)
}

// TestSmallJobsNotStarved: while releases take every worker they may have, a ten-line import
// and an agreement refresh are still worked at once: large and small jobs have queues of
// their own.
func TestSmallJobsNotStarved(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			sb := &stalledReleases{Store: testenv.LocalBlobs(t), open: make(chan struct{})}
			f := newFixture(t, be.Open(t), sb)
			t.Cleanup(func() { close(sb.open) })
			if _, err := f.imports.ImportItems(f.ctx, f.fp, f.lead, strings.NewReader(itemLines(20)), nil); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if _, err := f.releases.Start(f.ctx, f.fp, f.lead, releases.Request{Name: "big", Formats: []string{"jsonl"}}); err != nil {
					t.Fatal(err)
				}
			}
			f.waitFor("both releases to hold a worker", func() bool { return sb.started.Load() >= 2 })
			began := time.Now()
			im, err := f.imports.StartImport(f.ctx, f.fp, f.lead, flow.ImportItems, "small.ndjson", strings.NewReader(itemLines(30)[len(itemLines(20)):]))
			if err != nil {
				t.Fatal(err)
			}
			err = f.st.WithTx(f.ctx, func(tx *store.Store) error { return f.runner.EnqueueAgreement(f.ctx, tx, f.fp.ID, flow.StageLabel) })
			if err != nil {
				t.Fatal(err)
			}
			f.waitFor("the small import", func() bool {
				got, err := f.imports.Import(f.ctx, f.fp.ID, im.ID)
				return err == nil && got.Status == flow.ImportDone
			})
			f.waitFor("the agreement figures", func() bool {
				r, err := f.st.AgreementResult(f.ctx, f.fp.ID, flow.StageLabel)
				return err == nil && r.ComputedAt != nil
			})
			if took := time.Since(began); took > 5*time.Second {
				t.Fatalf("the small jobs took %s behind the releases", took)
			} else {
				t.Logf("a 10-line import and an agreement refresh done in %s while 2 releases held their workers", took.Round(time.Millisecond))
			}
			for _, r := range f.mustReleases() {
				if r.Status != flow.ReleaseRunning {
					t.Fatalf("release %s is %s: it no longer held its worker", r.ID, r.Status)
				}
			}
		})
	}
}

func (f *fixture) mustReleases() []releases.Release {
	f.t.Helper()
	rs, err := f.releases.List(f.ctx, f.fp.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	return rs
}
