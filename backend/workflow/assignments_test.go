package workflow_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// TestSaveDraft: every save needs the version it was loaded at and makes the next one, kept as
// a revision; a stale version is refused with the current one.
func TestSaveDraft(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		f.importItems(p, likertLine("d-1"))
		ann := f.member(p, store.RoleAnnotator)
		aid := f.claim(p, ann, flow.StageLabel).Assignment.ID

		_, err := f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"quality":2}`), nil)
		wantField(t, err, "version", "required")
		v, err := f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"quality":2}`), intp(0))
		if err != nil || v != 1 {
			t.Fatalf("first save: version %d %v", v, err)
		}
		v, err = f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"quality":3}`), intp(0))
		wantErr(t, err, workflow.ErrStaleVersion)
		if v != 1 {
			t.Fatalf("a stale save reports version %d, want the current 1", v)
		}
		if v, err = f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"quality":4,"comment":"half"}`), intp(1)); err != nil || v != 2 {
			t.Fatalf("second save: version %d %v", v, err)
		}
		a := f.assignment(aid)
		if got := answersOf(t, a.Draft); a.Version != 2 || got["quality"] != 4.0 || got["comment"] != "half" {
			t.Fatalf("stored draft v%d %v", a.Version, got)
		}
		revs, err := f.st.Revisions(f.ctx, aid)
		if err != nil || len(revs) != 2 || revs[0].Kind != string(flow.RevisionDraft) || revs[1].Version != 2 {
			t.Fatalf("revisions %+v %v", revs, err)
		}
		if c := f.claim(p, ann, flow.StageLabel); string(c.Draft["quality"]) != "4" {
			t.Fatalf("a reload lost the draft: %v", c.Draft)
		}
	})
}

// TestSaveDraftConcurrent: saves sent at once with the same version (a person's two tabs) make
// one version: exactly one is kept, as that version's only revision, and every other is
// refused as stale with the version that won, whether it lost on the read or on the write.
func TestSaveDraftConcurrent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		f.importItems(p, likertLine("c-1"))
		ann := f.member(p, store.RoleAnnotator)
		aid := f.claim(p, ann, flow.StageLabel).Assignment.ID
		const n = 8
		type result struct {
			v   int
			err error
		}
		results := make(chan result, n)
		var start sync.WaitGroup
		start.Add(1)
		for i := range n {
			go func() {
				start.Wait()
				v, err := f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(fmt.Sprintf(`{"quality":%d}`, i%5+1)), intp(0))
				results <- result{v, err}
			}()
		}
		start.Done()
		won := 0
		for range n {
			r := <-results
			switch {
			case r.err == nil:
				won++
			case !errors.Is(r.err, workflow.ErrStaleVersion):
				t.Fatalf("a save failed: %v", r.err)
			}
			if r.v != 1 {
				t.Fatalf("a save reports version %d (%v), want 1", r.v, r.err)
			}
		}
		revs, err := f.st.Revisions(f.ctx, aid)
		if err != nil || won != 1 || len(revs) != 1 || f.assignment(aid).Version != 1 {
			t.Fatalf("%d saves kept, revisions %+v %v", won, revs, err)
		}
		if a := f.assignment(aid); string(a.Draft) != string(revs[0].Answers) {
			t.Fatalf("stored draft %s, the kept revision %s", a.Draft, revs[0].Answers)
		}
	})
}

// TestSaveDraftAcrossReplicas: a replica that remembers an assignment from its claim saves at
// that version without reading it, and never over what another replica did meanwhile: a save
// made elsewhere makes its remembered version stale (refused with the current one), a submit
// made elsewhere makes the work done, and a lost role is refused; nothing is written then.
func TestSaveDraftAcrossReplicas(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		f.importItems(p, likertLine("r-1"), likertLine("r-2"))
		ann := f.member(p, store.RoleAnnotator)
		other := workflow.New(workflow.Deps{Store: f.st}) // a second replica on the same database
		aid := f.claim(p, ann, flow.StageLabel).Assignment.ID
		if v, err := f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"quality":1}`), intp(0)); err != nil || v != 1 {
			t.Fatalf("first save: version %d %v", v, err)
		}
		if v, err := other.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"quality":2}`), intp(1)); err != nil || v != 2 {
			t.Fatalf("save on the other replica: version %d %v", v, err)
		}
		v, err := f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"quality":3}`), intp(1))
		wantErr(t, err, workflow.ErrStaleVersion)
		if v != 2 {
			t.Fatalf("a save at the remembered but stale version reports %d, want the current 2", v)
		}
		if v, err := f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"quality":4}`), intp(2)); err != nil || v != 3 {
			t.Fatalf("save at the current version: %d %v", v, err)
		}
		if got := answersOf(t, f.assignment(aid).Draft); got["quality"] != 4.0 {
			t.Fatalf("stored draft %v", got)
		}
		if revs, err := f.st.Revisions(f.ctx, aid); err != nil || len(revs) != 3 {
			t.Fatalf("revisions %+v %v", revs, err)
		}

		if _, err := other.Submit(f.ctx, p, ann.w(), aid, workflow.Submission{Answers: ans(`{"quality":5}`)}); err != nil {
			t.Fatal(err)
		}
		_, err = f.wf.SaveDraft(f.ctx, p, ann.w(), aid, ans(`{"quality":1}`), intp(3))
		wantErr(t, err, workflow.ErrAlreadyDone)
		if a := f.assignment(aid); answersOf(t, a.Draft)["quality"] != 4.0 || a.Version != 4 {
			t.Fatalf("a save after the submit was written: v%d %s", a.Version, a.Draft)
		}

		last := f.claim(p, ann, flow.StageLabel)
		_, err = f.wf.SaveDraft(f.ctx, p, workflow.Worker{ID: ann.ID}, last.Assignment.ID, ans(`{"quality":1}`), intp(last.Assignment.Version))
		wantErr(t, err, workflow.ErrRoleRequired)
		if a := f.assignment(last.Assignment.ID); a.Version != last.Assignment.Version {
			t.Fatalf("a save without the role was written: version %d", a.Version)
		}
	})
}

// TestOpenAssignmentRefusals: only the person who holds an open assignment, with the role of
// its stage, acts on it, and only in its own project.
func TestOpenAssignmentRefusals(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		other := f.template("likert-rating", workflow.Policy{})
		f.importItems(p, likertLine("o-1"), likertLine("o-2"))
		ann, stranger := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		aid := f.claim(p, ann, flow.StageLabel).Assignment.ID
		done := f.claim(p, stranger, flow.StageLabel)
		f.submit(p, stranger, done, workflow.Submission{Answers: ans(`{"quality":1}`)})
		demoted := workflow.Worker{ID: ann.ID, Roles: store.RoleSet{store.RoleReviewer}}

		cases := []struct {
			name string
			p    *workflow.Project
			w    workflow.Worker
			aid  string
			err  error
		}{
			{"someone else's", p, stranger.w(), aid, workflow.ErrNotYours},
			{"the role was taken away", p, demoted, aid, workflow.ErrRoleRequired},
			{"another project's", other, ann.w(), aid, store.ErrNotFound},
			{"no such assignment", p, ann.w(), "nope", store.ErrNotFound},
			{"already submitted", p, stranger.w(), done.Assignment.ID, workflow.ErrAlreadyDone},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := f.wf.SaveDraft(f.ctx, tc.p, tc.w, tc.aid, ans(`{"quality":2}`), intp(0))
				wantErr(t, err, tc.err)
				_, err = f.wf.Heartbeat(f.ctx, tc.p, tc.w, tc.aid)
				wantErr(t, err, tc.err)
				wantErr(t, f.wf.Skip(f.ctx, tc.p, tc.w, tc.aid, "x"), tc.err)
				wantErr(t, f.wf.Release(f.ctx, tc.p, tc.w, tc.aid), tc.err)
				wantErr(t, f.wf.Flag(f.ctx, tc.p, tc.w, tc.aid, flow.FlagBrokenMedia, ""), tc.err)
			})
		}
		if a := f.assignment(aid); a.Status != flow.AssignActive || a.Version != 0 {
			t.Fatalf("a refused action changed the assignment: %+v", a)
		}
		if _, err := f.wf.Assignment(f.ctx, aid, stranger.ID); !strings.Contains(err.Error(), "assignment") {
			t.Fatalf("someone else's assignment: %v", err)
		}
		wantErr(t, errOf(f.wf.Assignment(f.ctx, "nope", ann.ID)), store.ErrNotFound)
		if a, err := f.wf.Assignment(f.ctx, aid, ann.ID); err != nil || a.ID != aid {
			t.Fatalf("own assignment: %v", err)
		}
	})
}

func errOf[T any](_ T, err error) error { return err }

// TestSkipAndRelease: a skip ends the claim for good; a release of an untouched claim gives the
// item back as if it had never been claimed, and one with saved answers is refused.
func TestSkipAndRelease(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		f.importItems(p, likertLine("s-1"), likertLine("s-2"))
		ann := f.member(p, store.RoleAnnotator)

		first := f.claim(p, ann, flow.StageLabel).Assignment
		if err := f.wf.Release(f.ctx, p, ann.w(), first.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.st.Assignment(f.ctx, first.ID); err == nil {
			t.Fatal("a released assignment is still there")
		}
		again := f.claim(p, ann, flow.StageLabel).Assignment
		if again.ItemID != first.ItemID {
			t.Fatalf("the released item %s did not come back first (got %s)", first.ItemID, again.ItemID)
		}
		if _, err := f.wf.SaveDraft(f.ctx, p, ann.w(), again.ID, ans(`{"quality":5}`), intp(0)); err != nil {
			t.Fatal(err)
		}
		wantErr(t, f.wf.Release(f.ctx, p, ann.w(), again.ID), workflow.ErrHasDraft)

		if err := f.wf.Skip(f.ctx, p, ann.w(), again.ID, "unsure"); err != nil {
			t.Fatal(err)
		}
		if a := f.assignment(again.ID); a.Status != flow.AssignSkipped || a.SkipReason == nil || *a.SkipReason != "unsure" {
			t.Fatalf("skipped assignment %+v", a)
		}
		if next := f.claim(p, ann, flow.StageLabel).Assignment; next.ItemID == again.ItemID {
			t.Fatal("the skipped item came back")
		}
		if !f.audited(p, "assignment.release") || !f.audited(p, "assignment.skip") {
			t.Fatal("release or skip not audited")
		}
	})
}

// TestFlag: a flag takes the item out of the queue until a lead returns or drops it.
func TestFlag(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		other := f.template("likert-rating", workflow.Policy{})
		f.importItems(p, likertLine("f-1"), likertLine("f-2"))
		f.importItems(other, likertLine("f-3"))
		ann, next := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		c := f.claim(p, ann, flow.StageLabel)

		wantField(t, f.wf.Flag(f.ctx, p, ann.w(), c.Assignment.ID, "ugly", ""), "category", "invalid_value")
		wantField(t, f.wf.Flag(f.ctx, p, ann.w(), c.Assignment.ID, flow.FlagOther, "  "), "reason", "required")
		if err := f.wf.Flag(f.ctx, p, ann.w(), c.Assignment.ID, flow.FlagOther, "the prompt is cut off"); err != nil {
			t.Fatal(err)
		}
		it, _ := f.st.Item(f.ctx, p.ID, c.Assignment.ItemID)
		var flag struct{ Category, Reason, By, Assignment string }
		if err := json.Unmarshal(it.Flag, &flag); err != nil || flag.Category != "other" || flag.Reason != "the prompt is cut off" || flag.By != ann.ID {
			t.Fatalf("flag %s %v", it.Flag, err)
		}
		if a := f.assignment(c.Assignment.ID); a.Status != flow.AssignFlagged {
			t.Fatalf("flagged assignment is %s", a.Status)
		}
		held := f.claim(p, next, flow.StageLabel)
		if held.Assignment.ItemID == it.ID {
			t.Fatal("a flagged item was handed out")
		}
		f.submit(p, next, held, workflow.Submission{Answers: ans(`{"quality":3}`)})

		wantField(t, f.wf.ResolveFlag(f.ctx, p, f.lead.ID, it.ID, "ignore", ""), "action", "invalid_value")
		wantErr(t, f.wf.ResolveFlag(f.ctx, p, f.lead.ID, held.Assignment.ItemID, flow.FlagReturn, ""), workflow.ErrItemNotInFlow)
		wantErr(t, f.wf.ResolveFlag(f.ctx, other, f.lead.ID, it.ID, flow.FlagReturn, ""), store.ErrNotFound)
		wantErr(t, f.wf.ResolveFlag(f.ctx, p, f.lead.ID, "nope", flow.FlagReturn, ""), store.ErrNotFound)
		if err := f.wf.ResolveFlag(f.ctx, p, f.lead.ID, it.ID, flow.FlagReturn, ""); err != nil {
			t.Fatal(err)
		}
		if back := f.claim(p, next, flow.StageLabel); back.Assignment.ItemID != it.ID {
			t.Fatal("a returned item did not go back to the queue")
		} else if err := f.wf.Flag(f.ctx, p, next.w(), back.Assignment.ID, flow.FlagBrokenMedia, ""); err != nil {
			t.Fatal(err)
		}
		if err := f.wf.ResolveFlag(f.ctx, p, f.lead.ID, it.ID, flow.FlagDrop, "unusable"); err != nil {
			t.Fatal(err)
		}
		it, _ = f.st.Item(f.ctx, p.ID, it.ID)
		if it.Stage != flow.StageDropped || it.DropReason == nil || !strings.HasPrefix(*it.DropReason, "flagged: ") ||
			!strings.HasSuffix(*it.DropReason, "; lead: unusable") || len(it.Flag) != 0 {
			t.Fatalf("dropped item %s %v flag %s", it.Stage, it.DropReason, it.Flag)
		}
		if !f.audited(p, "item.flag") || !f.audited(p, "item.flag_resolved") {
			t.Fatal("flag not audited")
		}
	})
}
