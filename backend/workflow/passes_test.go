package workflow_test

import (
	"fmt"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// passSchema is a form in two passes, as RoboJudge's: physics judged from the video alone,
// then alignment with the instruction.
func passSchema(mode tasks.PassMode) tasks.Schema {
	return tasks.Schema{
		Version: 1, Title: "two passes", PassMode: mode,
		Inputs: []tasks.Input{{Name: "video", Type: tasks.InputText, Label: "Video"}, {Name: "instruction", Type: tasks.InputText, Label: "Instruction"}},
		Questions: []tasks.Question{
			{Key: "physics", Kind: tasks.KindLikert, Label: "Physics", Required: true, Min: intp(1), Max: intp(5), Inputs: []string{"video"}},
			{Key: "alignment", Kind: tasks.KindLikert, Label: "Alignment", Required: true, Min: intp(1), Max: intp(5)},
		},
		Passes: []tasks.Pass{
			{Key: "pa", Label: "Physics", Inputs: []string{"video"}, Questions: []string{"physics"}},
			{Key: "ia", Label: "Alignment", Inputs: []string{"video", "instruction"}, Questions: []string{"alignment"}},
		},
	}
}

const secret = "stack the violet prism"

func passLine(id string) string {
	return fmt.Sprintf(`{"external_id":%q,"inputs":{"video":"rollout %s","instruction":%q}}`, id, id, secret)
}

func (f *fixture) passProject(mode tasks.PassMode, pol workflow.Policy) *workflow.Project {
	f.t.Helper()
	s := passSchema(mode)
	return f.project(projects.ProjectSpec{Name: "passes " + string(mode), Schema: &s, Workflow: &pol})
}

// TestPassesSamePerson: one person answers every pass in turn as one assignment; a pass sees
// only its inputs and takes only its answers, and its submit opens the next pass.
func TestPassesSamePerson(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.passProject(tasks.PassSamePerson, workflow.Policy{})
		f.importItems(p, passLine("sp-1"))
		ann := f.member(p, store.RoleAnnotator)
		c := f.claim(p, ann, flow.StageLabel)
		aid := c.Assignment.ID
		if c.View.Pass == nil || c.View.Pass.Number != 1 || c.View.Pass.Count != 2 || c.View.Item.Inputs["instruction"] != nil {
			t.Fatalf("pass 1 view %+v %v", c.View.Pass, c.View.Item.Inputs)
		}
		_, err := f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"alignment":2}`), intp(0))
		wantField(t, err, "alignment", tasks.CodeNotInPass)
		if _, err := f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"physics":3}`), intp(0)); err != nil {
			t.Fatal(err)
		}
		_, err = f.wf.Submit(f.ctx, p, ann.w(), aid, workflow.Submission{Answers: ans(`{"physics":4,"alignment":2}`)})
		wantField(t, err, "alignment", tasks.CodeNotInPass)

		in := workflow.Submission{Answers: ans(`{"physics":4}`), TimeSpentMS: 1000, IdempotencyKey: "pass-1"}
		res := f.submit(p, ann, c, in)
		if res.NextPass == nil || res.NextPass.Number != 2 || res.Assignment.Status != flow.AssignActive || res.ItemStage != flow.StageLabel {
			t.Fatalf("pass 1 submit %+v", res)
		}
		if replay := f.submit(p, ann, c, in); !replay.Replayed || replay.NextPass == nil || replay.NextPass.Number != 2 {
			t.Fatalf("pass 1 replay %+v", replay)
		}
		again := f.claim(p, ann, flow.StageLabel)
		if again.Assignment.ID != aid || again.View.Pass.Number != 2 || string(again.View.Item.Inputs["instruction"]) != `"`+secret+`"` || len(again.Draft) != 0 {
			t.Fatalf("pass 2 view %+v %v draft %v", again.View.Pass, again.View.Item.Inputs, again.Draft)
		}
		_, err = f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"physics":1}`), intp(again.Assignment.Version))
		wantField(t, err, "physics", tasks.CodeNotInPass)
		if _, err := f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"alignment":1}`), intp(again.Assignment.Version)); err != nil {
			t.Fatal(err)
		}

		done := f.submit(p, ann, again, workflow.Submission{Answers: ans(`{"alignment":5}`), TimeSpentMS: 500})
		a := done.Assignment
		if a.Status != flow.AssignSubmitted || done.NextPass != nil || done.ItemStage != flow.StageDone || a.TimeSpentMS != 1500 {
			t.Fatalf("last pass submit %+v", done)
		}
		if got := answersOf(t, a.Answers); got["physics"] != 4.0 || got["alignment"] != 5.0 {
			t.Fatalf("the label holds %v, want both passes", got)
		}
		revs, err := f.st.Revisions(f.ctx, aid)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, r := range revs {
			kinds = append(kinds, r.Kind+":"+deref(r.Pass))
		}
		if fmt.Sprint(kinds) != "[draft:pa pass:pa draft:ia submit:ia]" {
			t.Fatalf("revisions %v", kinds)
		}
	})
}

// TestPassesOwnQueue: each pass is its own queue; the next pass opens once the current one has
// its reviewed labels, nobody labels two passes of an item, and consensus decides each question
// over the labels that answered it.
func TestPassesOwnQueue(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.passProject(tasks.PassOwnQueue, workflow.Policy{Review: workflow.ReviewCross})
		f.importItems(p, passLine("oq-1"))
		a, b := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		rev := f.member(p, store.RoleReviewer)

		first := f.claim(p, a, flow.StageLabel)
		if first.View.Pass.Number != 1 || first.View.Item.Inputs["instruction"] != nil {
			t.Fatalf("pass 1 claim %+v", first.View.Pass)
		}
		if c := f.next(p, b, flow.StageLabel); c != nil {
			t.Fatal("the pass's one slot was handed out twice")
		}
		res := f.submit(p, a, first, workflow.Submission{Answers: ans(`{"physics":2}`)})
		if res.Assignment.Status != flow.AssignSubmitted || res.NextPass != nil || res.ItemStage != flow.StageLabel {
			t.Fatalf("pass 1 label %+v", res)
		}
		if c := f.next(p, b, flow.StageLabel); c != nil {
			t.Fatal("pass 2 opened before pass 1 was reviewed")
		}
		r1 := f.claim(p, rev, flow.StageReview)
		if r1.View.Pass == nil || r1.View.Pass.Number != 1 || r1.Assignment.Pass != 0 {
			t.Fatalf("the review is not made in the label's pass: %+v", r1.View.Pass)
		}
		f.submit(p, rev, r1, workflow.Submission{Verdict: flow.VerdictApprove})
		if c := f.next(p, a, flow.StageLabel); c != nil {
			t.Fatal("the labeler of pass 1 was given pass 2")
		}

		second := f.claim(p, b, flow.StageLabel)
		if second.Assignment.Pass != 1 || second.View.Pass.Number != 2 || second.View.Item.Inputs["instruction"] == nil {
			t.Fatalf("pass 2 claim %+v", second.View.Pass)
		}
		f.submit(p, b, second, workflow.Submission{Answers: ans(`{"alignment":5}`)})
		r2 := f.claim(p, rev, flow.StageReview)
		_, err := f.wf.Submit(f.ctx, p, rev.w(), r2.Assignment.ID, workflow.Submission{Verdict: flow.VerdictCorrect, Answers: ans(`{"physics":1}`)})
		wantField(t, err, "physics", tasks.CodeNotInPass)
		if res := f.submit(p, rev, r2, workflow.Submission{Verdict: flow.VerdictCorrect, Answers: ans(`{"alignment":4}`)}); res.ItemStage != flow.StageDone {
			t.Fatalf("item %s after both passes are reviewed", res.ItemStage)
		}
		gt := f.truth(f.item(p, "oq-1"))
		if got := answersOf(t, gt.Answers); got["physics"] != 2.0 || got["alignment"] != 4.0 {
			t.Fatalf("ground truth %v", got)
		}
	})
}
