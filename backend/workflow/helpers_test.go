package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// fixture is one store with the services of the work engine over it, a lead who creates the
// projects, and a clock the test moves by hand.
type fixture struct {
	t    *testing.T
	ctx  context.Context
	st   *store.Store
	wf   *workflow.Service
	prj  *projects.Service
	imp  *imports.Service
	lead *store.User
	now  time.Time
	n    int // people made so far
}

// forEachBackend runs fn on a fresh fixture over SQLite, and over PostgreSQL when configured.
func forEachBackend(t *testing.T, fn func(t *testing.T, f *fixture)) {
	for _, b := range testenv.Backends() {
		t.Run(b.Name, func(t *testing.T) { fn(t, newFixture(t, b.Open(t))) })
	}
}

func newFixture(t *testing.T, st *store.Store) *fixture {
	f := &fixture{t: t, ctx: context.Background(), st: st, now: time.Now().UTC().Truncate(time.Second)}
	f.wf = workflow.New(workflow.Deps{Store: st})
	f.wf.SetClock(func() time.Time { return f.now })
	f.prj = projects.New(st, f.wf, nil)
	f.imp = imports.New(imports.Deps{Store: st, Workflow: f.wf})
	f.lead = f.user("lead")
	return f
}

// advance moves the service's clock.
func (f *fixture) advance(d time.Duration) { f.now = f.now.Add(d) }

// user makes an account.
func (f *fixture) user(name string) *store.User {
	f.t.Helper()
	f.n++
	u := &store.User{Email: fmt.Sprintf("%s%d@example.org", name, f.n), Name: fmt.Sprintf("%s %d", name, f.n), PasswordHash: "x", CanCreateProjects: true}
	if err := f.st.CreateUser(f.ctx, u); err != nil {
		f.t.Fatal(err)
	}
	return u
}

// person is a member of a project with their roles.
type person struct {
	*store.User
	roles store.RoleSet
}

// w is the person as the engine's actions take them.
func (p person) w() workflow.Worker { return workflow.Worker{ID: p.ID, Roles: p.roles} }

// member makes a user and adds them to the project with the roles.
func (f *fixture) member(p *workflow.Project, roles ...store.Role) person {
	f.t.Helper()
	u := f.user(string(roles[0]))
	if err := f.st.SetMember(f.ctx, p.ID, u.ID, store.RoleSet(roles)); err != nil {
		f.t.Fatal(err)
	}
	return person{User: u, roles: roles}
}

// template makes a project from a built-in template with the policy.
func (f *fixture) template(name string, pol workflow.Policy) *workflow.Project {
	f.t.Helper()
	return f.project(projects.ProjectSpec{Template: name, Workflow: &pol})
}

// project makes a project from a spec (named when it is not) and loads it.
func (f *fixture) project(spec projects.ProjectSpec) *workflow.Project {
	f.t.Helper()
	if spec.Name == "" {
		spec.Name = "project " + spec.Template
	}
	d, err := f.prj.CreateProject(f.ctx, f.lead, spec)
	if err != nil {
		f.t.Fatalf("create project: %v", err)
	}
	return f.load(d.ID)
}

// load reads a project as the engine works with it.
func (f *fixture) load(id string) *workflow.Project {
	f.t.Helper()
	sp, err := f.st.Project(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	p, err := f.wf.LoadProject(f.ctx, sp, 0)
	if err != nil {
		f.t.Fatalf("load project: %v", err)
	}
	return p
}

// importItems brings NDJSON lines in; every line must be taken.
func (f *fixture) importItems(p *workflow.Project, lines ...string) {
	f.t.Helper()
	rep, err := f.imp.ImportItems(f.ctx, p, f.lead.ID, strings.NewReader(strings.Join(lines, "\n")), nil)
	if err != nil || len(rep.Errors) > 0 {
		f.t.Fatalf("import: %v %+v", err, rep)
	}
}

// likertLine is an item of the likert-rating and binary-checklist templates.
func likertLine(id string) string {
	return fmt.Sprintf(`{"external_id":%q,"inputs":{"prompt":"Describe %s","output":[{"id":"o-%s","type":"text","value":"an answer"}]}}`, id, id, id)
}

// pairLine is an item of the pairwise-preference template.
func pairLine(id string) string {
	return fmt.Sprintf(`{"external_id":%q,"inputs":{"prompt":"Compare %s","responses":[{"id":"a","type":"text","value":"first"},{"id":"b","type":"text","value":"second"}]}}`, id, id)
}

// next claims work and fails the test on an error.
func (f *fixture) next(p *workflow.Project, who person, stage flow.Stage) *workflow.Claim {
	f.t.Helper()
	c, err := f.wf.Next(f.ctx, p, who.User, who.roles, stage, false)
	if err != nil {
		f.t.Fatalf("next %s for %s: %v", stage, who.Name, err)
	}
	return c
}

// claim is next that must hand out work.
func (f *fixture) claim(p *workflow.Project, who person, stage flow.Stage) *workflow.Claim {
	f.t.Helper()
	c := f.next(p, who, stage)
	if c == nil {
		f.t.Fatalf("no %s work for %s", stage, who.Name)
	}
	return c
}

// submit submits answers (JSON) to a claim and fails the test on an error.
func (f *fixture) submit(p *workflow.Project, who person, c *workflow.Claim, in workflow.Submission) *workflow.Result {
	f.t.Helper()
	res, err := f.wf.Submit(f.ctx, p, who.w(), c.Assignment.ID, in)
	if err != nil {
		f.t.Fatalf("submit %s for %s: %v", c.Assignment.Stage, who.Name, err)
	}
	return res
}

// label claims a label and submits the answers.
func (f *fixture) label(p *workflow.Project, who person, answers string) *workflow.Result {
	f.t.Helper()
	return f.submit(p, who, f.claim(p, who, flow.StageLabel), workflow.Submission{Answers: ans(answers), TimeSpentMS: 5000})
}

// item reads an item by its external id.
func (f *fixture) item(p *workflow.Project, externalID string) *store.Item {
	f.t.Helper()
	it, err := f.st.ItemByExternalID(f.ctx, p.ID, externalID)
	if err != nil {
		f.t.Fatalf("item %s: %v", externalID, err)
	}
	return it
}

// itemByID reads an item of the project.
func (f *fixture) itemByID(p *workflow.Project, id string) *store.Item {
	f.t.Helper()
	it, err := f.st.Item(f.ctx, p.ID, id)
	if err != nil {
		f.t.Fatalf("item %s: %v", id, err)
	}
	return it
}

// assignment reads an assignment.
func (f *fixture) assignment(id string) *store.Assignment {
	f.t.Helper()
	a, err := f.st.Assignment(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

// truth reads an item's latest ground truth, nil when it has none.
func (f *fixture) truth(it *store.Item) *store.GroundTruth {
	f.t.Helper()
	gts, err := f.st.LatestGroundTruth(f.ctx, []string{it.ID})
	if err != nil {
		f.t.Fatal(err)
	}
	return gts[it.ID]
}

// audited reports whether the project's audit trail holds an event of the action.
func (f *fixture) audited(p *workflow.Project, action string) bool {
	f.t.Helper()
	evs, err := f.st.AuditEvents(f.ctx, p.ID, 1000)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, e := range evs {
		if e.Action == action {
			return true
		}
	}
	return false
}

// ans reads answers written as JSON.
func ans(s string) tasks.Answers {
	var a tasks.Answers
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		panic(err)
	}
	return a
}

// answersOf decodes stored answers into plain values, for comparisons.
func answersOf(t *testing.T, raw store.JSON) map[string]any {
	t.Helper()
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// wantErr fails unless err is target.
func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want %v", err, target)
	}
}

// wantField fails unless err holds a field error with the code.
func wantField(t *testing.T, err error, field, code string) {
	t.Helper()
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		t.Fatalf("error %v, want a field error on %s", err, field)
	}
	if got, ok := fe[field]; !ok || got.Code != code {
		t.Fatalf("field errors %v, want %s %s", fe, field, code)
	}
}

// intp points at an int.
func intp(n int) *int { return &n }
