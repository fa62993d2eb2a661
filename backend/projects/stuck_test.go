package projects_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// stuckReviews is a project of overlap 2 with cross review whose only reviewers labeled its
// one item: both labels wait for a reviewer nobody can be. m is an annotator who could review.
type stuckReviews struct {
	*fixture
	p        *workflow.Project
	a, b, m  *store.User
	outsider *store.User
	labels   []string
	itemID   string
}

func newStuckReviews(t *testing.T, st *store.Store) *stuckReviews {
	f := newFixture(t, st)
	s := &stuckReviews{fixture: f, p: f.ratings(workflow.Policy{Overlap: 2, Review: workflow.ReviewCross})}
	s.a, s.b, s.m, s.outsider = f.user("a@example.org"), f.user("b@example.org"), f.user("m@example.org"), f.user("out@example.org")
	if got := s.stuck(); len(got) != 0 {
		t.Fatalf("stuck before any item: %+v", got)
	}
	f.member(s.p, s.a, store.RoleAnnotator, store.RoleReviewer)
	f.member(s.p, s.b, store.RoleAnnotator, store.RoleReviewer)
	f.member(s.p, s.m, store.RoleAnnotator)
	f.importItems(s.p, "x")
	s.itemID = f.item(s.p, "x").ID
	s.labels = []string{f.label(s.p, s.a, 3, "yes").ID, f.label(s.p, s.b, 4, "yes").ID}
	return s
}

// stuck lists the project's stuck work by stage.
func (s *stuckReviews) stuck() map[flow.Stage]projects.StuckStage {
	s.t.Helper()
	got, err := s.prj.Stuck(s.ctx, s.p)
	if err != nil {
		s.t.Fatal(err)
	}
	out := map[flow.Stage]projects.StuckStage{}
	for _, st := range got {
		out[st.Stage] = st
	}
	return out
}

// TestStuckReviews: labels only their own authors could review are stuck with the reason,
// and counted over every project; adding a reviewer who did not label frees them.
func TestStuckReviews(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			s := newStuckReviews(t, be.Open(t))
			got := s.stuck()
			r := got[flow.StageReview]
			slices.Sort(r.IDs)
			want := slices.Sorted(slices.Values(s.labels))
			if len(got) != 1 || r.Count != 2 || r.Capped || !slices.Equal(r.IDs, want) || !strings.Contains(r.Reason, "has not worked on the item in another stage") {
				t.Fatalf("stuck: %+v", got)
			}
			totals, err := s.prj.StuckTotals(s.ctx)
			if err != nil || totals[flow.StageReview] != 2 || totals[flow.StageLabel] != 0 {
				t.Fatalf("totals: %v %v", err, totals)
			}
			s.member(s.p, s.outsider, store.RoleReviewer)
			if got := s.stuck(); len(got) != 0 {
				t.Fatalf("stuck with a free reviewer: %+v", got)
			}
		})
	}
}

// TestAssignStuckRefusals: stuck work goes only to someone the independence rules allow, in a
// stage the project has, with the role or grant_role; a refused call changes no roles.
func TestAssignStuckRefusals(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			s := newStuckReviews(t, be.Open(t))
			label := s.labels[0]
			tests := []struct {
				name        string
				actor       *store.User
				in          projects.StuckAssign
				field, code string
			}{
				{"a stage the policy lacks", s.lead, projects.StuckAssign{Stage: flow.StageCriteria, ID: label, User: s.m.ID}, "stage", "invalid_value"},
				{"not a work stage", s.lead, projects.StuckAssign{Stage: flow.StageDone, ID: label, User: s.m.ID}, "stage", "invalid_value"},
				{"no id", s.lead, projects.StuckAssign{Stage: flow.StageReview, User: s.m.ID}, "id", "required"},
				{"someone who labeled the item", s.lead, projects.StuckAssign{Stage: flow.StageReview, ID: label, User: s.b.Email, GrantRole: true}, "user", "not_independent"},
				{"a member without the role", s.lead, projects.StuckAssign{Stage: flow.StageReview, ID: label, User: s.m.Email}, "user", "missing_role"},
				{"a non-member without grant_role", s.lead, projects.StuckAssign{Stage: flow.StageReview, ID: label, User: s.outsider.Email}, "user", "not_member"},
				{"an account nobody has", s.admin, projects.StuckAssign{Stage: flow.StageReview, ID: label, User: "ghost@example.org"}, "user", "unknown_user"},
				{"a label that waits for no adjudicator", s.lead, projects.StuckAssign{Stage: flow.StageAdjudicate, ID: label, User: s.m.ID, GrantRole: true}, "id", "not_waiting"},
				{"an item where a label belongs", s.lead, projects.StuckAssign{Stage: flow.StageReview, ID: s.itemID, User: s.m.ID, GrantRole: true}, "id", "not_waiting"},
				{"an unknown item", s.lead, projects.StuckAssign{Stage: flow.StageLabel, ID: "no-such-item", User: s.m.ID}, "id", "not_waiting"},
			}
			for _, tc := range tests {
				if _, err := s.prj.AssignStuck(s.ctx, s.p, tc.actor, tc.in); fieldCode(err, tc.field) != tc.code {
					t.Errorf("%s: %v", tc.name, err)
				}
			}
			if got := s.roles(s.p, s.m); !slices.Equal(got, store.RoleSet{store.RoleAnnotator}) {
				t.Fatalf("a refused call changed roles: %v", got)
			}
		})
	}
}

// TestAssignStuck: a lead gives a stuck review to a member, adding the reviewer role; the work
// is held for them for a day and their next review claim resumes it; it is never given to them
// twice. A non-member is invited with the role instead.
func TestAssignStuck(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			s := newStuckReviews(t, be.Open(t))
			label := s.labels[0]
			before := time.Now()
			res, err := s.prj.AssignStuck(s.ctx, s.p, s.lead, projects.StuckAssign{Stage: flow.StageReview, ID: label, User: s.m.Email, GrantRole: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != projects.StuckAssigned || !res.RoleAdded || res.Role != store.RoleReviewer || res.UserID != s.m.ID || res.Assignment == nil ||
				res.Assignment.TargetID == nil || *res.Assignment.TargetID != label || res.Assignment.LeaseExpiresAt.Before(before.Add(projects.ReservedLease-time.Minute)) {
				t.Fatalf("assigned: %+v %+v", res, res.Assignment)
			}
			if !slices.Contains(s.roles(s.p, s.m), store.RoleReviewer) || !s.audited(s.p.ID, "assignment.reserve") {
				t.Fatal("the role was not added, or the hand-off not audited")
			}
			if got := s.claim(s.p, s.m, flow.StageReview); got.ID != res.Assignment.ID {
				t.Fatalf("the claim %s does not resume the held work %s", got.ID, res.Assignment.ID)
			}
			if _, err := s.prj.AssignStuck(s.ctx, s.p, s.lead, projects.StuckAssign{Stage: flow.StageReview, ID: label, User: s.m.ID}); fieldCode(err, "user") != "not_independent" {
				t.Fatalf("the same work twice: %v", err)
			}
			inv, err := s.prj.AssignStuck(s.ctx, s.p, s.lead, projects.StuckAssign{Stage: flow.StageReview, ID: label, User: s.outsider.Email, GrantRole: true})
			if err != nil || inv.Status != projects.StuckInvited || inv.Assignment != nil || inv.Role != store.RoleReviewer {
				t.Fatalf("a non-member: %v %+v", err, inv)
			}
			invs, _ := s.prj.Invitations(s.ctx, s.p.ID)
			if len(invs) != 1 || invs[0].Email != s.outsider.Email || !slices.Equal(invs[0].Roles, store.RoleSet{store.RoleReviewer}) {
				t.Fatalf("invitations: %+v", invs)
			}
		})
	}
}

// TestAssignStuckLabels: an administrator hands label work to any account, which becomes an
// annotator; work whose every slot is taken is not waiting.
func TestAssignStuckLabels(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.ratings(workflow.Policy{})
	f.importItems(p, "x", "y")
	x, y := f.item(p, "x").ID, f.item(p, "y").ID
	ann, newcomer := f.user("ann@example.org"), f.user("new@example.org")
	res, err := f.prj.AssignStuck(f.ctx, p, f.admin, projects.StuckAssign{Stage: flow.StageLabel, ID: x, User: newcomer.ID, GrantRole: true})
	if err != nil || res.Status != projects.StuckAssigned || !res.RoleAdded || res.Assignment.ItemID != x || !slices.Equal(f.roles(p, newcomer), store.RoleSet{store.RoleAnnotator}) {
		t.Fatalf("an administrator hands out label work: %v %+v", err, res)
	}
	f.member(p, ann, store.RoleAnnotator)
	if _, err := f.prj.AssignStuck(f.ctx, p, f.lead, projects.StuckAssign{Stage: flow.StageLabel, ID: x, User: ann.ID}); fieldCode(err, "id") != "not_waiting" {
		t.Fatalf("work whose one slot is held: %v", err)
	}
	res, err = f.prj.AssignStuck(f.ctx, p, f.lead, projects.StuckAssign{Stage: flow.StageLabel, ID: y, User: ann.Email})
	if err != nil || res.RoleAdded || res.Assignment.ItemID != y {
		t.Fatalf("a member with the role: %v %+v", err, res)
	}
}

// TestStuckLanguages: work in a language no member with the stage's role reads is stuck with
// that language, until a member reads it.
func TestStuckLanguages(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.ratings(workflow.Policy{Languages: []string{"en", "fr"}})
			ann := f.user("ann@example.org")
			f.member(p, ann, store.RoleAnnotator)
			if err := f.st.SetMemberLanguages(f.ctx, p.ID, ann.ID, []string{"en"}); err != nil {
				t.Fatal(err)
			}
			f.importLines(p, `{"external_id":"e1","language":"en","inputs":{"prompt":"p","output":"o"}}`+"\n"+
				`{"external_id":"f1","language":"fr","inputs":{"prompt":"p","output":"o"}}`+"\n")
			got, err := f.prj.Stuck(f.ctx, p)
			if err != nil || len(got) != 1 || got[0].Stage != flow.StageLabel || got[0].Language != "fr" || got[0].Count != 1 ||
				!strings.Contains(got[0].Reason, "needs an annotator who reads fr") || !slices.Equal(got[0].IDs, []string{f.item(p, "f1").ID}) {
				t.Fatalf("stuck: %v %+v", err, got)
			}
			if err := f.st.SetMemberLanguages(f.ctx, p.ID, ann.ID, []string{"en", "fr"}); err != nil {
				t.Fatal(err)
			}
			if got, _ := f.prj.Stuck(f.ctx, p); len(got) != 0 {
				t.Fatalf("stuck with a reader of French: %+v", got)
			}
		})
	}
}

// rejectedAndStuck is a project of overlap 3 with cross review and three annotators: the
// reviewer rejects the third label, and the item waits for a label none of them may give (each
// labeled it) and the reviewer may not (they reviewed it). n is a viewer who could label it,
// idle a paused one.
type rejectedAndStuck struct {
	*fixture
	p                   *workflow.Project
	a, b, c, r, n, idle *store.User
	itemID, rejected    string
}

func newRejectedAndStuck(t *testing.T, st *store.Store) *rejectedAndStuck {
	f := newFixture(t, st)
	s := &rejectedAndStuck{fixture: f, p: f.ratings(workflow.Policy{Overlap: 3, Review: workflow.ReviewCross})}
	s.a, s.b, s.c, s.r = f.user("a@example.org"), f.user("b@example.org"), f.user("c@example.org"), f.user("r@example.org")
	s.n, s.idle = f.user("n@example.org"), f.user("idle@example.org")
	for _, u := range []*store.User{s.a, s.b, s.c} {
		f.member(s.p, u, store.RoleAnnotator)
	}
	f.member(s.p, s.r, store.RoleReviewer)
	f.member(s.p, s.n, store.RoleViewer)
	f.member(s.p, s.idle, store.RoleViewer)
	if err := f.st.SetMemberPaused(f.ctx, s.p.ID, s.idle.ID, true); err != nil {
		t.Fatal(err)
	}
	f.importItems(s.p, "x")
	s.itemID = f.item(s.p, "x").ID
	f.label(s.p, s.a, 3, "yes")
	f.label(s.p, s.b, 3, "yes")
	s.rejected = f.label(s.p, s.c, 1, "no").ID
	for range 3 {
		rv := f.claim(s.p, s.r, flow.StageReview)
		verdict := flow.VerdictApprove
		if *rv.TargetID == s.rejected {
			verdict = flow.VerdictReject
		}
		w := workflow.Worker{ID: s.r.ID, Roles: f.roles(s.p, s.r)}
		if _, err := f.wf.Submit(f.ctx, s.p, w, rv.ID, workflow.Submission{Verdict: verdict, Comment: "the count is wrong", TimeSpentMS: 5_000}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestStuckCandidates: the item a rejected label strands lists as candidates exactly the
// members the rules let label it (the lead and the viewer, neither with the role), never its
// annotators, its reviewer or a paused member; a candidate is given it, after which it is no
// longer stuck, and work that no longer waits is refused.
func TestStuckCandidates(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			s := newRejectedAndStuck(t, be.Open(t))
			got, err := s.prj.Stuck(s.ctx, s.p)
			if err != nil || len(got) != 1 || got[0].Stage != flow.StageLabel || !slices.Equal(got[0].IDs, []string{s.itemID}) {
				t.Fatalf("stuck: %v %+v", err, got)
			}
			cands, err := s.prj.StuckCandidates(s.ctx, s.p, flow.StageLabel, s.itemID)
			if err != nil {
				t.Fatal(err)
			}
			var emails []string
			for _, c := range cands {
				emails = append(emails, c.Email)
				if c.HasRole {
					t.Errorf("%s has the annotator role: %+v", c.Email, c)
				}
			}
			if !slices.Equal(emails, []string{s.lead.Email, s.n.Email}) {
				t.Fatalf("candidates: %v", emails)
			}
			for _, tc := range []struct {
				stage       flow.Stage
				id          string
				field, code string
			}{
				{flow.StageLabel, "", "id", "required"},
				{flow.StageCriteria, s.itemID, "stage", "invalid_value"},
				{flow.StageReview, s.itemID, "id", "not_waiting"},
				{flow.StageLabel, "no-such-item", "id", "not_waiting"},
			} {
				if _, err := s.prj.StuckCandidates(s.ctx, s.p, tc.stage, tc.id); fieldCode(err, tc.field) != tc.code {
					t.Errorf("%s %q: %v", tc.stage, tc.id, err)
				}
			}
			res, err := s.prj.AssignStuck(s.ctx, s.p, s.lead, projects.StuckAssign{Stage: flow.StageLabel, ID: s.itemID, User: s.n.ID, GrantRole: true})
			if err != nil || res.Status != projects.StuckAssigned || !res.RoleAdded {
				t.Fatalf("a candidate is given the item: %v %+v", err, res)
			}
			if got, err := s.prj.Stuck(s.ctx, s.p); err != nil || len(got) != 0 {
				t.Fatalf("the item held for its new annotator is still stuck: %v %+v", err, got)
			}
			if _, err := s.prj.AssignStuck(s.ctx, s.p, s.lead, projects.StuckAssign{Stage: flow.StageLabel, ID: s.itemID, User: s.c.ID}); fieldCode(err, "user") != "not_independent" {
				t.Fatalf("the rejected annotator: %v", err)
			}
		})
	}
}
