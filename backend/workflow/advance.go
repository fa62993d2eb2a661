package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// afterSubmit moves the item on after a submission and returns its stage.
func (u *submission) afterSubmit(ctx context.Context, canonical tasks.Answers) (flow.Stage, error) {
	a, p, tx := u.a, u.p, u.tx
	if a.Stage == flow.StageCalibration {
		return flow.StageCalibration, nil // note: calibration answers never move a pool item
	}
	it, err := u.item(ctx)
	if err != nil {
		return "", err
	}
	switch a.Stage {
	case flow.StageReview:
		if err := u.applyReview(ctx, canonical); err != nil {
			return "", err
		}
	case flow.StageAdjudicate:
		return flow.StageDone, u.adjudicate(ctx, it, canonical)
	case flow.StageCriteria:
		return u.collectCriteria(ctx, it, canonical)
	case flow.StageChecklist:
		return u.refineChecklist(ctx, it, canonical)
	case flow.StageLabel:
		if it.Stage == flow.StageGold {
			return u.s.goldSubmitted(ctx, tx, p, a, it, canonical)
		}
	}
	return u.s.advance(ctx, tx, p, it, u.labels)
}

// applyReview records a verdict on the label under review, locked with the review. A blind
// review gives answers; the verdict follows from whether they agree with the label.
func (u *submission) applyReview(ctx context.Context, answers tasks.Answers) error {
	r, label, p := u.a, u.held.Target, u.p
	if label == nil || label.ReviewStatus != flow.ReviewPending || label.Status != flow.AssignSubmitted {
		return ErrItemNotInFlow // note: the label was decided by someone else meanwhile
	}
	verdict := u.in.Verdict
	if verdict == "" {
		out := Evaluate(p.Schema, p.Policy.Consensus, []Label{{Answers: DecodeAnswers(label.Answers)}, {Answers: answers}})
		verdict = flow.VerdictApprove
		if !out.Agreed {
			verdict = flow.VerdictDispute
		}
		r.Verdict = &verdict
		if err := u.tx.SaveAssignment(ctx, r); err != nil {
			return err
		}
	}
	before := label.ReviewStatus
	switch verdict {
	case flow.VerdictApprove:
		label.ReviewStatus = flow.ReviewApproved
	case flow.VerdictCorrect:
		label.ReviewStatus, label.Effective, label.CorrectedBy = flow.ReviewCorrected, Encode(answers), &r.UserID
	case flow.VerdictReject:
		label.ReviewStatus, label.Status = flow.ReviewRejected, flow.AssignRejected
	case flow.VerdictDispute:
		label.ReviewStatus = flow.ReviewDisputed
	}
	ev, err := u.tx.EventWrite(ctx, store.Event{ProjectID: p.ID, ActorID: r.UserID, Action: "label.review", Target: "assignment:" + label.ID,
		Before: map[string]any{"review_status": before}, After: map[string]any{"review_status": label.ReviewStatus, "comment": u.in.Comment}})
	if err != nil {
		return err
	}
	return u.tx.SaveAssignmentWith(ctx, label, ev)
}

// advance looks at an item's labels (as, when read under its lock already) and moves it: back to labeling while slots are open, to
// review while labels wait for it, and through the consensus rule once all are decided.
func (s *Service) advance(ctx context.Context, tx *store.Store, p *Project, it *store.Item, as []store.Assignment) (flow.Stage, error) {
	if as == nil { // note: labels not read under the item's lock yet
		var err error
		if as, err = tx.ItemAssignments(ctx, it.ID, flow.StageLabel); err != nil {
			return "", err
		}
	}
	if p.ownQueue(flow.StageLabel, it) {
		if earlier, err := s.openNextPass(ctx, tx, p, it, as); err != nil || earlier {
			return flow.StageLabel, err
		}
	}
	accepted, pending, disputed := acceptedLabels(as)
	stage := flow.StageLabel
	switch {
	case len(accepted)+pending < p.labelsPerItem()+it.ExtraLabels:
	case pending > 0:
		stage = flow.StageReview
	case p.Policy.AdaptiveOverlap != nil && !it.SpotCheck && disputed == 0:
		return s.adaptive(ctx, tx, p, it, accepted)
	default:
		return s.finalize(ctx, tx, p, it, accepted, disputed > 0, nil)
	}
	if stage != it.Stage {
		return stage, s.moveItem(ctx, tx, p, it, stage, nil)
	}
	return stage, nil
}

// acceptedLabels sorts an item's label assignments: the labels that count (disputed ones
// included), and how many wait for review or were disputed.
func acceptedLabels(as []store.Assignment) (accepted []Label, pending, disputed int) {
	for _, l := range as {
		if l.Status != flow.AssignSubmitted {
			continue
		}
		switch l.ReviewStatus {
		case flow.ReviewPending:
			pending++
		case flow.ReviewDisputed:
			disputed++
			accepted = append(accepted, labelOf(l))
		default:
			accepted = append(accepted, labelOf(l))
		}
	}
	return accepted, pending, disputed
}

// labelOf is a label as it counts: a reviewer's correction in place of its answers.
func labelOf(a store.Assignment) Label {
	if len(a.Effective) > 0 {
		l := Label{By: a.UserID, Answers: DecodeAnswers(a.Effective), Corrected: true}
		if a.CorrectedBy != nil {
			l.CorrectedBy = *a.CorrectedBy
		}
		return l
	}
	return Label{By: a.UserID, Answers: DecodeAnswers(a.Answers)}
}

// Roles of the people whose free text is kept with ground truth.
const (
	textByAnnotator   = "annotator"
	textByCorrection  = "corrected" // a label's text as its reviewer corrected it
	textByAdjudicator = "adjudicator"
)

// textsOf collects the free-text answers of labels, per text question in schema order and
// label order, after those of first (the adjudicator's, when given): the evidence and
// rationales behind a decision, each by who wrote it (a corrected label's by its reviewer). Nil
// when nobody wrote any.
func textsOf(schema *tasks.Schema, first *Label, labels []Label) map[string][]exports.TextAnswer {
	var out map[string][]exports.TextAnswer
	add := func(key string, l Label, role string) {
		var t string
		if json.Unmarshal(l.Answers[key], &t) != nil || strings.TrimSpace(t) == "" || t == tasks.AnswerMissing {
			return
		}
		if out == nil {
			out = map[string][]exports.TextAnswer{}
		}
		by := l.By
		if l.CorrectedBy != "" {
			by = l.CorrectedBy
		}
		out[key] = append(out[key], exports.TextAnswer{Author: by, Role: role, Text: t})
	}
	for _, q := range schema.Questions {
		if q.Kind != tasks.KindText {
			continue
		}
		if first != nil {
			add(q.Key, *first, textByAdjudicator)
		}
		for _, l := range labels {
			add(q.Key, l, ifRole(l.Corrected, textByCorrection, textByAnnotator))
		}
	}
	return out
}

func ifRole(c bool, yes, no string) string {
	if c {
		return yes
	}
	return no
}

// encodeTexts stores kept texts, NULL when there are none.
func encodeTexts(t map[string][]exports.TextAnswer) store.JSON {
	if len(t) == 0 {
		return nil
	}
	return Encode(t)
}

// finalize applies the consensus rule and the adjudication policy to the accepted labels; the
// posteriors of an adaptive decision go into the ground truth's provenance.
func (s *Service) finalize(ctx context.Context, tx *store.Store, p *Project, it *store.Item, labels []Label, disputed bool, post Posteriors) (flow.Stage, error) {
	c := p.Policy.Consensus
	if c.Nominal == NominalReliability {
		if post == nil {
			models, err := s.reliabilityModels(ctx, tx, p)
			if err != nil {
				return "", err
			}
			post = posteriors(p.Schema, models, labels)
		}
		c.posterior = post
	}
	out := Aggregate(p.Schema, c, p.Policy.Aggregation, labels)
	if it.SpotCheck {
		return flow.StageDone, s.spotCheck(ctx, tx, p, it, out)
	}
	pol := p.Policy
	switch {
	case pol.Adjudication == AdjudicateAlways || disputed:
		return flow.StageAdjudicate, s.moveItem(ctx, tx, p, it, flow.StageAdjudicate, nil)
	case out.Agreed:
		details := map[string]any{"labels": len(labels)}
		if post != nil {
			details["posterior"] = post
		}
		if len(out.Aggregates) > 0 {
			details["aggregates"] = out.Aggregates
		}
		gt := &store.GroundTruth{ItemID: it.ID, Answers: Encode(out.Answers), Provenance: out.Provenance, Details: Encode(details),
			Texts: encodeTexts(textsOf(p.Schema, nil, labels))}
		return flow.StageDone, s.decide(ctx, tx, p, it, gt)
	case pol.OnNoConsensus == NoConsensusAdjudicate: // note: Validate allows it only with on_disagreement
		return flow.StageAdjudicate, s.moveItem(ctx, tx, p, it, flow.StageAdjudicate, nil)
	}
	reason := noConsensusReason(out)
	return flow.StageDropped, s.moveItem(ctx, tx, p, it, flow.StageDropped, &reason)
}

// noConsensusReason names the questions without consensus and the values given.
func noConsensusReason(out Outcome) string {
	var parts []string
	for _, d := range out.Disagreements {
		if d.Resolved {
			continue
		}
		vals := make([]string, len(d.Values))
		for i, v := range d.Values {
			vals[i] = string(v)
		}
		sort.Strings(vals)
		parts = append(parts, fmt.Sprintf("%s (%s)", d.Question, strings.Join(vals, ", ")))
	}
	return "no consensus on " + strings.Join(parts, "; ")
}

// spotCheck compares a blind label of an item that came with ground truth; a mismatch flags
// the item for the lead, naming the questions that disagreed (with the blind labels' answer
// against the truth's, or where the blind labels did not agree among themselves), and leaves
// the imported ground truth in place.
func (s *Service) spotCheck(ctx context.Context, tx *store.Store, p *Project, it *store.Item, out Outcome) error {
	gts, err := tx.LatestGroundTruth(ctx, []string{it.ID})
	if err != nil {
		return err
	}
	gt := gts[it.ID]
	if gt == nil {
		return s.moveItem(ctx, tx, p, it, flow.StageDone, nil)
	}
	settled := tasks.Answers{} // note: out.Answers is nil when one question is unsettled; the others still count
	for _, q := range out.Questions {
		if q.Answer != nil {
			settled[q.Question] = q.Answer
		}
	}
	cmp := Evaluate(p.Schema, Consensus{Nominal: NominalUnanimous, OrdinalTolerance: p.Policy.Consensus.OrdinalTolerance},
		[]Label{{By: "ground_truth", Answers: DecodeAnswers(gt.Answers)}, {By: "spot_check", Answers: settled}})
	all, questions := append(slices.Clip(cmp.Disagreements), out.Disagreements...), []string(nil) // questions in schema order
	for _, q := range p.Schema.Questions {
		if slices.ContainsFunc(all, func(d Disagreement) bool { return d.Question == q.Key && !d.Resolved }) {
			questions = append(questions, q.Key)
		}
	}
	if len(questions) > 0 {
		flag := map[string]any{"category": "spot_check_mismatch", "reason": "the blind label disagrees with the " + string(gt.Provenance) +
			" ground truth on " + strings.Join(questions, ", "), "ground_truth_revision": gt.Revision, "questions": questions,
			"disagreements": cmp.Disagreements}
		if err := tx.SetItemFlag(ctx, it.ID, Encode(flag)); err != nil {
			return err
		}
	}
	return s.moveItem(ctx, tx, p, it, flow.StageDone, nil)
}

// adjudicate writes the adjudicator's answers as ground truth.
func (u *submission) adjudicate(ctx context.Context, it *store.Item, answers tasks.Answers) error {
	a, p, in := u.a, u.p, u.in
	if it.Stage != flow.StageAdjudicate {
		return ErrItemNotInFlow
	}
	as, err := u.tx.ItemAssignments(ctx, it.ID, flow.StageLabel)
	if err != nil {
		return err
	}
	labels, _, _ := acceptedLabels(as)
	texts := textsOf(p.Schema, &Label{By: a.UserID, Answers: answers}, labels)
	details := map[string]any{"assignment": a.ID, "confidence": in.Confidence, "error_category": in.ErrorCategory}
	if agg := Aggregate(p.Schema, p.Policy.Consensus, p.Policy.Aggregation, labels).Aggregates; len(agg) > 0 {
		details["aggregates"] = agg // note: what the evaluations said, beside the adjudicator's decision
	}
	gt := &store.GroundTruth{ItemID: it.ID, Answers: Encode(answers), Provenance: flow.ProvenanceAdjudicated,
		DecidedBy: &a.UserID, Rationale: &in.Rationale, Details: Encode(details), Texts: encodeTexts(texts)}
	return u.s.decide(ctx, u.tx, p, it, gt)
}

// decide records an item's ground truth and moves it to done, with the audit event moveItem
// writes.
func (s *Service) decide(ctx context.Context, tx *store.Store, p *Project, it *store.Item, gt *store.GroundTruth) error {
	if err := tx.DecideItem(ctx, gt, flow.StageDone, store.Event{ProjectID: p.ID, Action: "item.stage", Target: "item:" + it.ID,
		Before: map[string]any{"stage": it.Stage}, After: map[string]any{"stage": flow.StageDone}}); err != nil {
		return err
	}
	return s.hooks.Notify(ctx, tx, webhooks.Event{Type: webhooks.ItemDecided, ProjectID: p.ID,
		Data: map[string]any{"item_id": it.ID, "external_id": it.ExternalID, "provenance": gt.Provenance}})
}

// moveItem changes an item's stage and records it in the audit trail.
func (s *Service) moveItem(ctx context.Context, tx *store.Store, p *Project, it *store.Item, stage flow.Stage, reason *string) error {
	after := map[string]any{"stage": stage}
	if reason != nil {
		after["drop_reason"] = *reason
	}
	err := tx.MoveItem(ctx, it.ID, stage, reason, store.Event{ProjectID: p.ID, Action: "item.stage", Target: "item:" + it.ID,
		Before: map[string]any{"stage": it.Stage}, After: after})
	if err == nil {
		it.Stage, it.DropReason = stage, reason // note: the caller's item stays as stored
	}
	return err
}
