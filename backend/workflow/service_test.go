package workflow_test

import (
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestNextRefusals: work is refused in an archived project, in a stage the project does not
// run, to a person without the stage's role, to a paused annotator and, where the policy asks
// for it, to an annotator who has not qualified.
func TestNextRefusals(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{RequireQualification: true})
		f.importItems(p, likertLine("r-1"))
		ann := f.member(p, store.RoleAnnotator)
		qualified := f.member(p, store.RoleAnnotator)
		paused := f.member(p, store.RoleAnnotator)
		reviewer := f.member(p, store.RoleReviewer, store.RoleAdjudicator)
		for _, u := range []person{qualified, paused} {
			if err := f.st.SetQualified(f.ctx, p.ID, u.ID, true); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.st.SetMemberPaused(f.ctx, p.ID, paused.ID, true); err != nil {
			t.Fatal(err)
		}
		archived := f.template("likert-rating", workflow.Policy{})
		f.importItems(archived, likertLine("r-2"))
		if _, err := f.prj.Archive(f.ctx, f.lead.ID, archived.Project, true); err != nil {
			t.Fatal(err)
		}
		archived = f.load(archived.ID)

		cases := []struct {
			name  string
			p     *workflow.Project
			who   person
			stage flow.Stage
			err   error  // the refusal, or
			field string // the field refused
		}{
			{"archived project", archived, qualified, flow.StageLabel, workflow.ErrArchived, ""},
			{"unknown stage", p, qualified, "polish", nil, "stage"},
			{"done is not a work stage", p, qualified, flow.StageDone, nil, "stage"},
			{"review without cross review", p, reviewer, flow.StageReview, nil, "stage"},
			{"criteria without a criteria stage", p, qualified, flow.StageCriteria, nil, "stage"},
			{"annotator asks to adjudicate", p, qualified, flow.StageAdjudicate, workflow.ErrRoleRequired, ""},
			{"adjudicator asks for labels", p, reviewer, flow.StageLabel, workflow.ErrRoleRequired, ""},
			{"paused annotator", p, paused, flow.StageLabel, workflow.ErrPaused, ""},
			{"unqualified annotator", p, ann, flow.StageLabel, workflow.ErrNotQualified, ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				c, err := f.wf.Next(f.ctx, tc.p, tc.who.User, tc.who.roles, tc.stage, false)
				if c != nil {
					t.Fatalf("claimed %+v", c.Assignment)
				}
				if tc.field != "" {
					wantField(t, err, tc.field, "invalid_value")
					return
				}
				wantErr(t, err, tc.err)
			})
		}
		if c := f.claim(p, qualified, flow.StageLabel); c.Assignment.UserID != qualified.ID {
			t.Fatalf("the qualified annotator got %+v", c.Assignment)
		}
	})
}

// TestNextResumesAndPrefetches: a claim is handed back on reload with its lease renewed; with
// prefetch the next item is claimed ahead, and nobody holds more than two.
func TestNextResumesAndPrefetches(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{LeaseMinutes: 20})
		f.importItems(p, likertLine("p-1"), likertLine("p-2"), likertLine("p-3"))
		ann, other := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)

		first := f.claim(p, ann, flow.StageLabel)
		a := first.Assignment
		if a.Stage != flow.StageLabel || a.Status != flow.AssignActive || a.Version != 0 || !a.LeaseExpiresAt.Equal(f.now.Add(20*time.Minute)) {
			t.Fatalf("claim %+v", a)
		}
		if first.View.Role != tasks.Role(store.RoleAnnotator) || first.View.Item.Inputs["prompt"] == nil || first.DraftSource != nil {
			t.Fatalf("view %+v", first.View)
		}
		f.advance(10 * time.Minute)
		again := f.claim(p, ann, flow.StageLabel)
		if again.Assignment.ID != a.ID {
			t.Fatalf("a reload claimed %s, not the open %s", again.Assignment.ID, a.ID)
		}
		if got := f.assignment(a.ID).LeaseExpiresAt; !got.Equal(f.now.Add(20 * time.Minute)) {
			t.Fatalf("lease %v not renewed to %v", got, f.now.Add(20*time.Minute))
		}

		ahead, err := f.wf.Next(f.ctx, p, ann.User, ann.roles, flow.StageLabel, true)
		if err != nil || ahead == nil || ahead.Assignment.ID == a.ID || ahead.Assignment.ItemID == a.ItemID {
			t.Fatalf("prefetch %+v %v", ahead, err)
		}
		ahead2, err := f.wf.Next(f.ctx, p, ann.User, ann.roles, flow.StageLabel, true)
		if err != nil || ahead2.Assignment.ID != ahead.Assignment.ID {
			t.Fatalf("a second prefetch claimed another item: %+v %v", ahead2, err)
		}
		if c := f.claim(p, ann, flow.StageLabel); c.Assignment.ID != a.ID {
			t.Fatalf("after a prefetch the current claim is %s, want %s", c.Assignment.ID, a.ID)
		}
		if open, _ := f.st.ActiveAssignments(f.ctx, p.ID, ann.ID, flow.StageLabel); len(open) != 2 {
			t.Fatalf("%d open assignments, want 2", len(open))
		}

		third := f.claim(p, other, flow.StageLabel)
		if third.Assignment.ItemID == a.ItemID || third.Assignment.ItemID == ahead.Assignment.ItemID {
			t.Fatal("a held item was handed to someone else")
		}
		none, err := f.wf.Next(f.ctx, p, other.User, other.roles, flow.StageLabel, true)
		if err != nil || none != nil {
			t.Fatalf("prefetch with nothing left: %+v %v", none, err)
		}
	})
}

// TestNextLeases: a claim whose lease ran out keeps its slot until someone takes it; once
// taken, the first claimant's heartbeat and submit are refused and a reload expires it.
func TestNextLeases(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{LeaseMinutes: 30})
		f.importItems(p, likertLine("l-1"))
		a, b := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		first := f.claim(p, a, flow.StageLabel)
		if c := f.next(p, b, flow.StageLabel); c != nil {
			t.Fatal("the one slot was handed out twice under a live lease")
		}

		f.advance(31 * time.Minute)
		until, err := f.wf.Heartbeat(f.ctx, p, a.w(), first.Assignment.ID)
		if err != nil || !until.Equal(f.now.Add(30*time.Minute)) {
			t.Fatalf("heartbeat on a free slot after the lease: %v %v", until, err)
		}
		f.advance(31 * time.Minute)
		if c := f.next(p, a, flow.StageLabel); c == nil || c.Assignment.ID != first.Assignment.ID {
			t.Fatalf("a reload with the slot still free did not resume: %+v", c)
		}

		f.advance(31 * time.Minute)
		second := f.claim(p, b, flow.StageLabel)
		if second.Assignment.ItemID != first.Assignment.ItemID {
			t.Fatal("the expired slot was not handed out")
		}
		_, err = f.wf.Heartbeat(f.ctx, p, a.w(), first.Assignment.ID)
		wantErr(t, err, workflow.ErrLeaseLost)
		_, err = f.wf.Submit(f.ctx, p, a.w(), first.Assignment.ID, workflow.Submission{Answers: ans(`{"quality":3}`)})
		wantErr(t, err, workflow.ErrLeaseLost)
		if c := f.next(p, a, flow.StageLabel); c != nil {
			t.Fatalf("the lost item came back: %+v", c.Assignment)
		}
		if got := f.assignment(first.Assignment.ID).Status; got != flow.AssignExpired {
			t.Fatalf("the lost claim is %s, want expired", got)
		}
		_, err = f.wf.Submit(f.ctx, p, a.w(), first.Assignment.ID, workflow.Submission{Answers: ans(`{"quality":3}`)})
		wantErr(t, err, workflow.ErrNotActive)
		if res := f.submit(p, b, second, workflow.Submission{Answers: ans(`{"quality":3}`)}); res.ItemStage != flow.StageDone {
			t.Fatalf("item %s after the one label", res.ItemStage)
		}
	})
}

// TestNextNeverTwice: nobody gets an item twice in a stage, once its overlap is full nobody
// gets it at all, and a skipped item never comes back to the person who skipped it.
func TestNextNeverTwice(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{Overlap: 2})
		f.importItems(p, likertLine("n-1"))
		a, b, c := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		if res := f.label(p, a, `{"quality":4}`); res.ItemStage != flow.StageLabel {
			t.Fatalf("item %s after one of two labels", res.ItemStage)
		}
		if got := f.next(p, a, flow.StageLabel); got != nil {
			t.Fatal("the same person got the item twice")
		}
		skipped := f.claim(p, c, flow.StageLabel)
		if err := f.wf.Skip(f.ctx, p, c.w(), skipped.Assignment.ID, "cannot judge"); err != nil {
			t.Fatal(err)
		}
		if got := f.next(p, c, flow.StageLabel); got != nil {
			t.Fatal("a skipped item came back")
		}
		if res := f.label(p, b, `{"quality":4}`); res.ItemStage != flow.StageDone {
			t.Fatalf("item %s after both labels agree", res.ItemStage)
		}
		d := f.member(p, store.RoleAnnotator)
		if got := f.next(p, d, flow.StageLabel); got != nil {
			t.Fatal("a done item was handed out")
		}
	})
}

// TestMyProgress counts a person's work per stage the project runs and what is left for them.
func TestMyProgress(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{Review: workflow.ReviewCross})
		f.importItems(p, likertLine("m-1"), likertLine("m-2"), likertLine("m-3"))
		ann := f.member(p, store.RoleAnnotator)
		f.label(p, ann, `{"quality":5}`)
		got, err := f.wf.MyProgress(f.ctx, p, ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := []workflow.Progress{
			{Stage: flow.StageLabel, DoneToday: 1, DoneTotal: 1, Available: 2},
			{Stage: flow.StageReview},
			{Stage: flow.StageAdjudicate},
		}
		if len(got) != len(want) {
			t.Fatalf("progress %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("stage %d: %+v, want %+v", i, got[i], want[i])
			}
		}
		reviewer := f.member(p, store.RoleReviewer)
		rp, err := f.wf.MyProgress(f.ctx, p, reviewer.ID)
		if err != nil || rp[1].Stage != flow.StageReview || rp[1].Available != 1 {
			t.Fatalf("reviewer progress %+v %v", rp, err)
		}
	})
}

// TestLoadProject: a project without a schema cannot be worked on; its versions load as they
// were written.
func TestLoadProject(t *testing.T) {
	forEachBackend(t, testLoadProject)
}

func testLoadProject(t *testing.T, f *fixture) {
	d, err := f.prj.CreateProject(f.ctx, f.lead, projects.ProjectSpec{Name: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := f.st.Project(f.ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.wf.LoadProject(f.ctx, sp, 0)
	wantErr(t, err, workflow.ErrNoSchema)
	if _, err := f.wf.LoadProject(f.ctx, sp, 7); err == nil {
		t.Fatal("a version that was never written loaded")
	}
	sp.Workflow = store.JSON(`{"overlap":"three"}`)
	if _, err := f.wf.LoadProject(f.ctx, sp, 0); err == nil {
		t.Fatal("an unreadable policy loaded")
	}

	c := f.template("omnireward-pair", workflow.Policy{CriteriaStage: &workflow.CriteriaStage{Form: "criteria", Question: "criteria", InputName: "criterion"}})
	if c.FirstStage() != flow.StageCriteria || !c.HasStage(flow.StageCriteria) || c.HasStage(flow.StageReview) {
		t.Fatalf("criteria project: first stage %s", c.FirstStage())
	}
	if got := c.StageSchema(flow.StageCriteria).Questions[0].Key; got != "criteria" {
		t.Fatalf("criteria stage answers %s", got)
	}
	if got := c.StageSchema(flow.StageLabel).Questions[0].Key; got != "preference" {
		t.Fatalf("label stage answers %s", got)
	}
	if c.Doc().Hash() == c.Doc().Schema.ContentHash() || c.Doc().Hash() == "" {
		t.Fatal("a document with forms hashes as its schema alone")
	}
	l := f.template("likert-rating", workflow.Policy{})
	if l.FirstStage() != flow.StageLabel || l.Doc().Hash() != l.Schema.ContentHash() || l.Lease() != 30*time.Minute {
		t.Fatalf("likert project: %s %v", l.FirstStage(), l.Lease())
	}
	var none *workflow.SchemaDoc
	if none.Hash() != "" || (&workflow.SchemaDoc{}).Hash() != "" {
		t.Fatal("an empty document has a hash")
	}
}

// TestSpotChecked samples by the external id: the same items on every import, none at rate 0
// and all at rate 1.
func TestSpotChecked(t *testing.T) {
	p := &workflow.Project{Project: &store.Project{ID: "p1"}}
	n := 0
	for i := range 1000 {
		id := "item-" + string(rune('a'+i%26)) + time.Duration(i).String()
		p.Policy.SpotCheckRate = 0
		if p.SpotChecked(id) {
			t.Fatal("spot checked at rate 0")
		}
		p.Policy.SpotCheckRate = 1
		if !p.SpotChecked(id) {
			t.Fatal("not spot checked at rate 1")
		}
		p.Policy.SpotCheckRate = 0.3
		if p.SpotChecked(id) != p.SpotChecked(id) {
			t.Fatal("the sample changed between two looks")
		}
		if p.SpotChecked(id) {
			n++
		}
	}
	if n < 200 || n > 400 {
		t.Fatalf("%d of 1000 sampled at rate 0.3", n)
	}
}

// TestNextReviewLeases: a review whose lease ran out is resumed while nobody took the label,
// and lost once another reviewer did.
func TestNextReviewLeases(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{Review: workflow.ReviewCross, LeaseMinutes: 10})
		f.importItems(p, likertLine("rl-1"))
		ann := f.member(p, store.RoleAnnotator)
		r1, r2 := f.member(p, store.RoleReviewer), f.member(p, store.RoleReviewer)
		f.label(p, ann, `{"quality":3}`)
		first := f.claim(p, r1, flow.StageReview)
		if c := f.next(p, r2, flow.StageReview); c != nil {
			t.Fatal("a label under a live review was handed to a second reviewer")
		}
		f.advance(11 * time.Minute)
		if c := f.claim(p, r1, flow.StageReview); c.Assignment.ID != first.Assignment.ID {
			t.Fatal("an expired review nobody took was not resumed")
		}
		f.advance(11 * time.Minute)
		second := f.claim(p, r2, flow.StageReview)
		if *second.Assignment.TargetID != *first.Assignment.TargetID {
			t.Fatal("the expired review's label was not handed out")
		}
		_, err := f.wf.Submit(f.ctx, p, r1.w(), first.Assignment.ID, workflow.Submission{Verdict: flow.VerdictApprove})
		wantErr(t, err, workflow.ErrLeaseLost)
		if c := f.next(p, r1, flow.StageReview); c != nil {
			t.Fatal("a lost review came back")
		}
		if res := f.submit(p, r2, second, workflow.Submission{Verdict: flow.VerdictApprove}); res.ItemStage != flow.StageDone {
			t.Fatalf("item %s after the review", res.ItemStage)
		}
	})
}
