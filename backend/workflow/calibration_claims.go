package workflow

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// roundOpen refuses work on a round that was closed (calibration work only).
func roundOpen(ctx context.Context, tx *store.Store, a *store.Assignment) error {
	if a.Stage != flow.StageCalibration || a.RoundID == nil {
		return nil
	}
	r, err := tx.Round(ctx, a.ProjectID, *a.RoundID)
	if err != nil {
		return err
	}
	if r.Status == flow.RoundClosed {
		return ErrRoundClosed
	}
	return nil
}

// claimCalibration claims the next item of the user's open rounds. Each participant has a slot
// of their own on every item, so nothing is counted; the unique (round, item, user) index
// backs the once-per-round rule.
func (s *Service) claimCalibration(ctx context.Context, tx *store.Store, p *Project, userID string, t time.Time) (*store.Assignment, error) {
	cs, err := tx.CalibrationCandidates(ctx, p.ID, userID, 1)
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	c := cs[0]
	a := &store.Assignment{ProjectID: p.ID, UserID: userID, Stage: flow.StageCalibration, Status: flow.AssignActive, ItemID: c.ItemID,
		RoundID: &c.RoundID, SchemaVersion: p.SchemaVersion, Seed: rand.Int64(), LeaseExpiresAt: t.Add(p.Lease())}
	if _, err := tx.FirstStage(ctx, a.ItemID, userID, flow.StageCalibration); err != nil {
		return nil, err
	}
	if err := s.prefill(ctx, tx, p, a, nil); err != nil { // note: the shown order only; no draft outside label
		return nil, err
	}
	if err := tx.CreateAssignment(ctx, a); err != nil {
		return nil, err
	}
	return a, tx.Audit(ctx, p.ID, userID, "assignment.claim", "item:"+a.ItemID, nil,
		map[string]any{"assignment": a.ID, "stage": a.Stage, "round": c.RoundID})
}

// ErrRoundClosed refuses work in a closed calibration round.
var ErrRoundClosed = errors.New("this calibration round is closed; its answers are frozen")
