package insight_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// benchProject opens a PostgreSQL store and creates a project of the template for a large
// generated data set; load returns the project once the data is in.
func benchProject(t *testing.T, template string) (st *store.Store, fl *insight.Service, id string, load func() *workflow.Project) {
	t.Helper()
	ctx := context.Background()
	st = testenv.Postgres(t)
	wf := workflow.New(workflow.Deps{Store: st})
	fl = insight.New(st, wf)
	u := &store.User{Email: "lead@example.org", Name: "Lead", PasswordHash: "x", CanCreateProjects: true}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	d, err := projects.New(st, wf, nil).CreateProject(ctx, u, projects.ProjectSpec{Name: "bench", Template: template})
	if err != nil {
		t.Fatal(err)
	}
	load = func() *workflow.Project {
		t.Helper()
		if _, err := st.SQL().ExecContext(ctx, "ANALYZE"); err != nil {
			t.Fatal(err)
		}
		sp, err := st.Project(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		p, err := wf.LoadProject(ctx, sp, 0)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	return st, fl, d.ID, load
}

// checkKeptAnswers calls answer 200 times, each of which must come from the kept figures
// (answer fails the test otherwise), and reports the latency; the goal is a p95 under 100 ms.
func checkKeptAnswers(t *testing.T, what string, answer func()) {
	t.Helper()
	var lat []time.Duration
	for range 200 {
		began := time.Now()
		answer()
		lat = append(lat, time.Since(began))
	}
	slices.Sort(lat)
	t.Logf("%s: answer from the kept figures over 200 calls: median %s, p95 %s, max %s", what, lat[100], lat[189], lat[199])
	if lat[189] > 100*time.Millisecond {
		t.Errorf("%s: p95 %s is over 100 ms", what, lat[189])
	}
}
