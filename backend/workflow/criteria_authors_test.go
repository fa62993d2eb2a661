package workflow_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// unit is a unit made from a criterion, with its criterion's author.
type unit struct {
	id, author string
}

// omniRewardUnits runs Omni-Reward's criteria annotation: the team writes criteria for two
// inputs (every member for every input), and the lead marks them; one is too vague, so five
// units are made, each with its author.
func (f *fixture) omniRewardUnits(p *workflow.Project, team []person) []unit {
	f.t.Helper()
	f.importItems(p, criteriaLine("or-1"), criteriaLine("or-2"))
	for range 2 {
		for _, who := range team {
			f.writeCriteria(p, who, "The response follows the prompt, as "+who.Name+" reads it")
		}
	}
	cs, err := f.st.Criteria(f.ctx, p.ID, "", "", 100)
	if err != nil || len(cs) != 6 {
		f.t.Fatalf("criteria written: %d %v", len(cs), err)
	}
	var units []unit
	for i, c := range cs {
		verdict := workflow.CriterionVerdict{Status: flow.CriterionValid}
		if i == 0 {
			verdict.Status = flow.CriterionTooVague
		}
		got, err := f.wf.ReviewCriterion(f.ctx, p, f.lead.ID, c.ID, verdict)
		if err != nil {
			f.t.Fatal(err)
		}
		if got.ChildItemID != nil {
			units = append(units, unit{*got.ChildItemID, c.AuthorID})
		}
	}
	return units
}

// picks are the canonical answers the team gives each unit, by member: two units decided
// unanimously, two by majority, one three ways (no consensus: dropped).
var picks = [][3]string{{"A", "A", "A"}, {"A", "A", "B"}, {"A", "B", "tie"}, {"tie", "tie", "B"}, {"B", "B", "B"}}

// labelAll has every member of the team label whatever the queue gives them, in turns, until
// it gives nobody anything; each answers a unit with their pick, in the order shown to them.
func (f *fixture) labelAll(p *workflow.Project, team []person, units []unit) {
	f.t.Helper()
	index := map[string]int{}
	for i, u := range units {
		index[u.id] = i
	}
	for more := true; more; {
		more = false
		for i, who := range team {
			c := f.next(p, who, flow.StageLabel)
			if c == nil {
				continue
			}
			pick := picks[index[c.Assignment.ItemID]][i]
			shown, err := p.Schema.ToShown(tasks.Answers{"preference": json.RawMessage(`"` + pick + `"`)}, c.View.Shuffle)
			if err != nil {
				f.t.Fatal(err)
			}
			f.submit(p, who, c, workflow.Submission{Answers: shown, TimeSpentMS: 5000})
			more = true
		}
	}
}

// labelsBy lists who gave a unit its submitted labels.
func (f *fixture) labelsBy(itemID string) []string {
	f.t.Helper()
	as, err := f.st.ItemAssignments(f.ctx, itemID, flow.StageLabel)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, a := range as {
		if a.Status == flow.AssignSubmitted {
			out = append(out, a.UserID)
		}
	}
	return out
}

// warnings are the feasibility warnings of a project, as "code have/needed".
func (f *fixture) warnings(p *workflow.Project) []string {
	f.t.Helper()
	fs, err := f.prj.Feasibility(f.ctx, p)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, w := range fs.Warnings {
		out = append(out, fmt.Sprintf("%s %d/%d", w.Code, w.Have, w.Needed))
	}
	return out
}

// checkFinished requires every unit decided or dropped for no consensus with three labels,
// its author's among them, and the three-way unit dropped.
func (f *fixture) checkFinished(p *workflow.Project, units []unit) {
	f.t.Helper()
	for i, u := range units {
		it := f.itemByID(p, u.id)
		by := f.labelsBy(u.id)
		if len(by) != 3 || !strings.Contains(strings.Join(by, ","), u.author) {
			f.t.Fatalf("unit %d has labels by %v; want three, its author %s's among them", i, by, u.author)
		}
		want := flow.StageDone
		if i == 2 {
			want = flow.StageDropped
		}
		if it.Stage != want || (want == flow.StageDropped && !strings.HasPrefix(deref(it.DropReason), "no consensus")) {
			f.t.Fatalf("unit %d: %s (%s), want %s", i, it.Stage, deref(it.DropReason), want)
		}
	}
}

// TestOmniRewardStaffing: the paper's staffing, three people who write the criteria and give
// every unit its three labels, finishes a project made from the Omni-Reward template with its
// defaults (the policy lets authors label units of their own criteria); with authors kept off
// their own criteria's units, the feasibility check says so before any work, every unit stops
// at two labels and is reported stuck, a hand-off to its author is refused, and letting
// authors label finishes the work.
func TestOmniRewardStaffing(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.project(projects.ProjectSpec{Template: "omnireward-pair"})
		pol, c := p.Policy, p.Policy.CriteriaStage
		if pol.Overlap != 3 || pol.Consensus.Nominal != workflow.NominalMajority || pol.Adjudication != workflow.AdjudicateNever ||
			pol.OnNoConsensus != workflow.NoConsensusDrop || c == nil || c.Overlap != 3 || !c.AuthorsLabel {
			t.Fatalf("the template's policy: %+v %+v", pol, c)
		}
		team := []person{f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)}
		if w := f.warnings(p); len(w) != 0 {
			t.Fatalf("the paper's staffing is warned: %v", w)
		}
		units := f.omniRewardUnits(p, team)
		f.labelAll(p, team, units)
		f.checkFinished(p, units)

		pol.CriteriaStage = &workflow.CriteriaStage{Form: c.Form, Question: c.Question, InputName: c.InputName, Overlap: 3}
		q := f.project(projects.ProjectSpec{Template: "omnireward-pair", Workflow: &pol})
		team = []person{f.member(q, store.RoleAnnotator), f.member(q, store.RoleAnnotator), f.member(q, store.RoleAnnotator)}
		if w := strings.Join(f.warnings(q), ","); w != "authors_label 3/4" {
			t.Fatalf("authors kept off their units, three annotators for overlap 3: warnings %q", w)
		}
		units = f.omniRewardUnits(q, team)
		f.labelAll(q, team, units)
		for i, u := range units {
			by := f.labelsBy(u.id)
			if it := f.itemByID(q, u.id); it.Stage != flow.StageLabel || len(by) != 2 || strings.Contains(strings.Join(by, ","), u.author) {
				t.Fatalf("unit %d: %s with labels by %v (author %s); want label with the two others' labels", i, it.Stage, by, u.author)
			}
		}
		stuck, err := f.prj.Stuck(f.ctx, q)
		if err != nil || len(stuck) != 1 || stuck[0].Stage != flow.StageLabel || stuck[0].Count != int64(len(units)) {
			t.Fatalf("stuck work: %+v %v", stuck, err)
		}
		author := f.userByID(units[0].author)
		_, err = f.prj.AssignStuck(f.ctx, q, f.lead, projects.StuckAssign{Stage: flow.StageLabel, ID: units[0].id, User: author.Email})
		wantField(t, err, "user", "not_independent")

		row, err := f.st.Project(f.ctx, q.ID)
		if err != nil {
			t.Fatal(err)
		}
		pol.CriteriaStage.AuthorsLabel = true
		if _, err := f.prj.PatchProject(f.ctx, f.lead.ID, row, store.RoleSet{store.RoleLead}, projects.ProjectPatch{Workflow: &pol}); err != nil {
			t.Fatal(err)
		}
		q = f.load(q.ID)
		if w := f.warnings(q); len(w) != 0 {
			t.Fatalf("warnings once authors label: %v", w)
		}
		f.labelAll(q, team, units)
		f.checkFinished(q, units)
		if stuck, err := f.prj.Stuck(f.ctx, q); err != nil || len(stuck) != 0 {
			t.Fatalf("stuck work once authors label: %+v %v", stuck, err)
		}
	})
}

// userByID reads an account.
func (f *fixture) userByID(id string) *store.User {
	f.t.Helper()
	u, err := f.st.User(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}
