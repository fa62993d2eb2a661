package jobs_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/jobs"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// fixture is a store whose job queue runs: the services that queue jobs, wired to the
// queue, and a likert-rating project with done items.
type fixture struct {
	t        *testing.T
	ctx      context.Context
	st       *store.Store
	blobs    blob.Store
	imports  *imports.Service
	insight  *insight.Service
	releases *releases.Service
	runner   jobs.Runner
	fp       *workflow.Project
	lead     string
}

// newFixture wires the services to a job queue on st; a lease, when given, replaces the
// default one.
func newFixture(t *testing.T, st *store.Store, blobs blob.Store, lease ...jobs.Lease) *fixture {
	t.Helper()
	ctx := context.Background()
	u := &store.User{Email: "lead@example.org", Name: "Lead", PasswordHash: "x", CanCreateProjects: true}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	m := media.New(st, blobs, media.Config{MaxUploadBytes: 1 << 20, SignedURLTTL: time.Minute})
	wf := workflow.New(workflow.Deps{Store: st, Media: m})
	d, err := projects.New(st, wf, blobs).CreateProject(ctx, u, projects.ProjectSpec{Name: "Ratings", Template: "likert-rating"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := st.Project(ctx, d.ID)
	fp, err := wf.LoadProject(ctx, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	in := insight.New(st, wf)
	f := &fixture{t: t, ctx: ctx, st: st, blobs: blobs, fp: fp, lead: u.ID, insight: in,
		imports:  imports.New(imports.Deps{Store: st, Workflow: wf, Blobs: blobs, Media: m}),
		releases: releases.New(releases.Deps{Store: st, Blobs: blobs, Flow: wf, Insight: in, Version: "test"})}
	f.runner = startJobs(t, st, f.deps(lease...))
	f.imports.UseJobs(f.runner)
	in.UseJobs(f.runner)
	f.releases.UseJobs(f.runner)
	return f
}

// deps are the queue's dependencies on the fixture's services, as a replica has them.
func (f *fixture) deps(lease ...jobs.Lease) jobs.Deps {
	d := jobs.Deps{Store: f.st, Imports: f.imports, Insight: f.insight, Releases: f.releases, Workers: 2}
	if len(lease) > 0 {
		d.Lease = lease[0]
	}
	return d
}

// startJobs starts the job queue on st and stops it after the test; PostgreSQL's workers get
// the store's URL.
func startJobs(t *testing.T, st *store.Store, d jobs.Deps) jobs.Runner {
	t.Helper()
	if st.Dialect() == store.Postgres {
		d.DatabaseURL = st.URL()
	}
	d.Log = slog.New(slog.DiscardHandler)
	r, err := jobs.Start(context.Background(), d)
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

// itemLines are n likert-rating items imported with rule ground truth, so done.
func itemLines(n int) string {
	var b strings.Builder
	for i := range n {
		line, _ := json.Marshal(map[string]any{
			"external_id":  fmt.Sprintf("item-%04d", i),
			"inputs":       map[string]any{"prompt": fmt.Sprintf("prompt %d", i), "output": []any{map[string]any{"id": "o1", "type": "text", "value": "out"}}},
			"ground_truth": map[string]any{"answers": map[string]any{"quality": 1 + i%5}, "provenance": "rule"},
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// waitFor polls cond until it holds, for at most 30 seconds.
func (f *fixture) waitFor(what string, cond func() bool) {
	f.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	f.t.Fatalf("%s did not happen in 30 s", what)
}

// queue is a River client on the store's database that only reads and retries jobs, as an
// operator's tool would.
func queue(t *testing.T, st *store.Store) *river.Client[*sql.Tx] {
	t.Helper()
	var (
		c   *river.Client[*sql.Tx]
		err error
	)
	if st.Dialect() == store.Postgres {
		c, err = river.NewClient(riverdatabasesql.New(st.SQL()), &river.Config{Logger: slog.New(slog.DiscardHandler)})
	} else {
		c, err = river.NewClient(riversqlite.New(st.SQL()), &river.Config{Logger: slog.New(slog.DiscardHandler)})
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// jobStates lists the states of the jobs of a kind, oldest first.
func (f *fixture) jobStates(q *river.Client[*sql.Tx], kind string) []string {
	f.t.Helper()
	res, err := q.JobList(f.ctx, river.NewJobListParams().Kinds(kind))
	if err != nil {
		f.t.Fatal(err)
	}
	out := make([]string, len(res.Jobs))
	for i, j := range res.Jobs {
		out[i] = string(j.State)
	}
	return out
}

// gatedBlobs holds every read of an uploaded import file until open is closed; entered is
// closed when the first such read begins.
type gatedBlobs struct {
	blob.Store
	open, entered chan struct{}
	once          sync.Once
}

func (b *gatedBlobs) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if strings.HasPrefix(key, "imports/") {
		b.once.Do(func() { close(b.entered) })
		<-b.open
	}
	return b.Store.Get(ctx, key)
}
