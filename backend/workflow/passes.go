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

// throughPasses reports whether an assignment in a pass answers every pass in turn: always with
// same_person; with own_queue only calibration work and labels of gold items, which score one
// person on the whole form (the item is read only then).
func (s *Service) throughPasses(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment) (bool, error) {
	if !slices.Contains(passStages, a.Stage) {
		return false, nil
	}
	if !p.ownQueue(a.Stage, nil) {
		return true, nil
	}
	it, err := tx.Item(ctx, p.ID, a.ItemID)
	if err != nil {
		return false, err
	}
	return it.Stage == flow.StageGold, nil
}

// lastPass reports whether an assignment in a pass is in the last one.
func (p *Project) lastPass(a *store.Assignment) bool {
	return a.Pass >= len(p.StageSchema(a.Stage).Passes)-1
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
	if err := tx.SetItemPass(ctx, it.ID, it.Pass); err != nil {
		return false, err
	}
	return true, tx.Audit(ctx, p.ID, "", "item.pass", "item:"+it.ID, nil, map[string]any{"pass": p.Schema.Passes[it.Pass].Key})
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

// earlierPasses keeps the answers given in passes before the assignment's current one.
func earlierPasses(schema *tasks.Schema, a *store.Assignment) tasks.Answers {
	out := tasks.Answers{}
	for key, raw := range DecodeAnswers(a.Draft) {
		if i := schema.PassOf(key); i >= 0 && i < a.Pass {
			out[key] = raw
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

// addRevision keeps one save, with the pass it was made in when the form has passes.
func addRevision(ctx context.Context, tx *store.Store, a *store.Assignment, kind flow.RevisionKind, answers store.JSON, ps *tasks.Pass) error {
	if ps == nil {
		return tx.AddRevision(ctx, a.ID, a.Version, kind, answers)
	}
	return tx.AddPassRevision(ctx, a.ID, a.Version, kind, answers, ps.Key, Encode(ps.Inputs))
}

// submitPass records the submit of a pass that is not the last: its answers are validated
// against the pass's form and frozen, and the next pass opens for the same person, under a
// renewed lease. The item does not move on.
func (s *Service) submitPass(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment, form *tasks.Schema, ps *tasks.Pass, in Submission) (*Result, error) {
	item, err := s.itemFor(ctx, tx, p, a, form, nil)
	if err != nil {
		return nil, err
	}
	canonical, err := s.checkSubmission(form, a, in, item)
	if err != nil {
		return nil, err
	}
	a.Draft = Encode(withPass(form, DecodeAnswers(a.Draft), canonical))
	a.Version, a.TimeSpentMS = a.Version+1, a.TimeSpentMS+in.TimeSpentMS
	if in.IdempotencyKey != "" {
		a.SubmitKey = &in.IdempotencyKey
	}
	if err := addRevision(ctx, tx, a, flow.RevisionPass, Encode(canonical), ps); err != nil {
		return nil, err
	}
	a.Pass++
	a.LeaseExpiresAt = s.now().Add(p.Lease())
	if err := tx.SaveAssignment(ctx, a); err != nil {
		return nil, err
	}
	if err := tx.Audit(ctx, p.ID, a.UserID, "assignment.pass", "item:"+a.ItemID, nil,
		map[string]any{"assignment": a.ID, "stage": a.Stage, "pass": ps.Key}); err != nil {
		return nil, err
	}
	return s.passResult(ctx, tx, p, a, false)
}

// passResult is the outcome of a pass submit: the assignment, still open, and the pass that
// opened (only its number and label: the next view is fetched on its own).
func (s *Service) passResult(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment, replayed bool) (*Result, error) {
	it, err := tx.Item(ctx, p.ID, a.ItemID)
	if err != nil {
		return nil, err
	}
	return &Result{Assignment: a, ItemStage: it.Stage, Replayed: replayed, NextPass: p.StageSchema(a.Stage).Step(a.Pass)}, nil
}

// replayedPass reports whether a submit is a retry of the pass submit that opened the
// assignment's current pass.
func replayedPass(a *store.Assignment, in Submission) bool {
	return a != nil && a.Pass > 0 && a.Status == flow.AssignActive && in.IdempotencyKey != "" &&
		a.SubmitKey != nil && *a.SubmitKey == in.IdempotencyKey
}

// itemFor is the item when validating answers of form needs it: the one the submit locked
// when it has it, read otherwise.
func (s *Service) itemFor(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment, form *tasks.Schema, locked *store.Item) (tasks.Item, error) {
	if !form.ReadsItem() { // note: most schemas do not, and a submit stays one read shorter
		return tasks.Item{}, nil
	}
	if locked != nil { // note: the submit's first statement read it with the assignment
		return storeItem(locked)
	}
	stored, err := tx.Item(ctx, p.ID, a.ItemID)
	if err != nil {
		return tasks.Item{}, err
	}
	return storeItem(stored)
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
