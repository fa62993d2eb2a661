package calibration_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/calibration"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// calSchema has an ordinal question (a Likert scale with N/A), a nominal one (binary) and a
// free text, over a text prompt.
const calSchema = `{"version": 1, "title": "calibration",
 "inputs": [{"name": "prompt", "type": "text", "label": "Prompt"}],
 "questions": [
  {"key": "score", "kind": "likert", "label": "Score", "min": 1, "max": 5, "allow_na": true},
  {"key": "ok", "kind": "binary", "label": "OK"},
  {"key": "notes", "kind": "text", "label": "Notes", "max_length": 200}]}`

// fixture is one project with a calibration pool, on a real store.
type fixture struct {
	t    *testing.T
	ctx  context.Context
	st   *store.Store
	wf   *workflow.Service
	cal  *calibration.Service
	imp  *imports.Service
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

// newFixture creates a project of calSchema (or of the spec's template) that requires a
// qualification for label work, led by a new user.
func newFixture(t *testing.T, st *store.Store, spec projects.ProjectSpec) *fixture {
	t.Helper()
	ctx := context.Background()
	wf := workflow.New(workflow.Deps{Store: st})
	f := &fixture{t: t, ctx: ctx, st: st, wf: wf, cal: calibration.New(st, wf), imp: imports.New(imports.Deps{Store: st, Workflow: wf}),
		ext: map[string]string{}}
	f.lead = f.user("Lead")
	if spec.Name == "" {
		spec.Name = "calibration"
	}
	if spec.Template == "" && spec.Schema == nil {
		var s tasks.Schema
		if err := json.Unmarshal([]byte(calSchema), &s); err != nil {
			t.Fatal(err)
		}
		spec.Schema = &s
	}
	if spec.Workflow == nil {
		spec.Workflow = &workflow.Policy{Overlap: 1, RequireQualification: true}
	}
	d, err := projects.New(st, wf, nil).CreateProject(ctx, f.lead, spec)
	if err != nil {
		t.Fatal(err)
	}
	f.pid = d.ID
	return f
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

// importPool imports NDJSON lines into the calibration pool, failing on any refused line.
func (f *fixture) importPool(lines ...string) {
	f.t.Helper()
	rep, err := f.imp.ImportPool(f.ctx, f.project(), f.lead.ID, strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if err != nil || len(rep.Errors) > 0 {
		f.t.Fatalf("pool import: %v %+v", err, rep)
	}
}

// importItems imports NDJSON production items, failing on any refused line.
func (f *fixture) importItems(lines ...string) {
	f.t.Helper()
	rep, err := f.imp.ImportItems(f.ctx, f.project(), f.lead.ID, strings.NewReader(strings.Join(lines, "\n")+"\n"), nil)
	if err != nil || len(rep.Errors) > 0 {
		f.t.Fatalf("import: %v %+v", err, rep)
	}
}

// poolLine is an item line of calSchema; gold, when given, is its gold answer.
func poolLine(ext, gold string) string {
	s := fmt.Sprintf(`{"external_id": %q, "inputs": {"prompt": "Prompt %s"}`, ext, ext)
	if gold != "" {
		s += `, "ground_truth": {"answers": ` + gold + `}`
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

// claimed is one piece of calibration work: its assignment and item.
type claimed struct {
	aid, item, ext string
}

// participate has u claim calibration work until none is left, answering each item with
// answer in ms(ext) milliseconds; a nil answer leaves that claim open and stops. It returns
// what was submitted, and the claim left open, if any.
func (f *fixture) participate(u *store.User, answer func(ext string) tasks.Answers, ms func(ext string) int64) ([]claimed, *claimed) {
	f.t.Helper()
	var out []claimed
	p := f.project()
	w := workflow.Worker{ID: u.ID, Roles: store.RoleSet{store.RoleAnnotator}}
	for {
		c, err := f.wf.Next(f.ctx, p, u, w.Roles, flow.StageCalibration, false)
		if err != nil {
			f.t.Fatalf("next calibration as %s: %v", u.Name, err)
		}
		if c == nil {
			return out, nil
		}
		if c.Assignment.Stage != flow.StageCalibration || c.Assignment.RoundID == nil {
			f.t.Fatalf("a calibration claim of stage %s, round %v", c.Assignment.Stage, c.Assignment.RoundID)
		}
		cl := claimed{c.Assignment.ID, c.Assignment.ItemID, f.extOf(c.Assignment.ItemID)}
		a := answer(cl.ext)
		if a == nil {
			return out, &cl
		}
		if _, err := f.wf.Submit(f.ctx, p, w, cl.aid, workflow.Submission{Answers: a, TimeSpentMS: ms(cl.ext)}); err != nil {
			f.t.Fatalf("submit as %s: %v", u.Name, err)
		}
		out = append(out, cl)
	}
}

// fixed is a time spent that is the same on every item.
func fixed(ms int64) func(string) int64 { return func(string) int64 { return ms } }

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

// itemID is the id of the item with an external id.
func (f *fixture) itemID(ext string) string {
	f.t.Helper()
	it, err := f.st.ItemByExternalID(f.ctx, f.pid, ext)
	if err != nil {
		f.t.Fatal(err)
	}
	f.ext[it.ID] = ext
	return it.ID
}

// fieldCode is the code of a field error of err, or "" when err names no such field.
func fieldCode(err error, field string) string {
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return ""
	}
	return fe[field].Code
}

// fieldMessage is the message of err's field error at field, or "".
func fieldMessage(err error, field string) string {
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return ""
	}
	return fe[field].Message
}

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

// roundRun is a project whose first round Ann, Ben and Cat have worked: see runRoundOne.
type roundRun struct {
	*fixture
	ann, ben, cat, vic *store.User
	round              *calibration.RoundView
	left               *claimed // Cat's claim of c3, left open
}

// roundOneAnswers is what each participant answers in round one (Cat leaves c3 open).
var roundOneAnswers = map[string]map[string]tasks.Answers{
	"Ann": {"c1": answers("score", 4, "ok", "yes"), "c2": answers("score", 2, "ok", "no"), "c3": answers("score", 5, "ok", "yes")},
	"Ben": {"c1": answers("score", 3, "ok", "yes"), "c2": answers("score", 2, "ok", "yes"), "c3": answers("score", 4, "ok", "yes")},
	"Cat": {"c1": answers("score", 4, "ok", "no"), "c2": answers("score", 1, "ok", "no")},
}

// roundOneTimes are Ann's seconds per item (Ben and Cat take 3 s each).
var roundOneTimes = map[string]int64{"c1": 2000, "c2": 6000, "c3": 4000}

// runRoundOne makes a project of calSchema with a pool of four items (gold: c1 score 4 and
// Yes, c2 score 2 and No, c3 score 5 only, c4 none) and one production item; Ann, Ben and Cat
// annotate, Vic views. Round one (c1, c2, c3; pass: accuracy against gold of at least 0.75
// over score and ok) is worked as roundOneAnswers says, and stays open.
func runRoundOne(t *testing.T, st *store.Store) *roundRun {
	t.Helper()
	f := newFixture(t, st, projects.ProjectSpec{})
	r := &roundRun{fixture: f, ann: f.user("Ann", store.RoleAnnotator), ben: f.user("Ben", store.RoleAnnotator),
		cat: f.user("Cat", store.RoleAnnotator), vic: f.user("Vic", store.RoleViewer)}
	f.importPool(poolLine("c1", `{"score": 4, "ok": "yes"}`), poolLine("c2", `{"score": 2, "ok": "no"}`), poolLine("c3", `{"score": 5}`), poolLine("c4", ""))
	f.importItems(poolLine("prod1", ""))
	rv, err := f.cal.CreateRound(f.ctx, f.project(), f.lead.ID, calibration.RoundSpec{Name: " Round one ", ExternalIDs: []string{"c1", "c2", "c3"},
		Participants: []string{r.ann.ID, "BEN@example.org", r.cat.ID},
		Pass:         calibration.PassRule{Metric: flow.PassAccuracyVsGold, Threshold: 0.75, Questions: []string{"score", "ok"}}})
	if err != nil {
		t.Fatal(err)
	}
	r.round = rv
	for _, u := range []*store.User{r.ann, r.ben, r.cat} {
		ms := fixed(3000)
		if u == r.ann {
			ms = func(ext string) int64 { return roundOneTimes[ext] }
		}
		got, left := f.participate(u, func(ext string) tasks.Answers { return roundOneAnswers[u.Name][ext] }, ms)
		if len(got) != len(roundOneAnswers[u.Name]) || (left != nil) != (u == r.cat) {
			t.Fatalf("%s worked %+v, left %+v", u.Name, got, left)
		}
		if left != nil {
			r.left = left
		}
	}
	return r
}

// openSQLite opens a fresh SQLite store, for tests of rules that do not depend on the engine.
func openSQLite(t *testing.T) *store.Store { return testenv.SQLite(t) }
