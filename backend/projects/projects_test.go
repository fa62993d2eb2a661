package projects_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestSchemaVersioning holds the one versioning rule: any change to the schema document
// (schema or forms, help text included) is a new version; the same content is not.
func TestSchemaVersioning(t *testing.T) {
	ctx := context.Background()
	st := testenv.SQLite(t)
	u := &store.User{Email: "lead@example.org", Name: "Lead", PasswordHash: "x", CanCreateProjects: true}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	wf := workflow.New(workflow.Deps{Store: st})
	prj := projects.New(st, wf, nil)
	created, err := prj.CreateProject(ctx, u, projects.ProjectSpec{Name: "v", Template: "omnireward-pair"})
	if err != nil {
		t.Fatal(err)
	}
	tpl, _ := tasks.LookupTemplate("omnireward-pair")
	if len(tpl.Forms) == 0 {
		t.Fatal("omnireward-pair has no extra form to change")
	}
	forms := func(edit func(*tasks.Schema)) map[string]tasks.Schema {
		out := map[string]tasks.Schema{}
		for _, f := range tpl.Forms {
			s := f.Schema
			s.Questions = append([]tasks.Question(nil), s.Questions...)
			if edit != nil {
				edit(&s)
			}
			out[f.Key] = s
		}
		return out
	}
	helped := tpl.Schema
	helped.Questions = append([]tasks.Question(nil), helped.Questions...)
	helped.Questions[0].Help += " Look closely."
	steps := []struct {
		name   string
		schema tasks.Schema
		forms  map[string]tasks.Schema
		want   int
	}{
		{"same content", tpl.Schema, forms(nil), 1},
		{"help text changed", helped, forms(nil), 2},
		{"same again", helped, forms(nil), 2},
		{"a form changed", helped, forms(func(s *tasks.Schema) { s.Questions[0].Help += " Be specific." }), 3},
	}
	if created.SchemaVersion != 1 {
		t.Fatalf("created at version %d", created.SchemaVersion)
	}
	for _, step := range steps {
		p, err := st.Project(ctx, created.ID)
		if err != nil {
			t.Fatal(err)
		}
		schema := step.schema
		got, err := prj.PatchProject(ctx, u.ID, p, store.RoleSet{store.RoleLead}, projects.ProjectPatch{Schema: &schema, Forms: step.forms})
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if got.SchemaVersion != step.want {
			t.Errorf("%s: version %d, want %d", step.name, got.SchemaVersion, step.want)
		}
	}
	p, _ := st.Project(ctx, created.ID)
	first, err := wf.LoadProject(ctx, p, 1)
	if err != nil || first.Schema.Questions[0].Help != tpl.Schema.Questions[0].Help {
		t.Errorf("version 1 changed after later versions: %v", err)
	}
}

// TestCreateFromEveryTemplate: every built-in template makes a project at schema version 1
// with the template's schema, forms and policy (the defaults when it has none), its creator its
// lead; an administrator holds every role.
func TestCreateFromEveryTemplate(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	for _, tpl := range tasks.Templates() {
		own := workflow.Policy{}
		if len(tpl.Workflow) > 0 {
			if err := json.Unmarshal(tpl.Workflow, &own); err != nil {
				t.Fatalf("%s: %v", tpl.ID, err)
			}
		}
		d, err := f.prj.CreateProject(f.ctx, f.lead, projects.ProjectSpec{Name: "  " + tpl.ID + " ", Template: tpl.ID})
		if err != nil {
			t.Errorf("%s: %v", tpl.ID, err)
			continue
		}
		if d.Name != tpl.ID || d.Template != tpl.ID || d.SchemaVersion != 1 || d.Schema == nil || len(d.Schema.Questions) != len(tpl.Schema.Questions) ||
			len(d.Forms) != len(tpl.Forms) || !slices.Equal(d.MyRoles, store.RoleSet{store.RoleLead}) || !reflect.DeepEqual(d.Workflow, own.Defaults()) {
			t.Errorf("%s: created %+v", tpl.ID, d)
		}
		p, _ := f.st.Project(f.ctx, d.ID)
		got, err := f.prj.Detail(f.ctx, p, store.RoleSet{store.RoleViewer})
		if err != nil || got.Schema.ContentHash() != tpl.Schema.ContentHash() || got.SchemaVersion != 1 {
			t.Errorf("%s: detail %v %+v", tpl.ID, err, got)
		}
		if !slices.Equal(f.roles(f.load(d.ID), f.lead), store.RoleSet{store.RoleLead}) || !f.audited(d.ID, "project.create") {
			t.Errorf("%s: the creator is not the lead, or the creation is not audited", tpl.ID)
		}
	}
	d, err := f.prj.CreateProject(f.ctx, f.admin, projects.ProjectSpec{Name: "by an administrator", Template: "likert-rating"})
	if err != nil || !slices.Equal(d.MyRoles, store.Roles) {
		t.Fatalf("an administrator's roles: %v %v", err, d)
	}
}

// TestCreateProjectRefusals: each way a creation request can be wrong is refused with the
// field that is wrong; nothing is written.
func TestCreateProjectRefusals(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	badMax := rating(t)
	badMax.Questions[0].Max = new(int)
	badForm := map[string]tasks.Schema{"extra": {Inputs: []tasks.Input{{Name: "x", Type: "text"}}, Questions: []tasks.Question{{Key: "q", Kind: "nope", Label: "Q"}}}}
	tests := []struct {
		name  string
		spec  projects.ProjectSpec
		field string
		code  string
	}{
		{"a blank name", projects.ProjectSpec{Name: "  ", Template: "likert-rating"}, "name", "invalid_length"},
		{"a template and a schema", projects.ProjectSpec{Name: "x", Template: "likert-rating", Schema: rating(t)}, "template", "conflict"},
		{"an unknown template", projects.ProjectSpec{Name: "x", Template: "no-such"}, "template", "unknown_template"},
		{"a long description", projects.ProjectSpec{Name: "x", Description: strings.Repeat("d", 10_001)}, "description", "too_long"},
		{"long guidelines", projects.ProjectSpec{Name: "x", Guidelines: strings.Repeat("g", 200_001)}, "guidelines", "too_long"},
		{"an invalid schema", projects.ProjectSpec{Name: "x", Schema: badMax}, "schema.questions[0].max", "out_of_range"},
		{"an invalid form", projects.ProjectSpec{Name: "x", Schema: rating(t), Forms: badForm}, "forms.extra.questions[0].kind", "invalid_kind"},
		{"an invalid policy", projects.ProjectSpec{Name: "x", Schema: rating(t), Workflow: &workflow.Policy{Overlap: 99}}, "workflow.overlap", "out_of_range"},
	}
	for _, tc := range tests {
		_, err := f.prj.CreateProject(f.ctx, f.lead, tc.spec)
		if code := fieldCode(err, tc.field); code != tc.code {
			t.Errorf("%s: %v (code %q at %s, want %q)", tc.name, err, code, tc.field, tc.code)
		}
	}
	if _, err := f.prj.CreateProject(f.ctx, f.user("ann@example.org"), projects.ProjectSpec{Name: "x"}); !errors.Is(err, projects.ErrCannotCreate) {
		t.Errorf("creation without the permission: %v", err)
	}
	if ps, _ := f.prj.Projects(f.ctx, f.admin, false); len(ps) != 0 {
		t.Fatalf("refused creations wrote %d projects", len(ps))
	}
	d, err := f.prj.CreateProject(f.ctx, f.lead, projects.ProjectSpec{Name: "schema later"})
	if err != nil || d.SchemaVersion != 0 || d.Schema != nil {
		t.Fatalf("a project without a schema yet: %v %+v", err, d)
	}
	p, _ := f.st.Project(f.ctx, d.ID)
	if got, err := f.prj.Detail(f.ctx, p, store.RoleSet{store.RoleLead}); err != nil || got.Schema != nil || got.Workflow.Overlap != 1 {
		t.Fatalf("detail without a schema: %v %+v", err, got)
	}
}

// TestPatchProject: policy and texts change in place (the schema version stays); a schema
// given to a project without one is its version 1; balance targets are checked against the
// schema; every change is audited; refused patches change nothing.
func TestPatchProject(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			fp := f.ratings(workflow.Policy{})
			lead := store.RoleSet{store.RoleLead}
			cur := func() *store.Project { p, _ := f.st.Project(f.ctx, fp.ID); return p }
			name, text := "renamed", "read the prompt first"
			ratio := 1.5
			d, err := f.prj.PatchProject(f.ctx, f.lead.ID, cur(), lead, projects.ProjectPatch{Name: &name, Description: &text, Guidelines: &text,
				Workflow: &workflow.Policy{Overlap: 2, Review: workflow.ReviewCross}, Balance: &workflow.BalanceTargets{Ratio: &ratio, By: "meta.source"}})
			if err != nil {
				t.Fatal(err)
			}
			if d.SchemaVersion != 1 || d.Name != name || d.Guidelines != text || d.Description != text || d.Workflow.Overlap != 2 ||
				d.Workflow.Review != workflow.ReviewCross || d.Balance.Ratio == nil || *d.Balance.Ratio != ratio || d.Balance.By != "meta.source" {
				t.Fatalf("patched: %+v", d)
			}
			stored := f.load(fp.ID)
			if stored.Name != name || stored.Policy.Overlap != 2 || stored.SchemaVersion != 1 || !f.audited(fp.ID, "project.update") {
				t.Fatalf("stored after the patch: %+v", stored.Project)
			}
			blank, badRatio := " ", -1.0
			refused := []struct {
				name  string
				patch projects.ProjectPatch
				field string
				code  string
			}{
				{"a blank name", projects.ProjectPatch{Name: &blank}, "name", "invalid_length"},
				{"long guidelines", projects.ProjectPatch{Guidelines: new(strings.Repeat("g", 200_001))}, "guidelines", "too_long"},
				{"a ratio below 0", projects.ProjectPatch{Balance: &workflow.BalanceTargets{Ratio: &badRatio}}, "balance.ratio", "out_of_range"},
				{"balance by something else", projects.ProjectPatch{Balance: &workflow.BalanceTargets{By: "colour"}}, "balance.by", "invalid_value"},
				{"an invalid policy", projects.ProjectPatch{Workflow: &workflow.Policy{SpotCheckRate: 2}}, "workflow.spot_check_rate", "out_of_range"},
				{"an invalid schema", projects.ProjectPatch{Schema: &tasks.Schema{Questions: []tasks.Question{{Key: "q", Kind: "likert", Label: "Q"}}}}, "schema.questions[0].min", "required"},
			}
			for _, r := range refused {
				if _, err := f.prj.PatchProject(f.ctx, f.lead.ID, cur(), lead, r.patch); fieldCode(err, r.field) != r.code {
					t.Errorf("%s: %v", r.name, err)
				}
			}
			if again := f.load(fp.ID); again.Name != name || again.Policy.SpotCheckRate != 0 || again.SchemaVersion != 1 {
				t.Fatalf("a refused patch changed the project: %+v", again.Project)
			}

			later, err := f.prj.CreateProject(f.ctx, f.lead, projects.ProjectSpec{Name: "schema later"})
			if err != nil {
				t.Fatal(err)
			}
			p, _ := f.st.Project(f.ctx, later.ID)
			d, err = f.prj.PatchProject(f.ctx, f.lead.ID, p, lead, projects.ProjectPatch{Schema: rating(t)})
			if err != nil || d.SchemaVersion != 1 || d.Schema == nil || len(d.Schema.Questions) != 2 {
				t.Fatalf("the first schema of a project: %v %+v", err, d)
			}
		})
	}
}

// TestDetailHidesTheDraftingModel: the model that drafts answers is shown to leads only.
func TestDetailHidesTheDraftingModel(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	fp := f.ratings(workflow.Policy{DraftFromPredictions: &workflow.DraftPolicy{Method: workflow.DraftModel, Model: "gpt-x"}})
	for _, tc := range []struct {
		roles store.RoleSet
		model string
	}{
		{store.RoleSet{store.RoleLead}, "gpt-x"},
		{store.RoleSet{store.RoleAnnotator, store.RoleReviewer}, ""},
	} {
		d, err := f.prj.Detail(f.ctx, fp.Project, tc.roles)
		if err != nil || d.Workflow.DraftFromPredictions == nil || d.Workflow.DraftFromPredictions.Model != tc.model ||
			d.Workflow.DraftFromPredictions.Method != workflow.DraftModel || !slices.Equal(d.MyRoles, tc.roles) {
			t.Errorf("%v: %v %+v", tc.roles, err, d.Workflow.DraftFromPredictions)
		}
	}
}

// TestProjectsList: administrators list every project, others the projects they are members
// of, each with the caller's roles; archived projects are listed apart, when asked for.
func TestProjectsList(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			a, b := f.ratings(workflow.Policy{}), f.ratings(workflow.Policy{})
			ann, outsider := f.user("ann@example.org"), f.user("out@example.org")
			f.member(a, ann, store.RoleAnnotator, store.RoleReviewer)
			if _, err := f.prj.Archive(f.ctx, f.lead.ID, b.Project, true); err != nil {
				t.Fatal(err)
			}
			list := func(u *store.User, archived bool) map[string]store.RoleSet {
				ps, err := f.prj.Projects(f.ctx, u, archived)
				if err != nil {
					t.Fatal(err)
				}
				out := map[string]store.RoleSet{}
				for _, p := range ps {
					out[p.ID] = p.MyRoles
				}
				return out
			}
			if got := list(ann, false); len(got) != 1 || !slices.Equal(got[a.ID], store.RoleSet{store.RoleAnnotator, store.RoleReviewer}) {
				t.Errorf("a member lists %v", got)
			}
			if got := list(outsider, true); len(got) != 0 {
				t.Errorf("an outsider lists %v", got)
			}
			if got := list(f.lead, false); len(got) != 1 || got[a.ID] == nil {
				t.Errorf("the lead lists %v", got)
			}
			if got := list(f.lead, true); len(got) != 1 || !slices.Equal(got[b.ID], store.RoleSet{store.RoleLead}) {
				t.Errorf("the lead lists %v as archived", got)
			}
			if got := list(f.admin, false); len(got) != 1 || !slices.Equal(got[a.ID], store.Roles) {
				t.Errorf("an administrator lists %v", got)
			}
		})
	}
}

// TestRolesIn: administrators hold every role everywhere; anyone else their membership's.
func TestRolesIn(t *testing.T) {
	member := store.RoleSet{store.RoleReviewer}
	if got := projects.RolesIn(&store.User{IsAdmin: true}, member); !slices.Equal(got, store.Roles) {
		t.Errorf("administrator: %v", got)
	}
	if got := projects.RolesIn(&store.User{}, member); !slices.Equal(got, member) {
		t.Errorf("member: %v", got)
	}
	if got := projects.RolesIn(&store.User{}, nil); len(got) != 0 {
		t.Errorf("outsider: %v", got)
	}
}

// TestWorkersReadNeitherModelNorGold: in the project list as in the project, the drafting model
// is the leads' alone, and how gold items are mixed in is the leads' and viewers' alone, so
// nobody who does the work can tell which model drafted nor that gold is handed out.
func TestWorkersReadNeitherModelNorGold(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	fp := f.ratings(workflow.Policy{GoldRate: 0.2, GoldMinAccuracy: 0.7,
		DraftFromPredictions: &workflow.DraftPolicy{Method: workflow.DraftModel, Model: "gpt-x"}})
	ann, viewer := f.user("ann@example.org"), f.user("view@example.org")
	f.member(fp, ann, store.RoleAnnotator, store.RoleReviewer)
	f.member(fp, viewer, store.RoleViewer)
	for _, tc := range []struct {
		who         *store.User
		model, gold bool
	}{{f.lead, true, true}, {viewer, false, true}, {ann, false, false}} {
		ps, err := f.prj.Projects(f.ctx, tc.who, false)
		if err != nil || len(ps) != 1 {
			t.Fatalf("%s lists %v, %v", tc.who.Email, ps, err)
		}
		listed := string(ps[0].Workflow)
		d, err := f.prj.Detail(f.ctx, fp.Project, ps[0].MyRoles)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(listed, "gpt-x") || d.Workflow.DraftFromPredictions.Model != ""; got != tc.model {
			t.Errorf("%s reads the drafting model: %v (list %s)", tc.who.Email, got, listed)
		}
		if got := strings.Contains(listed, "gold_rate") || d.Workflow.GoldRate != 0; got != tc.gold {
			t.Errorf("%s reads the gold rate: %v (list %s)", tc.who.Email, got, listed)
		}
		if !strings.Contains(listed, `"method":"model"`) || d.Workflow.DraftFromPredictions.Method != workflow.DraftModel {
			t.Errorf("%s does not see that drafts exist: %s", tc.who.Email, listed)
		}
	}
}
