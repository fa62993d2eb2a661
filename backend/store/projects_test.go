package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestCreateProject(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		sv := &store.SchemaVersion{Version: 1, Schema: store.JSON(`{"questions":[]}`), Hash: "h1"}
		p := &store.Project{Name: "P", CreatedBy: lead.ID}
		must(t, f.s.CreateProject(f.ctx, p, sv))
		got, err := f.s.Project(f.ctx, p.ID)
		must(t, err)
		if got.SchemaVersion != 1 || string(got.Workflow) != "{}" || got.CreatedBy != lead.ID || got.ArchivedAt != nil {
			t.Fatalf("project %+v", got)
		}
		schema, err := f.s.ProjectSchema(f.ctx, p.ID, 1)
		if err != nil || string(schema.Schema) != `{"questions":[]}` || schema.CreatedBy != lead.ID || schema.CreatedAt.IsZero() {
			t.Fatalf("schema %+v, %v", schema, err)
		}
		if m, err := f.s.Member(f.ctx, p.ID, lead.ID); err != nil || !m.Roles.Has(store.RoleLead) {
			t.Fatalf("creator membership = %+v, %v", m, err)
		}
		if _, err := f.s.ProjectSchema(f.ctx, p.ID, 2); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing schema version: %v", err)
		}
		if err := f.s.CreateSchemaVersion(f.ctx, &store.SchemaVersion{ProjectID: p.ID, Version: 1, Schema: store.JSON(`{}`), Hash: "h", CreatedBy: lead.ID}); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a version stored twice: %v, want ErrConflict", err)
		}

		// one transaction: a schema that cannot be stored leaves no project
		broken := &store.Project{Name: "broken", CreatedBy: lead.ID}
		if err := f.s.CreateProject(f.ctx, broken, &store.SchemaVersion{Version: 1, Hash: "h"}); err == nil {
			t.Fatal("a schema without a document was stored")
		}
		if _, err := f.s.Project(f.ctx, broken.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the project of a failed creation: %v, want ErrNotFound", err)
		}
		if _, err := f.s.Project(f.ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing project: %v", err)
		}
	})
}

func TestUpdateProject(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, other := f.user("lead"), f.user("other")
		p := &store.Project{Name: "P", Template: "likert", CreatedBy: lead.ID}
		must(t, f.s.CreateProject(f.ctx, p, nil))
		quota := int64(1 << 20)
		must(t, f.s.SetStorageQuota(f.ctx, p.ID, &quota))
		archived := time.Now().UTC().Truncate(time.Second)
		must(t, f.s.SetProjectArchived(f.ctx, p.ID, &archived))

		edit := &store.Project{ID: p.ID, Name: "Q", Description: "d", Workflow: store.JSON(`{"overlap":3}`), Guidelines: "g",
			SchemaVersion: 2, Balance: store.JSON(`{"k":1}`), Template: "other", CreatedBy: other.ID}
		must(t, f.s.UpdateProject(f.ctx, edit))
		var got *store.Project
		must(t, f.s.WithTx(f.ctx, func(tx *store.Store) error {
			var err error
			got, err = tx.ProjectForUpdate(f.ctx, p.ID)
			return err
		}))
		if got.Name != "Q" || got.Description != "d" || string(got.Workflow) != `{"overlap":3}` || got.Guidelines != "g" ||
			got.SchemaVersion != 2 || string(got.Balance) != `{"k":1}` {
			t.Fatalf("editable fields not written: %+v", got)
		}
		if got.Template != "likert" || got.CreatedBy != lead.ID || got.ArchivedAt == nil || !got.ArchivedAt.Equal(archived) ||
			got.StorageQuota == nil || *got.StorageQuota != quota {
			t.Fatalf("fields that are not editable changed: %+v", got)
		}
		must(t, f.s.SetStorageQuota(f.ctx, p.ID, nil))
		must(t, f.s.SetProjectArchived(f.ctx, p.ID, nil))
		if got, _ := f.s.Project(f.ctx, p.ID); got.StorageQuota != nil || got.ArchivedAt != nil {
			t.Fatalf("quota and archive not cleared: %+v", got)
		}
		if _, err := f.s.ProjectForUpdate(f.ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing project for update: %v", err)
		}
	})
}

func TestProjectLists(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		a, b, c := f.project(lead), f.project(lead), f.project(lead)
		f.member(a, u, store.RoleAnnotator)
		f.member(c, u, store.RoleReviewer)
		must(t, f.s.SetProjectArchived(f.ctx, c.ID, new(time.Now().UTC())))
		names := func(userID string, archived bool) []string {
			t.Helper()
			ps, err := f.s.Projects(f.ctx, userID, archived)
			must(t, err)
			var ids []string
			for _, p := range ps {
				ids = append(ids, p.ID)
			}
			return ids
		}
		equalIDs(t, "u's projects", names(u.ID, false), a.ID)
		equalIDs(t, "u's archived projects", names(u.ID, true), c.ID)
		equalIDs(t, "the lead's projects", names(lead.ID, false), a.ID, b.ID)
		all := names("", false)
		if len(all) < 2 || all[len(all)-2] != a.ID || all[len(all)-1] != b.ID {
			t.Fatalf("every project, oldest first: %v", all)
		}
		roles, err := f.s.MemberRoles(f.ctx, u.ID)
		must(t, err)
		equal(t, "u's roles", roles, map[string]store.RoleSet{a.ID: {store.RoleAnnotator}, c.ID: {store.RoleReviewer}})
	})
}

func TestMembers(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, other := f.user("lead"), f.user("other")
		p := f.project(lead)
		must(t, f.s.SetMember(f.ctx, p.ID, other.ID, store.RoleSet{store.RoleViewer, store.RoleAnnotator, store.RoleViewer}))
		must(t, f.s.SetQualified(f.ctx, p.ID, other.ID, true))
		must(t, f.s.SetMemberPaused(f.ctx, p.ID, other.ID, true))
		ms, err := f.s.Members(f.ctx, p.ID)
		must(t, err)
		want := []store.MemberView{
			{UserID: lead.ID, Email: lead.Email, Name: "lead", Roles: store.RoleSet{store.RoleLead}},
			{UserID: other.ID, Email: other.Email, Name: "other", Roles: store.RoleSet{store.RoleAnnotator, store.RoleViewer}, Paused: true, Qualified: true},
		}
		if lead.Email > other.Email {
			want[0], want[1] = want[1], want[0]
		}
		equal(t, "members by email", ms, want)

		// new roles keep the pause and the qualification
		f.member(p, other, store.RoleReviewer)
		m, err := f.s.Member(f.ctx, p.ID, other.ID)
		must(t, err)
		if !m.Paused || !m.Qualified || len(m.Roles) != 1 || m.Roles[0] != store.RoleReviewer {
			t.Fatalf("member after new roles %+v", m)
		}
		must(t, f.s.SetMember(f.ctx, p.ID, other.ID, nil))
		if _, err := f.s.Member(f.ctx, p.ID, other.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("removed member still there: %v", err)
		}
	})
}

func TestRoleSet(t *testing.T) {
	rs := store.RoleSet{store.RoleViewer, store.RoleLead, store.RoleViewer}
	equal(t, "normalised", rs.Normalize(), store.RoleSet{store.RoleLead, store.RoleViewer})
	if !rs.Has(store.RoleAnnotator, store.RoleLead) || rs.Has(store.RoleAnnotator, store.RoleReviewer) || rs.Has() {
		t.Fatal("Has is not any-of")
	}
	v, err := rs.Normalize().Value()
	must(t, err)
	equal(t, "stored form", v, any("lead,viewer"))
	for _, c := range []struct {
		in   any
		want store.RoleSet
	}{{"lead,viewer", store.RoleSet{store.RoleLead, store.RoleViewer}}, {[]byte("annotator"), store.RoleSet{store.RoleAnnotator}}, {"", store.RoleSet{}}, {nil, store.RoleSet{}}} {
		var got store.RoleSet
		must(t, got.Scan(c.in))
		equal(t, "scanned", got, c.want)
	}
}

// TestDeleteProject: deleting a project deletes everything in it; its audit trail stays.
func TestDeleteProject(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		p, kept := f.project(lead), f.project(lead)
		it := f.item(p, "x", flow.StageLabel)
		a := f.assign(it, u, flow.StageLabel, flow.AssignSubmitted)
		f.item(kept, "x", flow.StageLabel)
		must(t, f.s.Audit(f.ctx, p.ID, lead.ID, "project.update", "project:"+p.ID, nil, nil))
		must(t, f.s.DeleteProject(f.ctx, p.ID))
		if _, err := f.s.Project(f.ctx, p.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("deleted project: %v", err)
		}
		if _, err := f.s.Assignment(f.ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("assignment of a deleted project: %v", err)
		}
		if n := f.countRows("items", "project_id = "+f.ph(1), kept.ID); n != 1 {
			t.Fatalf("the other project has %d items", n)
		}
		if es, err := f.s.AuditEvents(f.ctx, p.ID, 10); err != nil || len(es) != 1 {
			t.Fatalf("audit of a deleted project: %+v, %v", es, err)
		}
	})
}

func TestSchemaVersions(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		p := &store.Project{Name: "P", CreatedBy: lead.ID}
		must(t, f.s.CreateProject(f.ctx, p, &store.SchemaVersion{Version: 1, Schema: store.JSON(`{}`), Hash: "h1"}))
		must(t, f.s.CreateSchemaVersion(f.ctx, &store.SchemaVersion{ProjectID: p.ID, Version: 2, Schema: store.JSON(`{}`), Hash: "h2", CreatedBy: lead.ID}))
		its := f.items(p, "i", flow.StageLabel, 3)
		v1 := func(a *store.Assignment) { a.SchemaVersion = 1 }
		f.assign(its[0], u, flow.StageLabel, flow.AssignSubmitted, v1)
		f.assign(its[1], u, flow.StageLabel, flow.AssignActive, v1)
		f.assign(its[2], u, flow.StageLabel, flow.AssignSubmitted, func(a *store.Assignment) { a.SchemaVersion = 2 })
		vs, err := f.s.SchemaVersions(f.ctx, p.ID)
		must(t, err)
		if len(vs) != 2 || vs[0].Version != 2 || vs[0].Hash != "h2" || vs[0].Assignments != 1 || vs[0].Submitted != 1 ||
			vs[1].Version != 1 || vs[1].Assignments != 2 || vs[1].Submitted != 1 || vs[1].CreatedBy != lead.ID {
			t.Fatalf("schema versions %+v", vs)
		}
	})
}
