package workflow

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ErrPaused refuses label and criteria work to a member paused after failing gold.
var ErrPaused = errors.New("your labeling in this project is paused by its quality checks; a lead of the project can lift the pause")

// goldMinJudged is how many gold answers the window needs before an annotator is judged
// (or the whole window, when it is smaller).
const goldMinJudged = 5

// itemSlots is how many assignments an item takes in a stage: a gold item takes one per
// person, so it has no limit of its own.
func (p *Project) itemSlots(it *store.Item, stage flow.Stage) int {
	if it.Stage == flow.StageGold {
		return int(^uint(0) >> 1)
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
		a, it, err := s.tryClaim(ctx, tx, p, userID, flow.StageLabel, id, t)
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
	correct := goldMatches(p, decodeAnswers(it.Gold), canonical)
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

// judgeWindow judges the newest-first results of a window under the policy.
func (p *Project) judgeWindow(results []bool) GoldJudgement {
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
	g := p.judgeWindow(window)
	if !g.Below {
		return nil
	}
	if err := tx.SetMemberPaused(ctx, p.ID, userID, true); err != nil {
		return err
	}
	reason := fmt.Sprintf("gold accuracy %d/%d over the last %d gold answers is below %g", g.Correct, g.Answered, g.Answered, p.Policy.GoldMinAccuracy)
	return tx.Audit(ctx, p.ID, "", "member.pause", "user:"+userID, map[string]any{"paused": false},
		map[string]any{"paused": true, "reason": reason, "gold_correct": g.Correct, "gold_answered": g.Answered})
}

// MemberPause pauses a member or lifts the pause (which starts their gold window over),
// audited as member.pause or member.unpause.
func (s *Service) MemberPause(ctx context.Context, tx *store.Store, actorID, projectID, userID string, paused bool) error {
	before, err := tx.Member(ctx, projectID, userID)
	if err != nil {
		return err
	}
	if err := tx.SetMemberPaused(ctx, projectID, userID, paused); err != nil {
		return err
	}
	action := "member.unpause"
	if paused {
		action = "member.pause"
	}
	return tx.Audit(ctx, projectID, actorID, action, "user:"+userID, map[string]any{"paused": before.Paused}, map[string]any{"paused": paused})
}

// MemberChange is a lead's change to a member: new roles, a pause or its lift, the
// qualification for production labeling, the languages they read; nil leaves each as it is.
type MemberChange struct {
	Roles     *[]store.Role
	Paused    *bool
	Qualified *bool
	Languages *[]string
}

// MemberUpdated is the status of a MemberResult that changed a member's pause or qualification only.
const MemberUpdated = "updated"

// ChangeMember applies a MemberChange: the roles as SetMember sets them, then the pause and the
// qualification and the languages, which need a member (one who stays). A change that names
// nothing is refused.
func (s *Service) ChangeMember(ctx context.Context, actor *store.User, projectID, ref string, c MemberChange) (*MemberResult, error) {
	if c.Roles == nil && c.Paused == nil && c.Qualified == nil && c.Languages == nil {
		return nil, tasks.Field("roles", "required", "give roles, paused, qualified, languages or several of them")
	}
	var langs []string
	if c.Languages != nil {
		var err error
		if langs, err = tasks.CanonicalLanguages("languages", *c.Languages); err != nil {
			return nil, err
		}
	}
	if c.Paused == nil && c.Qualified == nil && c.Languages == nil {
		out, err := s.SetMember(ctx, actor, projectID, ref, *c.Roles)
		if err != nil || out.UserID == "" || out.Status == MemberRemoved {
			return out, err
		}
		if m, err := s.store.Member(ctx, projectID, out.UserID); err == nil {
			out.Paused, out.Qualified = &m.Paused, &m.Qualified
		}
		return out, nil
	}
	field, code := "paused", "not_a_member"
	switch {
	case c.Qualified != nil:
		field, code = "qualified", "not_member"
	case c.Paused == nil:
		field, code = "languages", "not_member"
	}
	target, err := s.memberByRef(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	if c.Roles != nil {
		if err := checkRoles(*c.Roles); err != nil {
			return nil, err
		}
		if target != nil && len(*c.Roles) == 0 {
			return nil, tasks.Field(field, code, "a person who leaves the project cannot be paused, qualified or given languages")
		}
	}
	if target == nil {
		return nil, tasks.Field(field, code, "only members of the project can be paused, qualified or given languages")
	}
	res := &MemberResult{Status: MemberUpdated, UserID: target.ID, Email: target.Email, Name: target.Name}
	if c.Roles != nil {
		if res, err = s.SetMember(ctx, actor, projectID, target.ID, *c.Roles); err != nil {
			return nil, err
		}
	}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if c.Paused != nil {
			if err := s.MemberPause(ctx, tx, actor.ID, projectID, target.ID, *c.Paused); err != nil {
				return err
			}
		}
		if c.Languages != nil {
			if err := setMemberLanguages(ctx, tx, actor.ID, projectID, target.ID, langs); err != nil {
				return err
			}
		}
		if c.Qualified != nil {
			return setQualified(ctx, tx, projectID, actor.ID, target.ID, *c.Qualified, map[string]any{"by": "lead"})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	m, err := s.store.Member(ctx, projectID, target.ID)
	if err != nil {
		return nil, err
	}
	res.Roles, res.Paused, res.Qualified = m.Roles, &m.Paused, &m.Qualified
	all, err := s.store.MemberLanguages(ctx, projectID)
	res.Languages = nonNil(all[target.ID])
	return res, err
}

// withGold adds the gold items a person could still be given to their available label work,
// so that the count goes down by one with every submit, gold or not. Gold is handed out only
// while production work is left, so with none left there is none.
func (s *Service) withGold(ctx context.Context, p *Project, userID string, n int64) (int64, error) {
	if n == 0 || p.Policy.GoldRate == 0 {
		return n, nil
	}
	g, err := s.store.AvailableGold(ctx, p.ID, userID, availableCap)
	return min(n+g, availableCap), err
}
