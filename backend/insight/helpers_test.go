package insight_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// smallSchema is a form with one binary question (N/A left open), one Likert scale and a
// free text, over a text prompt: small enough to count every figure by hand.
const smallSchema = `{"version": 1, "title": "small",
 "inputs": [{"name": "prompt", "type": "text", "label": "Prompt"}],
 "questions": [
  {"key": "ok", "kind": "binary", "label": "OK", "required": true, "allow_na": true},
  {"key": "score", "kind": "likert", "label": "Score", "required": true, "min": 1, "max": 5},
  {"key": "notes", "kind": "text", "label": "Notes", "max_length": 200}]}`

// fixture is one project on a real store with the services that drive it.
type fixture struct {
	t    *testing.T
	ctx  context.Context
	st   *store.Store
	wf   *workflow.Service
	in   *insight.Service
	imp  *imports.Service
	proj *projects.Service
	lead *store.User
	pid  string
	ext  map[string]string // item id → external id
}

// forEachBackend runs f on a fresh SQLite store, and on PostgreSQL when it is configured.
func forEachBackend(t *testing.T, f func(t *testing.T, st *store.Store)) {
	for _, b := range testenv.Backends() {
		t.Run(b.Name, func(t *testing.T) { f(t, b.Open(t)) })
	}
}

// newFixture creates a project of the spec (a template, or smallSchema when it names neither)
// led by a new user, with services over st.
func newFixture(t *testing.T, st *store.Store, spec projects.ProjectSpec) *fixture {
	t.Helper()
	ctx := context.Background()
	wf := workflow.New(workflow.Deps{Store: st})
	f := &fixture{t: t, ctx: ctx, st: st, wf: wf, in: insight.New(st, wf), proj: projects.New(st, wf, nil),
		imp: imports.New(imports.Deps{Store: st, Workflow: wf}), ext: map[string]string{}}
	f.lead = f.user("Lead")
	if spec.Name == "" {
		spec.Name = "insight"
	}
	if spec.Template == "" && spec.Schema == nil {
		var s tasks.Schema
		if err := json.Unmarshal([]byte(smallSchema), &s); err != nil {
			t.Fatal(err)
		}
		spec.Schema = &s
	}
	d, err := f.proj.CreateProject(ctx, f.lead, spec)
	if err != nil {
		t.Fatal(err)
	}
	f.pid = d.ID
	return f
}

// policy is a policy with the given overlap that never adjudicates.
func policy(overlap int) *workflow.Policy {
	return &workflow.Policy{Overlap: overlap, Adjudication: workflow.AdjudicateNever, OnNoConsensus: workflow.NoConsensusDrop}
}

// user creates a user named name and, with roles, makes them a member of the project.
func (f *fixture) user(name string, roles ...store.Role) *store.User {
	f.t.Helper()
	u := &store.User{Email: strings.ToLower(name) + "@example.org", Name: name, PasswordHash: "x", CanCreateProjects: true}
	if err := f.st.CreateUser(f.ctx, u); err != nil {
		f.t.Fatal(err)
	}
	if len(roles) > 0 {
		if err := f.st.SetMember(f.ctx, f.pid, u.ID, store.RoleSet(roles)); err != nil {
			f.t.Fatal(err)
		}
	}
	return u
}

// annotators creates annotators of the project, one per name.
func (f *fixture) annotators(names ...string) []*store.User {
	out := make([]*store.User, len(names))
	for i, n := range names {
		out[i] = f.user(n, store.RoleAnnotator)
	}
	return out
}

// project loads the project as it is now.
func (f *fixture) project() *workflow.Project {
	f.t.Helper()
	sp, err := f.st.Project(f.ctx, f.pid)
	if err != nil {
		f.t.Fatal(err)
	}
	p, err := f.wf.LoadProject(f.ctx, sp, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// importItems imports NDJSON lines, failing on any refused line.
func (f *fixture) importItems(lines ...string) {
	f.t.Helper()
	rep, err := f.imp.ImportItems(f.ctx, f.project(), f.lead.ID, strings.NewReader(strings.Join(lines, "\n")+"\n"), nil)
	if err != nil || len(rep.Errors) > 0 {
		f.t.Fatalf("import: %v %+v", err, rep)
	}
}

// importPredictions imports NDJSON prediction lines, failing on any refused line.
func (f *fixture) importPredictions(lines ...string) {
	f.t.Helper()
	rep, err := f.imp.ImportPredictions(f.ctx, f.project(), f.lead.ID, strings.NewReader(strings.Join(lines, "\n")+"\n"), nil)
	if err != nil || len(rep.Errors) > 0 {
		f.t.Fatalf("import predictions: %v %+v", err, rep)
	}
}

// line is an item line of smallSchema (or of any schema with a text prompt) with extra fields.
func line(ext string, extra ...string) string {
	s := fmt.Sprintf(`{"external_id": %q, "inputs": {"prompt": "Prompt %s"}`, ext, ext)
	for _, e := range extra {
		s += ", " + e
	}
	return s + "}"
}

// answers builds answers from key, value pairs.
func answers(kv ...any) tasks.Answers {
	out := tasks.Answers{}
	for i := 0; i+1 < len(kv); i += 2 {
		b, _ := json.Marshal(kv[i+1])
		out[kv[i].(string)] = b
	}
	return out
}

// labeled is one submitted label the test keeps.
type labeled struct {
	user, item, ext string
	claim           *workflow.Claim
}

// label has u claim label work until none is left, answering each item with answer (canonical
// answers; nil leaves the claim open and stops) in ms(ext) milliseconds. It returns the labels.
func (f *fixture) label(u *store.User, answer func(ext string) tasks.Answers, ms func(ext string) int64) []labeled {
	f.t.Helper()
	return f.work(u, flow.StageLabel, func(ext string) *workflow.Submission {
		a := answer(ext)
		if a == nil {
			return nil
		}
		return &workflow.Submission{Answers: a, TimeSpentMS: ms(ext)}
	})
}

// work has u claim work of a stage until none is left, submitting what sub gives for each item
// (answers canonical; nil leaves the claim open and stops). It returns what was submitted.
func (f *fixture) work(u *store.User, stage flow.Stage, sub func(ext string) *workflow.Submission) []labeled {
	f.t.Helper()
	var out []labeled
	p := f.project()
	w := workflow.Worker{ID: u.ID, Roles: store.RoleSet{stage.Role()}}
	for {
		c, err := f.wf.Next(f.ctx, p, u, w.Roles, stage, false)
		if err != nil {
			f.t.Fatalf("next %s as %s: %v", stage, u.Name, err)
		}
		if c == nil {
			return out
		}
		ext := f.extOf(c.Assignment.ItemID)
		in := sub(ext)
		if in == nil {
			return out
		}
		f.submit(p, w, c.Assignment, *in)
		out = append(out, labeled{u.ID, c.Assignment.ItemID, ext, c})
	}
}

// fixed is a time spent that is the same on every item.
func fixed(ms int64) func(string) int64 { return func(string) int64 { return ms } }

// submit submits to an assignment, its canonical answers mapped to the order it was shown in.
func (f *fixture) submit(p *workflow.Project, w workflow.Worker, a *store.Assignment, in workflow.Submission) {
	f.t.Helper()
	if in.Answers != nil {
		var sh tasks.Shuffle
		if len(a.Shuffle) > 0 {
			json.Unmarshal(a.Shuffle, &sh)
		}
		shown, err := p.StageSchema(a.Stage).ToShown(in.Answers, sh)
		if err != nil {
			f.t.Fatal(err)
		}
		in.Answers = shown
	}
	if _, err := f.wf.Submit(f.ctx, p, w, a.ID, in); err != nil {
		f.t.Fatalf("submit %s: %v", a.ID, err)
	}
}

// extOf is the external id of an item of the project.
func (f *fixture) extOf(itemID string) string {
	f.t.Helper()
	if e, ok := f.ext[itemID]; ok {
		return e
	}
	it, err := f.st.Item(f.ctx, f.pid, itemID)
	if err != nil {
		f.t.Fatal(err)
	}
	f.ext[itemID] = it.ExternalID
	return it.ExternalID
}

// queue records the refreshes the service asks for; fail makes every request fail.
type queue struct {
	mu      sync.Mutex
	agree   []string
	figures []string
	fail    error
}

func (q *queue) EnqueueAgreement(_ context.Context, _ *store.Store, projectID string, stage flow.Stage) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.agree = append(q.agree, projectID+"/"+string(stage))
	return q.fail
}

func (q *queue) EnqueueFigures(_ context.Context, _ *store.Store, projectID string, kind flow.FiguresKind, params string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.figures = append(q.figures, string(kind)+"?"+params)
	return q.fail
}

var _ insight.Enqueuer = (*queue)(nil)

// near fails unless got is set and within 1e-9 of want.
func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil || math.Abs(*got-want) > 1e-9 {
		t.Errorf("%s = %v, want %.12f", what, show(got), want)
	}
}

// show prints a figure that may be undefined.
func show(v *float64) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprint(*v)
}

// fieldCode is the code of a field error of err, or "" when err names no such field.
func fieldCode(err error, field string) string {
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return ""
	}
	return fe[field].Code
}

// openSQLite opens a fresh SQLite store, for tests of rules that do not depend on the engine.
func openSQLite(t *testing.T) *store.Store { return testenv.SQLite(t) }

// mustJSON encodes v.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
