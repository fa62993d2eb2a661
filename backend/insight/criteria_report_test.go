package insight_test

import (
	"fmt"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// orLine is an item of the Omni-Reward template with two text responses.
func orLine(ext string) string {
	return fmt.Sprintf(`{"external_id": %q, "inputs": {"prompt": "Two boats at sunset", "responses": `+
		`[{"id": "r1", "type": "text", "value": "one"}, {"id": "r2", "type": "text", "value": "two"}]}}`, ext)
}

// TestCriteriaReport: two authors write criteria for o1 (Ann three, Ben one) and Ann one for
// o2; the lead marks Ann's o1 criteria valid, too vague and too specific. The report counts
// them per status and per author (by email, every status present), the items and the
// authorships; the dataset report counts the same with the share refused.
func TestCriteriaReport(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		pol := policy(1)
		pol.CriteriaStage = &workflow.CriteriaStage{Form: "criteria", Question: "criteria", InputName: "criterion", Overlap: 2}
		f := newFixture(t, st, projects.ProjectSpec{Template: "omnireward-pair", Workflow: pol})
		people := f.annotators("Ben", "Ann")
		ben, ann := people[0], people[1]
		write := func(u *store.User, texts ...string) {
			t.Helper()
			if got := f.work(u, flow.StageCriteria, func(string) *workflow.Submission {
				return &workflow.Submission{Answers: answers("criteria", texts)}
			}); len(got) != 1 {
				t.Fatalf("%s wrote %d criteria assignments", u.Name, len(got))
			}
		}
		f.importItems(orLine("o1"))
		write(ann, "The light is a warm low sunset.", "The picture looks nice.", "Exactly two boats with red flags on the masts.")
		write(ben, "Both boats are on calm water.")
		f.importItems(orLine("o2"))
		write(ann, "The sea is calm and flat.")
		empty, err := f.in.CriteriaReport(f.ctx, f.project())
		if err != nil || empty.Total != 5 || empty.ByStatus[flow.CriterionPending] != 5 {
			t.Fatalf("before review: %+v, %v", empty, err)
		}
		crit, err := st.Criteria(f.ctx, f.pid, "", "", 100)
		if err != nil || len(crit) != 5 {
			t.Fatalf("criteria %+v, %v", crit, err)
		}
		p := f.project()
		for i, v := range []flow.CriterionStatus{flow.CriterionValid, flow.CriterionTooVague, flow.CriterionTooSpecific} {
			if _, err := f.wf.ReviewCriterion(f.ctx, p, f.lead.ID, crit[i].ID, workflow.CriterionVerdict{Status: v}); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := f.in.CriteriaReport(f.ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Overlap != 2 || rep.Items != 2 || rep.Authorships != 3 || rep.Total != 5 || len(rep.ByStatus) != len(flow.CriterionStatuses) {
			t.Fatalf("report %+v", rep)
		}
		wantAll := map[flow.CriterionStatus]int64{flow.CriterionPending: 2, flow.CriterionValid: 1, flow.CriterionTooVague: 1, flow.CriterionTooSpecific: 1}
		for _, s := range flow.CriterionStatuses {
			if rep.ByStatus[s] != wantAll[s] {
				t.Errorf("%s: %d, want %d", s, rep.ByStatus[s], wantAll[s])
			}
		}
		if len(rep.Authors) != 2 || rep.Authors[0].Email != "ann@example.org" || rep.Authors[0].Name != "Ann" || rep.Authors[0].Total != 4 ||
			rep.Authors[0].ByStatus[flow.CriterionPending] != 1 || rep.Authors[0].ByStatus[flow.CriterionDuplicate] != 0 ||
			rep.Authors[1].UserID != ben.ID || rep.Authors[1].Total != 1 || rep.Authors[1].ByStatus[flow.CriterionPending] != 1 {
			t.Errorf("authors %+v", rep.Authors)
		}
		if rep.Authors[0].UserID != ann.ID {
			t.Errorf("first author %s, want Ann", rep.Authors[0].UserID)
		}
		ds, err := f.in.ComputeReport(f.ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		c := ds.Criteria
		if c.Written != 5 || c.Pending != 2 || c.Valid != 1 || c.TooVague != 1 || c.TooSpecific != 1 {
			t.Errorf("dataset report criteria %+v", c)
		}
		near(t, "loss share", c.LossShare, 2.0/3)
	})
}

// TestCriteriaReportWithoutStage: a project without a criteria stage reports no overlap and a
// zero for every status.
func TestCriteriaReportWithoutStage(t *testing.T) {
	f := newFixture(t, openSQLite(t), projects.ProjectSpec{Workflow: policy(1)})
	rep, err := f.in.CriteriaReport(f.ctx, f.project())
	if err != nil || rep.Overlap != 0 || rep.Items != 0 || rep.Total != 0 || len(rep.Authors) != 0 || len(rep.ByStatus) != len(flow.CriterionStatuses) {
		t.Fatalf("report %+v, %v", rep, err)
	}
	for s, n := range rep.ByStatus {
		if n != 0 {
			t.Errorf("%s: %d", s, n)
		}
	}
}
