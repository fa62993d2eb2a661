package workflow

import (
	"context"
	"maps"
	"slices"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// A form may come in passes (tasks.Schema.Passes). One person answers every pass of an item as
// one assignment that moves from pass to pass (Assignment.Pass): while in pass k, every view,
// draft and prefill the person gets holds only pass k's inputs and questions; submitting pass k
// freezes its answers and opens pass k+1 for the same person; submitting the last pass submits
// the assignment with the answers of every pass. Reviewers, adjudicators and leads see the
// whole form.

// With pass_mode own_queue (tasks.PassOwnQueue) each pass of a label is its own queue: a label
// assignment is made in the pass the item is collecting (Item.Pass, copied to Assignment.Pass),
// shows only that pass's inputs and holds only its answers, and is submitted whole; its review is
// made in the same pass. Once the pass has its full overlap of submitted (and reviewed) labels,
// the item opens its next pass (openNextPass); nobody labels two passes of an item, since nobody
// labels an item twice. After the last pass the item goes on as any other, with overlap labels
// per pass: consensus decides each question over the labels that answered it. Calibration and
// gold items are answered as with same_person.

// passStages are the stages answered pass by pass: those whose person labels the item.
var passStages = []flow.Stage{flow.StageLabel, flow.StageCalibration}

// formOf returns the form an assignment is answered with: its stage's schema, or, when that
// schema comes in passes and the stage is labelled, the form of the assignment's current pass
// with that pass.
func (p *Project) formOf(a *store.Assignment) (*tasks.Schema, *tasks.Pass, error) {
	schema := p.StageSchema(a.Stage)
	if !schema.HasPasses() || !(slices.Contains(passStages, a.Stage) || p.reviewsPass(a)) {
		return schema, nil, nil
	}
	form, err := schema.PassForm(a.Pass)
	if err != nil {
		return nil, nil, err
	}
	return &form, &schema.Passes[a.Pass], nil
}

// reviewsPass reports whether an assignment reviews a label of one pass: with each pass its own
// queue, a review is made in the pass of the label it reviews (its form and inputs), so that a
// correction or a blind review answers that pass's questions.
func (p *Project) reviewsPass(a *store.Assignment) bool {
	return a.Stage == flow.StageReview && p.ownQueue(flow.StageLabel, nil)
}

// passAt is where a submit stands in its form's passes.
type passAt struct {
	schema *tasks.Schema // the stage's whole form
	form   *tasks.Schema // the form answered now: the stage's, or its current pass's
	pass   *tasks.Pass   // nil when the form has no passes for this work
	// through: the person answers every pass in turn, the submit of one but the last opening
	// the next (always with same_person; with own_queue only calibration work and labels of gold
	// items, which score one person on the whole form).
	through bool
	last    bool // the assignment is in the last pass
}

// passAt reads where the submit's assignment stands in its passes.
func (u *submission) passAt(ctx context.Context) (passAt, error) {
	a, p := u.a, u.p
	form, ps, err := p.formOf(a)
	if err != nil || ps == nil {
		return passAt{form: form}, err
	}
	if err := onlyPass(form, ps, u.in.Answers); err != nil {
		return passAt{}, err
	}
	schema := p.StageSchema(a.Stage)
	at := passAt{schema: schema, form: form, pass: ps, through: slices.Contains(passStages, a.Stage), last: a.Pass >= len(schema.Passes)-1}
	if at.through && p.ownQueue(a.Stage, nil) {
		it, err := u.read(ctx) // note: held, since a label of an own-queue form locks its item
		if err != nil {
			return passAt{}, err
		}
		at.through = it.Stage == flow.StageGold
	}
	return at, nil
}

// whole is the answers of every pass: those of the earlier passes, kept in the draft, with the
// last pass's.
func (at passAt) whole(a *store.Assignment, last tasks.Answers) tasks.Answers {
	earlier := tasks.Answers{}
	for key, raw := range DecodeAnswers(a.Draft) {
		if i := at.schema.PassOf(key); i >= 0 && i < a.Pass {
			earlier[key] = raw
		}
	}
	return withPass(at.form, earlier, last)
}

// revision is the insert of one save, with the pass it was made in when the form has passes.
func (at passAt) revision(a *store.Assignment, kind flow.RevisionKind, answers store.JSON) store.Write {
	return revisionOf(a, kind, answers, at.pass)
}

// ownQueue reports whether an item's work in a stage is labelled pass by pass by different
// people: production labels of a form whose passes are each their own queue.
func (p *Project) ownQueue(stage flow.Stage, it *store.Item) bool {
	return stage == flow.StageLabel && p.Schema.PassMode == tasks.PassOwnQueue && p.Schema.HasPasses() &&
		(it == nil || it.Stage != flow.StageGold)
}

// labelsPerItem is how many labels an item collects before it moves on: the overlap, once per
// pass when each pass is its own queue.
func (p *Project) labelsPerItem() int {
	if p.ownQueue(flow.StageLabel, nil) {
		return p.Policy.Overlap * len(p.Schema.Passes)
	}
	return p.Policy.Overlap
}

// openNextPass opens an item's next pass once its current one has the overlap's submitted
// labels, reviewed when labels are reviewed: a label rejected in review frees its slot in its own
// pass, which is still open for someone else to fill. It reports whether the item is still
// collecting an earlier pass than the last.
func (s *Service) openNextPass(ctx context.Context, tx *store.Store, p *Project, it *store.Item, as []store.Assignment) (bool, error) {
	last := len(p.Schema.Passes) - 1
	if it.Pass >= last {
		return false, nil
	}
	done := 0
	for _, a := range as {
		if a.Pass == it.Pass && a.Status == flow.AssignSubmitted && a.ReviewStatus != flow.ReviewPending {
			done++
		}
	}
	if done < p.Policy.Overlap {
		return true, nil
	}
	it.Pass++
	return true, tx.SetItemPass(ctx, it.ID, it.Pass, store.Event{ProjectID: p.ID, Action: "item.pass", Target: "item:" + it.ID,
		After: map[string]any{"pass": p.Schema.Passes[it.Pass].Key}})
}

// onlyPass refuses answers to questions outside the current pass: an earlier pass was submitted
// and cannot be changed, a later one has not been shown.
func onlyPass(form *tasks.Schema, ps *tasks.Pass, answers tasks.Answers) error {
	if ps == nil {
		return nil
	}
	fe := tasks.FieldErrors{}
	for key := range answers {
		if _, ok := form.Question(key); !ok {
			fe.Add(key, tasks.CodeNotInPass, "%q is not a question of pass %q; a submitted pass cannot be changed", key, ps.Key)
		}
	}
	return fe.Err()
}

// withPass returns the stored answers with those of the current pass's questions replaced by
// answers; the answers of other passes are kept as they are.
func withPass(form *tasks.Schema, stored, answers tasks.Answers) tasks.Answers {
	out := maps.Clone(stored)
	if out == nil {
		out = tasks.Answers{}
	}
	for _, q := range form.Questions {
		delete(out, q.Key)
	}
	maps.Copy(out, answers)
	return out
}

// passAnswers keeps the answers of the given form's questions.
func passAnswers(form *tasks.Schema, answers tasks.Answers) tasks.Answers {
	out := tasks.Answers{}
	for _, q := range form.Questions {
		if raw, ok := answers[q.Key]; ok {
			out[q.Key] = raw
		}
	}
	return out
}

// revisionOf is the insert of one save, with the pass it was made in when the form has passes.
func revisionOf(a *store.Assignment, kind flow.RevisionKind, answers store.JSON, ps *tasks.Pass) store.Write {
	if ps == nil {
		return store.RevisionWrite(a.ID, a.Version, kind, answers, "", nil)
	}
	return store.RevisionWrite(a.ID, a.Version, kind, answers, ps.Key, Encode(ps.Inputs))
}

// submitPass records the submit of a pass that is not the last: its answers are validated
// against the pass's form and frozen, and the next pass opens for the same person, under a
// renewed lease. The item does not move on.
func (u *submission) submitPass(ctx context.Context, at passAt) (*Result, error) {
	a, p, in := u.a, u.p, u.in
	canonical, err := u.check(ctx, at.form)
	if err != nil {
		return nil, err
	}
	a.Draft = Encode(withPass(at.form, DecodeAnswers(a.Draft), canonical))
	a.Version, a.TimeSpentMS = a.Version+1, a.TimeSpentMS+in.TimeSpentMS
	if in.IdempotencyKey != "" {
		a.SubmitKey = &in.IdempotencyKey
	}
	rev := at.revision(a, flow.RevisionPass, Encode(canonical))
	a.Pass++
	a.LeaseExpiresAt = u.s.now().Add(p.Lease())
	ev, err := u.tx.EventWrite(ctx, store.Event{ProjectID: p.ID, ActorID: a.UserID, Action: "assignment.pass", Target: "item:" + a.ItemID,
		After: map[string]any{"assignment": a.ID, "stage": a.Stage, "pass": at.pass.Key}})
	if err != nil {
		return nil, err
	}
	if err := u.tx.SaveAssignmentWith(ctx, a, rev, ev); err != nil {
		return nil, err
	}
	return u.passResult(false), nil
}

// passResult is the outcome of a pass submit: the assignment, still open in its label stage, and
// the pass that opened (only its number and label: the next view is fetched on its own).
func (u *submission) passResult(replayed bool) *Result {
	a := u.a
	return &Result{Assignment: a, ItemStage: a.Stage, Replayed: replayed, NextPass: u.p.StageSchema(a.Stage).Step(a.Pass)}
}

// movingPass is the first pass whose label submit can move an item on: the last one when the
// same person answers every pass, any one when each pass is its own queue or there are none.
// Submits of earlier passes do not lock the item.
func (p *Project) movingPass() int {
	if p.Schema.HasPasses() && !p.ownQueue(flow.StageLabel, nil) {
		return len(p.Schema.Passes) - 1
	}
	return 0
}
