package projects_test

import (
	"context"
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

// failingQueue refuses every job, as a database would that fails mid-transaction.
