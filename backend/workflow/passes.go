package workflow

import (
	"context"
	"maps"
	"slices"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow/flow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// A form may come in passes (tasks.Schema.Passes). One person answers every pass of an item as
// one assignment that moves from pass to pass (Assignment.Pass): while in pass k, every view,
// draft and prefill the person gets holds only pass k's inputs and questions; submitting pass k
// freezes its answers and opens pass k+1 for the same person; submitting the last pass submits
// the assignment with the answers of every pass. Reviewers, adjudicators and leads see the
// whole form.

// passStages are the stages answered pass by pass: those whose person labels the item.
var passStages = []flow.Stage{flow.StageLabel, flow.StageCalibration}

// formOf returns the form an assignment is answered with: its stage's schema, or, when that
// schema comes in passes and the stage is labelled, the form of the assignment's current pass
// with that pass.
func (p *Project) formOf(a *store.Assignment) (*tasks.Schema, *tasks.Pass, error) {
	schema := p.stageSchema(a.Stage)
	if !schema.HasPasses() || !slices.Contains(passStages, a.Stage) {
		return schema, nil, nil
	}
	form, err := schema.PassForm(a.Pass)
	if err != nil {
		return nil, nil, err
	}
	return &form, &schema.Passes[a.Pass], nil
}

// lastPass reports whether an assignment in a pass is in the last one.
func (p *Project) lastPass(a *store.Assignment) bool {
	return a.Pass >= len(p.stageSchema(a.Stage).Passes)-1
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
	for key, raw := range decodeAnswers(a.Draft) {
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
	return store.RevisionWrite(a.ID, a.Version, kind, answers, ps.Key, encode(ps.Inputs))
}

// addRevision keeps one save, with the pass it was made in when the form has passes.
func addRevision(ctx context.Context, tx *store.Store, a *store.Assignment, kind flow.RevisionKind, answers store.JSON, ps *tasks.Pass) error {
	if ps == nil {
		return tx.AddRevision(ctx, a.ID, a.Version, kind, answers)
	}
	return tx.AddPassRevision(ctx, a.ID, a.Version, kind, answers, ps.Key, encode(ps.Inputs))
}

// submitPass records the submit of a pass that is not the last: its answers are validated
// against the pass's form and frozen, and the next pass opens for the same person, under a
// renewed lease. The item does not move on.
func (s *Service) submitPass(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment, form *tasks.Schema, ps *tasks.Pass, in Submission) (*Result, error) {
	item, err := s.itemFor(ctx, tx, p, a, form)
	if err != nil {
		return nil, err
	}
	canonical, err := s.checkSubmission(form, a, in, item)
	if err != nil {
		return nil, err
	}
	a.Draft = encode(withPass(form, decodeAnswers(a.Draft), canonical))
	a.Version, a.TimeSpentMS = a.Version+1, a.TimeSpentMS+in.TimeSpentMS
	if in.IdempotencyKey != "" {
		a.SubmitKey = &in.IdempotencyKey
	}
	if err := addRevision(ctx, tx, a, flow.RevisionPass, encode(canonical), ps); err != nil {
		return nil, err
	}
	a.Pass++
	a.LeaseExpiresAt = s.now().Add(p.lease())
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
	return &Result{Assignment: a, ItemStage: it.Stage, Replayed: replayed, NextPass: p.stageSchema(a.Stage).Step(a.Pass)}, nil
}

// replayedPass reports whether a submit is a retry of the pass submit that opened the
// assignment's current pass.
func replayedPass(a *store.Assignment, in Submission) bool {
	return a != nil && a.Pass > 0 && a.Status == flow.AssignActive && in.IdempotencyKey != "" &&
		a.SubmitKey != nil && *a.SubmitKey == in.IdempotencyKey
}

// itemFor loads the item when validating answers of form needs it.
func (s *Service) itemFor(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment, form *tasks.Schema) (tasks.Item, error) {
	if !form.ReadsItem() { // note: most schemas do not, and a submit stays one read shorter
		return tasks.Item{}, nil
	}
	stored, err := tx.Item(ctx, p.ID, a.ItemID)
	if err != nil {
		return tasks.Item{}, err
	}
	return storeItem(stored)
}
