package projects_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// TestFeasibility: the policy's needs are counted against the members, with a warning for
// each that is short, and none once the members suffice.
func TestFeasibility(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.ratings(workflow.Policy{Overlap: 2, Review: workflow.ReviewCross, Adjudication: workflow.AdjudicateAlways})
			codes := func() (string, string) {
				t.Helper()
				fs, err := f.prj.Feasibility(f.ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				var cs, msgs []string
				for _, w := range fs.Warnings {
					cs, msgs = append(cs, w.Code), append(msgs, w.Message)
				}
				return strings.Join(cs, ","), strings.Join(msgs, "; ")
			}
			if got, _ := codes(); got != "annotators,reviewers,adjudicators" {
				t.Fatalf("a lead alone: %s", got)
			}
			a, b, c := f.user("a@example.org"), f.user("b@example.org"), f.user("c@example.org")
			f.member(p, a, store.RoleAnnotator, store.RoleReviewer, store.RoleAdjudicator)
			if got, msg := codes(); got != "annotators,reviewers,adjudicators" || !strings.Contains(msg, "overlap 2 needs 2 annotators; the project has 1") {
				t.Fatalf("one person with every role: %s (%s)", got, msg)
			}
			f.member(p, b, store.RoleAnnotator)
			f.member(p, c, store.RoleReviewer, store.RoleAdjudicator)
			// two labels and a review take all three people of an item; nobody is left to adjudicate
			if got, msg := codes(); got != "adjudicators" || !strings.Contains(msg, "the project has 2 adjudicators and none is free") {
				t.Fatalf("three people for three slots: %s (%s)", got, msg)
			}
			f.member(p, f.user("d@example.org"), store.RoleAdjudicator)
			fs, err := f.prj.Feasibility(f.ctx, p)
			if err != nil || len(fs.Warnings) != 0 || fs.Annotators != 2 || fs.Reviewers != 2 || fs.Adjudicators != 3 {
				t.Fatalf("enough people: %v %+v", err, fs)
			}
		})
	}
}

// TestFeasibilityLanguages: each language of the policy and of the items waiting for work is
// checked among the members who read it.
func TestFeasibilityLanguages(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.ratings(workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateNever})
			a, b := f.user("a@example.org"), f.user("b@example.org")
			f.member(p, a, store.RoleAnnotator)
			f.member(p, b, store.RoleAnnotator)
			if err := f.st.SetMemberLanguages(f.ctx, p.ID, b.ID, []string{"en"}); err != nil {
				t.Fatal(err)
			}
			f.importLines(p, `{"external_id":"en-1","language":"en-GB","inputs":{"prompt":"p","output":"o"}}
{"external_id":"de-1","language":"de","inputs":{"prompt":"p","output":"o"}}
{"external_id":"none","inputs":{"prompt":"p","output":"o"}}
`)
			fs, err := f.prj.Feasibility(f.ctx, p)
			if err != nil || len(fs.Warnings) != 1 || fs.Annotators != 2 {
				t.Fatalf("items in de read by one of two: %v %+v", err, fs)
			}
			if w := fs.Warnings[0]; w.Code != "annotators" || w.Language != "de" || w.Have != 1 || w.Needed != 2 ||
				w.Message != "items in de: overlap 2 needs 2 annotators; the project has 1" {
				t.Fatalf("the warning: %+v", w)
			}
			if err := f.st.SetMemberLanguages(f.ctx, p.ID, b.ID, []string{"en", "de"}); err != nil {
				t.Fatal(err)
			}
			if fs, err := f.prj.Feasibility(f.ctx, p); err != nil || len(fs.Warnings) != 0 {
				t.Fatalf("both read de: %v %+v", err, fs)
			}
		})
	}
}

// TestArchive: an archived project leaves the list, hands out no work and is audited; a
// restored one works again.
func TestArchive(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.ratings(workflow.Policy{})
			f.importItems(p, "a")
			ann := f.user("ann@example.org")
			f.member(p, ann, store.RoleAnnotator)
			archived, err := f.prj.Archive(f.ctx, f.lead.ID, p.Project, true)
			if err != nil || archived.ArchivedAt == nil || !f.audited(p.ID, "project.archive") {
				t.Fatalf("archive: %v %+v", err, archived)
			}
			p = f.load(p.ID)
			if _, err := f.wf.Next(f.ctx, p, ann, f.roles(p, ann), flow.StageLabel, false); !errors.Is(err, workflow.ErrArchived) {
				t.Fatalf("work from an archived project: %v", err)
			}
			if ps, _ := f.prj.Projects(f.ctx, ann, false); len(ps) != 0 {
				t.Fatalf("an archived project is listed: %+v", ps)
			}
			restored, err := f.prj.Archive(f.ctx, f.lead.ID, p.Project, false)
			if err != nil || restored.ArchivedAt != nil || !f.audited(p.ID, "project.restore") {
				t.Fatalf("restore: %v %+v", err, restored)
			}
			f.claim(f.load(p.ID), ann, flow.StageLabel)
		})
	}
}

// TestDeleteProject: deleting needs the project's name typed; it removes the project with its
// items and its files, and the audit trail keeps the deletion.
func TestDeleteProject(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.ratings(workflow.Policy{})
			f.importItems(p, "a", "b")
			asset := f.upload(p, "a.png")
			if err := f.prj.DeleteProject(f.ctx, f.lead.ID, p.Project, "Ratings"); fieldCode(err, "confirm") != "mismatch" {
				t.Fatalf("deletion without the exact name: %v", err)
			}
			if _, err := f.st.Project(f.ctx, p.ID); err != nil {
				t.Fatalf("a refused deletion deleted: %v", err)
			}
			if err := f.prj.DeleteProject(f.ctx, f.lead.ID, p.Project, "ratings"); err != nil {
				t.Fatal(err)
			}
			if _, err := f.st.Project(f.ctx, p.ID); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("the project is still there: %v", err)
			}
			if _, err := f.st.ItemByExternalID(f.ctx, p.ID, "a"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("its items are still there: %v", err)
			}
			if rc, err := f.blobs.Get(f.ctx, asset.BlobKey); !errors.Is(err, blob.ErrNotFound) {
				if rc != nil {
					rc.Close()
				}
				t.Fatalf("its files are still there: %v", err)
			}
			var n int
			if err := f.st.SQL().QueryRowContext(f.ctx, "SELECT COUNT(*) FROM audit_events WHERE action = 'project.delete'").Scan(&n); err != nil || n != 1 {
				t.Fatalf("deletion audit events: %d %v", n, err)
			}
		})
	}
}

// TestSchemaVersions: each schema version is listed with the work made under it.
func TestSchemaVersions(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.ratings(workflow.Policy{})
	f.importItems(p, "a", "b")
	ann := f.user("ann@example.org")
	f.member(p, ann, store.RoleAnnotator)
	f.label(p, ann, 4, "yes")
	vs, err := f.prj.SchemaVersions(f.ctx, p.ID)
	if err != nil || len(vs) != 1 || vs[0].Version != 1 || vs[0].Assignments != 1 || vs[0].Submitted != 1 {
		t.Fatalf("schema versions: %v %+v", err, vs)
	}
}
