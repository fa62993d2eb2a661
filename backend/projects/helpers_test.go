package projects_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ratingSchema is the schema of most project tests: a prompt and an output, rated on a
// 1-5 scale and judged acceptable or not.
const ratingSchema = `{
	"version": 1, "title": "Ratings",
	"inputs": [{"name": "prompt", "type": "text"}, {"name": "output", "type": "text"}],
	"questions": [
		{"key": "score", "kind": "likert", "label": "Score", "required": true, "min": 1, "max": 5},
		{"key": "ok", "kind": "binary", "label": "Acceptable?", "required": true}
	]
}`

// rating returns a fresh copy of ratingSchema.
func rating(t testing.TB) *tasks.Schema {
	t.Helper()
	var s tasks.Schema
	if err := json.Unmarshal([]byte(ratingSchema), &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// fixture is one store with the services a project needs, an administrator and a lead who
// may create projects.
type fixture struct {
	t     testing.TB
	ctx   context.Context
	st    *store.Store
	blobs blob.Store
	wf    *workflow.Service
	prj   *projects.Service
	im    *imports.Service
	admin *store.User
	lead  *store.User
}

func newFixture(t testing.TB, st *store.Store) *fixture {
	t.Helper()
	blobs := testenv.LocalBlobs(t)
	m := media.New(st, blobs, media.Config{MaxUploadBytes: 1 << 20, SignedURLTTL: time.Minute})
	wf := workflow.New(workflow.Deps{Store: st, Media: m})
	f := &fixture{t: t, ctx: context.Background(), st: st, blobs: blobs, wf: wf, prj: projects.New(st, wf, blobs),
		im: imports.New(imports.Deps{Store: st, Workflow: wf, Blobs: blobs, Media: m})}
	f.admin = f.account(&store.User{Email: "admin@example.org", IsAdmin: true})
	f.lead = f.account(&store.User{Email: "lead@example.org", CanCreateProjects: true})
	return f
}

// user makes an account that may not create projects.
func (f *fixture) user(email string) *store.User { return f.account(&store.User{Email: email}) }

// account makes the account u.
func (f *fixture) account(u *store.User) *store.User {
	f.t.Helper()
	u.Name, u.PasswordHash = strings.Split(u.Email, "@")[0], "x"
	if err := f.st.CreateUser(f.ctx, u); err != nil {
		f.t.Fatal(err)
	}
	return u
}

// ratings makes a project of ratingSchema with the lead and the given policy.
func (f *fixture) ratings(pol workflow.Policy) *workflow.Project {
	f.t.Helper()
	d, err := f.prj.CreateProject(f.ctx, f.lead, projects.ProjectSpec{Name: "ratings", Schema: rating(f.t), Workflow: &pol})
	if err != nil {
		f.t.Fatal(err)
	}
	return f.load(d.ID)
}

// load reads a project at its current version.
func (f *fixture) load(id string) *workflow.Project {
	f.t.Helper()
	p, err := f.st.Project(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	fp, err := f.wf.LoadProject(f.ctx, p, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	return fp
}

// member gives u exactly these roles in the project, as its lead would.
func (f *fixture) member(p *workflow.Project, u *store.User, roles ...store.Role) {
	f.t.Helper()
	if err := f.st.SetMember(f.ctx, p.ID, u.ID, store.RoleSet(roles)); err != nil {
		f.t.Fatal(err)
	}
}

// importItems imports rating items with the given external ids.
func (f *fixture) importItems(p *workflow.Project, ids ...string) {
	f.t.Helper()
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(`{"external_id":"` + id + `","inputs":{"prompt":"p ` + id + `","output":"o"}}` + "\n")
	}
	f.importLines(p, b.String())
}

// importLines imports NDJSON items and requires every line to be taken.
func (f *fixture) importLines(p *workflow.Project, lines string) {
	f.t.Helper()
	rep, err := f.im.ImportItems(f.ctx, p, f.lead.ID, strings.NewReader(lines), nil)
	if err != nil || len(rep.Errors) > 0 {
		f.t.Fatalf("import: %v %+v", err, rep)
	}
}

// item reads a project's item by its external id.
func (f *fixture) item(p *workflow.Project, externalID string) *store.Item {
	f.t.Helper()
	it, err := f.st.ItemByExternalID(f.ctx, p.ID, externalID)
	if err != nil {
		f.t.Fatalf("item %s: %v", externalID, err)
	}
	return it
}

// roles are u's roles in the project.
func (f *fixture) roles(p *workflow.Project, u *store.User) store.RoleSet {
	f.t.Helper()
	m, err := f.st.Member(f.ctx, p.ID, u.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return m.Roles
}

// claim claims the next work of a stage for u, and requires there to be some.
func (f *fixture) claim(p *workflow.Project, u *store.User, stage flow.Stage) *store.Assignment {
	f.t.Helper()
	c, err := f.wf.Next(f.ctx, p, u, f.roles(p, u), stage, false)
	if err != nil || c == nil {
		f.t.Fatalf("%s claims %s work: %v %v", u.Email, stage, c, err)
	}
	return c.Assignment
}

// label claims label work for u and submits the score and the ok answer.
func (f *fixture) label(p *workflow.Project, u *store.User, score int, ok string) *store.Assignment {
	f.t.Helper()
	a := f.claim(p, u, flow.StageLabel)
	w := workflow.Worker{ID: u.ID, Roles: f.roles(p, u)}
	if _, err := f.wf.Submit(f.ctx, p, w, a.ID, workflow.Submission{Answers: answers(score, ok), TimeSpentMS: 20_000}); err != nil {
		f.t.Fatalf("%s submits: %v", u.Email, err)
	}
	return a
}

// audited reports whether the project's latest audit events include the action.
func (f *fixture) audited(projectID, action string) bool {
	f.t.Helper()
	es, err := f.st.AuditEvents(f.ctx, projectID, 50)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, e := range es {
		if e.Action == action {
			return true
		}
	}
	return false
}

// fieldCode is the code of err's field error at field, "" when there is none.
func fieldCode(err error, field string) string {
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return ""
	}
	return fe[field].Code
}

// upload stores a small file as an asset of the project.
func (f *fixture) upload(p *workflow.Project, name string) *store.Asset {
	f.t.Helper()
	m := media.New(f.st, f.blobs, media.Config{MaxUploadBytes: 1 << 20})
	a, err := m.Upload(f.ctx, p.ID, f.lead.ID, name, strings.NewReader("file bytes"))
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

// answers are the rating answers of a label.
func answers(score int, ok string) tasks.Answers {
	return tasks.Answers{"score": json.RawMessage(strconv.Itoa(score)), "ok": json.RawMessage(`"` + ok + `"`)}
}

// answer is the JSON of one answer of stored answers.
func answer(t testing.TB, stored store.JSON, key string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(stored, &m); err != nil {
		t.Fatalf("answers %s: %v", stored, err)
	}
	return string(m[key])
}

// isNotFound reports whether err says something does not exist.
func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
