package workflow

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ErrPaused refuses label and criteria work to a member paused after failing gold.
var ErrPaused = errors.New("your labeling in this project is paused by its quality checks; a lead of the project can lift the pause")

// goldMinJudged is how many gold answers the window needs before an annotator is judged
// (or the whole window, when it is smaller).
const goldMinJudged = 5

// itemSlots is how many assignments an item takes in a stage: a gold item takes one per
// person, so it has no limit of its own; a label stage item, the overlap and its extra labels.
func (p *Project) itemSlots(it *store.Item, stage flow.Stage) int {
	if it.Stage == flow.StageGold {
		return int(^uint(0) >> 1)
	}
	if stage == flow.StageLabel {
		return p.slots(stage) + it.ExtraLabels
	}
	return p.slots(stage)
}

// drawGold decides whether a label claim hands out a gold item.
func (p *Project) drawGold() bool {
	return p.Policy.GoldRate > 0 && rand.Float64() < p.Policy.GoldRate
}

// claimGold claims a gold item the user has not had; nil when none is left for them.
func (s *Service) claimGold(ctx context.Context, tx *store.Store, p *Project, userID string, t time.Time) (*store.Assignment, *store.Item, error) {
	ids, err := tx.GoldCandidates(ctx, p.ID, userID, 5)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range ids {
		a, it, err := s.TryClaim(ctx, tx, p, userID, flow.StageLabel, id, t)
		if err != nil || a != nil {
			return a, it, err
		}
	}
	return nil, nil, nil
}

// checkPaused refuses annotator work to a paused member.
func (s *Service) checkPaused(ctx context.Context, p *Project, userID string, role store.Role) error {
	if role != store.RoleAnnotator {
		return nil
	}
	m, err := s.store.CachedMember(ctx, p.ID, userID) // note: a pause clears every replica's cache when it commits
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if m.Paused {
		return ErrPaused
	}
	return nil
}

// goldSubmitted scores a label of a gold item (it, locked) against its gold answers, judges
// the person's gold window, and returns the stage a production item would report, so that the
// answer to a submit looks the same.
func (s *Service) goldSubmitted(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment, it *store.Item, canonical tasks.Answers) (flow.Stage, error) {
	correct := goldMatches(p, DecodeAnswers(it.Gold), canonical)
	a.GoldCorrect, a.ReviewStatus = &correct, flow.ReviewNone
	if err := tx.SaveAssignment(ctx, a); err != nil {
		return "", err
	}
	if err := s.judgeGold(ctx, tx, p, a.UserID); err != nil {
		return "", err
	}
	return p.goldStage(), nil
}

// goldMatches compares a label with the gold answers under the project's consensus rule
// (unanimous, with its ordinal tolerance), over the questions the gold answers.
func goldMatches(p *Project, gold, label tasks.Answers) bool {
	mine := tasks.Answers{}
	for k := range gold {
		if v, ok := label[k]; ok {
			mine[k] = v
		}
	}
	c := Consensus{Nominal: NominalUnanimous, OrdinalTolerance: p.Policy.Consensus.OrdinalTolerance}
	return Evaluate(p.Schema, c, []Label{{By: "gold", Answers: gold}, {By: "label", Answers: mine}}).Agreed &&
		len(mine) == len(gold)
}

// goldStage is the stage a production item reports after one of its labels: review under
// cross review, label while more labels are due, else where a single label takes it.
func (p *Project) goldStage() flow.Stage {
	switch {
	case p.Policy.Review == ReviewCross:
		return flow.StageReview
	case p.Policy.Overlap > 1:
		return flow.StageLabel
	case p.Policy.Adjudication == AdjudicateAlways:
		return flow.StageAdjudicate
	}
	return flow.StageDone
}

// shownStage is an item's stage as the people working it may see it: a gold item reports the
// stage a production item would.
func (p *Project) shownStage(it *store.Item) flow.Stage {
	if it.Stage == flow.StageGold {
		return p.goldStage()
	}
	return it.Stage
}

// GoldJudgement is a person's gold accuracy over their sliding window.
type GoldJudgement struct {
	Answered int
	Correct  int
	// Judged: the window holds enough answers to judge (goldMinJudged, or the whole window).
	Judged bool
	// Below: judged, and the accuracy is under the policy's minimum.
	Below bool
}

// Accuracy is the window's accuracy, or nil without answers.
func (g GoldJudgement) Accuracy() *float64 {
	if g.Answered == 0 {
		return nil
	}
	v := float64(g.Correct) / float64(g.Answered)
	return &v
}

// JudgeWindow judges the newest-first results of a window under the policy.
func (p *Project) JudgeWindow(results []bool) GoldJudgement {
	g := GoldJudgement{Answered: len(results)}
	for _, ok := range results {
		if ok {
			g.Correct++
		}
	}
	g.Judged = g.Answered >= min(goldMinJudged, p.Policy.GoldWindow)
	g.Below = g.Judged && float64(g.Correct) < p.Policy.GoldMinAccuracy*float64(g.Answered)
	return g
}

// judgeGold pauses a member whose gold window falls below the minimum, when the policy says so.
func (s *Service) judgeGold(ctx context.Context, tx *store.Store, p *Project, userID string) error {
	if !p.Policy.GoldPause {
		return nil
	}
	m, err := tx.Member(ctx, p.ID, userID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && m.Paused) {
		return nil
	}
	if err != nil {
		return err
	}
	window, err := tx.GoldWindow(ctx, p.ID, userID, m.GoldSince, p.Policy.GoldWindow)
	if err != nil {
		return err
	}
	g := p.JudgeWindow(window)
	if !g.Below {
		return nil
	}
	if err := tx.SetMemberPaused(ctx, p.ID, userID, true); err != nil {
		return err
	}
	reason := fmt.Sprintf("gold accuracy %d/%d over the last %d gold answers is below %g", g.Correct, g.Answered, g.Answered, p.Policy.GoldMinAccuracy)
	if err := tx.Audit(ctx, p.ID, "", "member.pause", "user:"+userID, map[string]any{"paused": false},
		map[string]any{"paused": true, "reason": reason, "gold_correct": g.Correct, "gold_answered": g.Answered}); err != nil {
		return err
	}
	return s.hooks.Notify(ctx, tx, webhooks.Event{Type: webhooks.AnnotatorFlagged, ProjectID: p.ID,
		Data: map[string]any{"user_id": userID, "reason": reason, "gold_correct": g.Correct, "gold_answered": g.Answered}})
}

// withGold adds the gold items a person could still be given to their available label work,
// so that the count goes down by one with every submit, gold or not. Gold is handed out only
// while production work is left, so with none left there is none.
func (s *Service) withGold(ctx context.Context, p *Project, userID string, n int64) (int64, error) {
	if n == 0 || p.Policy.GoldRate == 0 {
		return n, nil
	}
	g, err := s.store.AvailableGold(ctx, p.ID, userID, AvailableCap)
	return min(n+g, AvailableCap), err
}
