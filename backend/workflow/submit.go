package workflow

import (
	"context"
	"errors"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Submission is what a person sends when they finish an assignment. Answers are in the order
// they were shown.
type Submission struct {
	Answers        tasks.Answers
	Verdict        flow.Verdict // review: approve, correct, reject
	Comment        string
	Comments       map[string]string // review: per question key
	Rationale      string
	Confidence     *int
	ErrorCategory  string
	TimeSpentMS    int64
	IdempotencyKey string
}

// Result is the outcome of a submit; SubmitViewOf is what its person is answered.
type Result struct {
	Assignment *store.Assignment
	ItemStage  flow.Stage
	Replayed   bool
	// NextPass is set when a pass other than the last was submitted: the assignment stays open
	// in this pass.
	NextPass *tasks.PassStep
}

// Submit validates and stores a submission and moves the item on by the policy, in one
// transaction. A retry with the same idempotency key returns the first result.
func (s *Service) Submit(ctx context.Context, p *Project, w Worker, aid string, in Submission) (*Result, error) {
	if len(in.IdempotencyKey) > 200 {
		return nil, tasks.Field("Idempotency-Key", "too_long", "at most 200 characters")
	}
	var res *Result
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		locked, err := tx.AssignmentForSubmit(ctx, aid, p.movingPass())
		a, err := s.checkOpen(ctx, tx, p, w, locked.Assignment, err)
		if errors.Is(err, ErrAlreadyDone) && in.IdempotencyKey != "" && a.SubmitKey != nil && *a.SubmitKey == in.IdempotencyKey {
			it, err := tx.Item(ctx, p.ID, a.ItemID)
			res = &Result{Assignment: a, ItemStage: it.Stage, Replayed: true}
			return err
		}
		if err != nil {
			return err
		}
		if a.SchemaVersion != p.SchemaVersion {
			if p, err = s.LoadProject(ctx, p.Project, a.SchemaVersion); err != nil {
				return err
			}
		}
		if replayedPass(a, in) {
			res, err = s.passResult(ctx, tx, p, a, true)
			return err
		}
		if err := s.checkLease(ctx, tx, p, a); err != nil {
			return err
		}
		res, err = s.apply(ctx, tx, p, a, locked.Item, in)
		return err
	})
	return res, err
}

func (s *Service) checkLease(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment) error {
	t := s.now()
	if !a.LeaseExpiresAt.Before(t) {
		return nil
	}
	free, err := s.slotStillFree(ctx, tx, p, a, t)
	if err != nil {
		return err
	}
	if !free {
		return ErrLeaseLost
	}
	return nil
}

// apply records the submission and advances the item. locked is the item when the
// assignment's lock took it too (a label on PostgreSQL): the submit then reads the item's labels
// in the statement that writes it.
func (s *Service) apply(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment, locked *store.Item, in Submission) (*Result, error) {
	schema, ps, err := p.formOf(a)
	if err != nil {
		return nil, err
	}
	if err := onlyPass(schema, ps, in.Answers); err != nil {
		return nil, err
	}
	through := false
	if ps != nil {
		if through, err = s.throughPasses(ctx, tx, p, a); err != nil {
			return nil, err
		}
	}
	if through && !p.lastPass(a) {
		return s.submitPass(ctx, tx, p, a, schema, ps, in)
	}
	item, err := s.itemFor(ctx, tx, p, a, schema, locked)
	if err != nil {
		return nil, err
	}
	canonical, err := s.checkSubmission(schema, a, in, item)
	if err != nil {
		return nil, err
	}
	if through { // note: the last pass submits the answers and the time of every pass, as one label
		canonical = withPass(schema, earlierPasses(p.StageSchema(a.Stage), a), canonical)
		in.TimeSpentMS += a.TimeSpentMS
	}
	t := s.now()
	a.Status, a.SubmittedAt, a.Version = flow.AssignSubmitted, &t, a.Version+1
	a.TimeSpentMS = in.TimeSpentMS
	if canonical != nil {
		a.Answers = Encode(canonical)
	}
	if in.IdempotencyKey != "" {
		a.SubmitKey = &in.IdempotencyKey
	}
	setOptional(a, in)
	if a.Stage == flow.StageLabel && p.Policy.Review == ReviewCross {
		a.ReviewStatus = flow.ReviewPending
	}
	labels, err := tx.RecordSubmit(ctx, store.Submitted{Assignment: a, Revision: revisionOf(a, flow.RevisionSubmit, OrEmpty(a.Answers), ps),
		Event: store.Event{ProjectID: p.ID, ActorID: a.UserID, Action: "assignment.submit", Target: "item:" + a.ItemID,
			After: map[string]any{"assignment": a.ID, "stage": a.Stage, "verdict": in.Verdict}},
		Labels: locked != nil})
	if err != nil {
		return nil, err
	}
	stage, err := s.afterSubmit(ctx, tx, p, a, canonical, in, held{item: locked, labels: labels})
	return &Result{Assignment: a, ItemStage: stage}, err
}

// checkSubmission validates a submission for its stage against the item and returns the
// canonical answers, completed by the system (see tasks.Schema.ValidateItemAnswers).
func (s *Service) checkSubmission(schema *tasks.Schema, a *store.Assignment, in Submission, item tasks.Item) (tasks.Answers, error) {
	fe := tasks.FieldErrors{}
	needAnswers := true
	switch a.Stage {
	case flow.StageReview:
		if !in.Verdict.Valid() && in.Answers == nil {
			fe["verdict"] = tasks.FieldError{Code: "invalid_value", Message: "verdict must be approve, correct or reject"}
		}
		for key := range in.Comments {
			if _, ok := schema.Question(key); !ok {
				fe["comments."+key] = tasks.FieldError{Code: "unknown_question", Message: "no question " + key + " to comment on"}
			}
		}
		needAnswers = in.Verdict == flow.VerdictCorrect || (in.Verdict == "" && in.Answers != nil)
	case flow.StageAdjudicate:
		if strings.TrimSpace(in.Rationale) == "" {
			fe["rationale"] = tasks.FieldError{Code: "required", Message: "say why this is the final answer"}
		}
		if in.Confidence != nil && (*in.Confidence < 1 || *in.Confidence > 5) {
			fe["confidence"] = tasks.FieldError{Code: "out_of_range", Message: "confidence must be 1 to 5"}
		}
	}
	if !needAnswers {
		return nil, fe.Err()
	}
	answers, err := schema.ValidateItemAnswers(item, in.Answers)
	if err != nil {
		var qe tasks.FieldErrors
		if !errors.As(err, &qe) {
			return nil, err
		}
		for k, v := range qe {
			fe[k] = v
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return schema.ToCanonical(answers, shuffleOf(a))
}

func setOptional(a *store.Assignment, in Submission) {
	a.Verdict, a.Comment, a.Rationale, a.ErrorCategory = optional(in.Verdict), optional(in.Comment), optional(in.Rationale), optional(in.ErrorCategory)
	a.Confidence = in.Confidence
	if len(in.Comments) > 0 {
		a.Comments = Encode(in.Comments)
	}
}

// optional is nil for the zero value, so empty fields stay NULL.
func optional[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}
