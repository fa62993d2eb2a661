package workflow

import (
	"context"
	"errors"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// ErrNotQualified refuses label work to an annotator who has not qualified in a project whose
// policy requires it.
var ErrNotQualified = errors.New("label work in this project needs a qualification: pass a calibration round, or ask a lead to qualify you")

// checkQualified refuses a person who is not a qualified member of the project.
func (s *Service) checkQualified(ctx context.Context, p *Project, userID string) error {
	m, err := s.store.Member(ctx, p.ID, userID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !m.Qualified) {
		return ErrNotQualified
	}
	return err
}

// SetQualified changes a member's qualification and audits the change (member.qualify or
// member.disqualify); an unchanged qualification writes nothing. why says what caused it.
func SetQualified(ctx context.Context, tx *store.Store, projectID, actorID, userID string, qualified bool, why map[string]any) error {
	m, err := tx.Member(ctx, projectID, userID)
	if err != nil {
		return err
	}
	if m.Qualified == qualified {
		return nil
	}
	if err := tx.SetQualified(ctx, projectID, userID, qualified); err != nil {
		return err
	}
	action := map[bool]string{true: "member.qualify", false: "member.disqualify"}[qualified]
	after := map[string]any{"qualified": qualified}
	for k, v := range why {
		after[k] = v
	}
	return tx.Audit(ctx, projectID, actorID, action, "user:"+userID, map[string]any{"qualified": m.Qualified}, after)
}
