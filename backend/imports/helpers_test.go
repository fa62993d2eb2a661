package imports_test

import (
	"context"
	"encoding/json"
	"errors"
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

// project makes a d3omni-t2i project in st and loads it.
func project(t testing.TB, st *store.Store) *workflow.Project {
	ctx := context.Background()
	u := &store.User{Email: "lead@example.org", Name: "Lead", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	tpl, _ := tasks.LookupTemplate("d3omni-t2i")
	doc, _ := json.Marshal(workflow.SchemaDoc{Schema: tpl.Schema})
	p := &store.Project{Name: "import", CreatedBy: u.ID, Workflow: store.JSON(`{"overlap":3}`)}
	if err := st.CreateProject(ctx, p, &store.SchemaVersion{Version: 1, Schema: doc, Hash: tpl.Schema.ContentHash()}); err != nil {
		t.Fatal(err)
	}
	fp, err := workflow.New(workflow.Deps{Store: st}).LoadProject(ctx, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

// photoSchema is the schema most import tests use: a prompt and an optional photo, two
// questions that both need the photo (an item without one has nothing left to answer) and
// a free-text note.
const photoSchema = `{
	"version": 1, "title": "Photos",
	"inputs": [
		{"name": "prompt", "type": "text"},
		{"name": "photo", "type": "image", "optional": true}
	],
	"questions": [
		{"key": "sharp", "kind": "binary", "label": "Sharp?", "required": true, "needs": ["photo"]},
		{"key": "score", "kind": "likert", "label": "Score", "required": true, "min": 1, "max": 3, "needs": ["photo"],
		 "anchors": [{"value": 1, "label": "bad"}, {"value": 2, "label": "fair"}, {"value": 3, "label": "good"}]}
	]
}`

// fixture is one store with the services an import needs, and a lead who makes projects.
type fixture struct {
	t     testing.TB
	ctx   context.Context
	st    *store.Store
	blobs blob.Store
	media *media.Service
	wf    *workflow.Service
	prj   *projects.Service
	im    *imports.Service
	lead  *store.User
}

func newFixture(t testing.TB, st *store.Store) *fixture {
	t.Helper()
	ctx := context.Background()
	lead := &store.User{Email: "lead@example.org", Name: "Lead", PasswordHash: "x", CanCreateProjects: true}
	if err := st.CreateUser(ctx, lead); err != nil {
		t.Fatal(err)
	}
	blobs := testenv.LocalBlobs(t)
	m := media.New(st, blobs, media.Config{MaxUploadBytes: 1 << 20, SignedURLTTL: time.Minute})
	wf := workflow.New(workflow.Deps{Store: st, Media: m})
	return &fixture{t: t, ctx: ctx, st: st, blobs: blobs, media: m, wf: wf, prj: projects.New(st, wf, blobs),
		im: imports.New(imports.Deps{Store: st, Workflow: wf, Blobs: blobs, Media: m}), lead: lead}
}

// photos makes a project of photoSchema with the given policy.
func (f *fixture) photos(pol workflow.Policy) *workflow.Project {
	f.t.Helper()
	var schema tasks.Schema
	if err := json.Unmarshal([]byte(photoSchema), &schema); err != nil {
		f.t.Fatal(err)
	}
	return f.create(projects.ProjectSpec{Name: "photos", Schema: &schema, Workflow: &pol})
}

// create makes a project and loads its current version.
func (f *fixture) create(spec projects.ProjectSpec) *workflow.Project {
	f.t.Helper()
	d, err := f.prj.CreateProject(f.ctx, f.lead, spec)
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

// importItems imports the lines as items and fails the test on an error that stops the import.
func (f *fixture) importItems(p *workflow.Project, lines ...string) *imports.ImportReport {
	f.t.Helper()
	rep, err := f.im.ImportItems(f.ctx, p, f.lead.ID, ndjson(lines...), nil)
	if err != nil {
		f.t.Fatal(err)
	}
	return rep
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

// missing reports whether the project has no item with the external id.
func (f *fixture) missing(p *workflow.Project, externalID string) bool {
	f.t.Helper()
	_, err := f.st.ItemByExternalID(f.ctx, p.ID, externalID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		f.t.Fatal(err)
	}
	return errors.Is(err, store.ErrNotFound)
}

// upload stores a file as an asset of the project.
func (f *fixture) upload(projectID, name string, data []byte) *store.Asset {
	f.t.Helper()
	a, err := f.media.Upload(f.ctx, projectID, f.lead.ID, name, strings.NewReader(string(data)))
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

// ndjson joins lines into an NDJSON body.
func ndjson(lines ...string) *strings.Reader {
	return strings.NewReader(strings.Join(lines, "\n") + "\n")
}

// lineErrors maps each refused line to its error, and each field error's field to its code.
func lineErrors(rep *imports.ImportReport) map[int]string {
	out := map[int]string{}
	for _, e := range rep.Errors {
		out[e.Line] = e.Error
		if fe, ok := e.Details.(tasks.FieldErrors); ok {
			for field, v := range fe {
				out[e.Line] += " " + field + "=" + v.Code
			}
		}
	}
	return out
}

// pngBytes is the smallest PNG file: one transparent pixel.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\x00\x01\x00\x00\x05\x00\x01\r\n-\xb4\x00\x00\x00\x00IEND\xaeB`\x82")

// truths lists an item's ground truth revisions.
func (f *fixture) truths(itemID string) []store.GroundTruth {
	f.t.Helper()
	gts, err := f.st.GroundTruthHistory(f.ctx, itemID)
	if err != nil {
		f.t.Fatal(err)
	}
	return gts
}

// answer is the JSON of one answer of stored answers.
func answer(t testing.TB, answers store.JSON, key string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(answers, &m); err != nil {
		t.Fatalf("answers %s: %v", answers, err)
	}
	return string(m[key])
}

// claim makes a new annotator and claims the item with the external id for them.
func (f *fixture) claim(p *workflow.Project, email, externalID string) {
	f.t.Helper()
	u := &store.User{Email: email, Name: email, PasswordHash: "x"}
	if err := f.st.CreateUser(f.ctx, u); err != nil {
		f.t.Fatal(err)
	}
	if err := f.st.SetMember(f.ctx, p.ID, u.ID, store.RoleSet{store.RoleAnnotator}); err != nil {
		f.t.Fatal(err)
	}
	it := f.item(p, externalID)
	err := f.st.WithTx(f.ctx, func(tx *store.Store) error {
		a, _, err := f.wf.TryClaim(f.ctx, tx, p, u.ID, flow.StageLabel, it.ID, f.wf.Now())
		if err == nil && a == nil {
			err = errors.New("nothing to claim")
		}
		return err
	})
	if err != nil {
		f.t.Fatalf("claim %s: %v", externalID, err)
	}
}
