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
	s.open.forget(aid)
	var res *Result
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		held, err := tx.AssignmentForSubmit(ctx, aid, p.movingPass())
		a, err := s.checkOpen(ctx, tx, p, w, held.Assignment, err)
		u := &submission{s: s, tx: tx, p: p, a: a, in: in, held: held}
		if errors.Is(err, ErrAlreadyDone) && u.replayed() {
			res, err = u.replay(ctx)
			return err
		}
		if err != nil {
			return err
		}
		if a.SchemaVersion != p.SchemaVersion {
			if u.p, err = s.LoadProject(ctx, p.Project, a.SchemaVersion); err != nil {
				return err
			}
		}
		res, err = u.apply(ctx)
		return err
	})
	return res, err
}

// submission is one submit under way: what its first statement locked, and the item's labels
// once read. Every step of the submit reads the item from here, so it is read once.
type submission struct {
	s    *Service
	tx   *store.Store
	p    *Project
	a    *store.Assignment
	in   Submission
	held store.LockedForSubmit
	// labels are the item's label assignments as the submit left them; nil until read.
	labels []store.Assignment
}

// item is the submit's item, locked: with the assignment when the first statement took it,
// else now, once.
func (u *submission) item(ctx context.Context) (*store.Item, error) {
	if u.held.Item == nil {
		it, err := u.tx.ItemForUpdate(ctx, u.a.ItemID)
		if err != nil {
			return nil, err
		}
		u.held.Item = it
	}
	return u.held.Item, nil
}

// read is the submit's item as it is: the locked one when the submit holds it, else read without
// a lock (a submit that does not move the item does not lock it).
func (u *submission) read(ctx context.Context) (*store.Item, error) {
	if u.held.Item != nil {
		return u.held.Item, nil
	}
	return u.tx.Item(ctx, u.p.ID, u.a.ItemID)
}

// replayed reports whether the submit is a retry of the one that submitted the assignment, or of
// the pass submit that opened its current pass.
func (u *submission) replayed() bool {
	key := u.in.IdempotencyKey
	return u.a != nil && key != "" && u.a.SubmitKey != nil && *u.a.SubmitKey == key
}

// replay answers a retried submit as the first one was answered: the item's stage as its worker
// may see it.
func (u *submission) replay(ctx context.Context) (*Result, error) {
	it, err := u.read(ctx)
	if err != nil {
		return nil, err
	}
	return &Result{Assignment: u.a, ItemStage: u.p.shownStage(it), Replayed: true}, nil
}

// apply records the submission and advances the item.
func (u *submission) apply(ctx context.Context) (*Result, error) {
	a, p, in := u.a, u.p, u.in
	if a.Pass > 0 && u.replayed() {
		return u.passResult(true), nil
	}
	if err := u.checkLease(ctx); err != nil {
		return nil, err
	}
	at, err := u.passAt(ctx)
	if err != nil {
		return nil, err
	}
	if at.through && !at.last {
		return u.submitPass(ctx, at)
	}
	canonical, err := u.check(ctx, at.form)
	if err != nil {
		return nil, err
	}
	if at.through { // note: the last pass submits the answers and the time of every pass, as one label
		canonical, in.TimeSpentMS = at.whole(a, canonical), in.TimeSpentMS+a.TimeSpentMS
	}
	t := u.s.now()
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
	u.labels, err = u.tx.RecordSubmit(ctx, store.Submitted{Assignment: a, Revision: at.revision(a, flow.RevisionSubmit, OrEmpty(a.Answers)),
		Event: store.Event{ProjectID: p.ID, ActorID: a.UserID, Action: "assignment.submit", Target: "item:" + a.ItemID,
			After: map[string]any{"assignment": a.ID, "stage": a.Stage, "verdict": in.Verdict}},
		Labels: a.Stage == flow.StageLabel && u.held.Item != nil})
	if err != nil {
		return nil, err
	}
	stage, err := u.afterSubmit(ctx, canonical)
	return &Result{Assignment: a, ItemStage: stage}, err
}

// checkLease refuses a submit whose lease expired when someone else took its slot since.
func (u *submission) checkLease(ctx context.Context) error {
	t := u.s.now()
	if !u.a.LeaseExpiresAt.Before(t) {
		return nil
	}
	free, err := u.s.slotStillFree(ctx, u.tx, u.p, &u.held, t)
	if err != nil {
		return err
	}
	if !free {
		return ErrLeaseLost
	}
	return nil
}

// check validates the answers to form and returns them canonical.
func (u *submission) check(ctx context.Context, form *tasks.Schema) (tasks.Answers, error) {
	var item tasks.Item
	if form.ReadsItem() { // note: most schemas do not, and a submit stays one read shorter
		it, err := u.read(ctx)
		if err != nil {
			return nil, err
		}
		if item, err = storeItem(it); err != nil {
			return nil, err
		}
	}
	return checkSubmission(form, u.a, u.in, item)
}

// checkSubmission validates a submission for its stage against the item and returns the
// canonical answers, completed by the system (see tasks.Schema.ValidateItemAnswers).
func checkSubmission(schema *tasks.Schema, a *store.Assignment, in Submission, item tasks.Item) (tasks.Answers, error) {
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
