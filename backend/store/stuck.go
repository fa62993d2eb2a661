package store

import (
	"context"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// WorkedStage returns the stage in which the user first worked the item, "" when never.
func (s *Store) WorkedStage(ctx context.Context, itemID, userID string) (flow.Stage, error) {
	var stages []flow.Stage
	err := s.db.WithContext(ctx).Raw(`SELECT stage FROM item_people WHERE item_id = ? AND user_id = ?`, itemID, userID).Scan(&stages).Error
	if err != nil || len(stages) == 0 {
		return "", translate(err)
	}
	return stages[0], nil
}

// StuckTotals counts, per work stage, the waiting work no current member of the project can be
// given, over every project that is not archived (each count capped at limit per project);
// allowed reads what a project's policy (its workflow column) allows.
func (s *Store) StuckTotals(ctx context.Context, roles map[flow.Stage]string, limit int, allowed func(workflow JSON) Allowed) (map[flow.Stage]int64, error) {
	var projects []struct {
		ID       string
		Workflow JSON
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT id, workflow FROM projects WHERE archived_at IS NULL`).Scan(&projects).Error; err != nil {
		return nil, translate(err)
	}
	out := map[flow.Stage]int64{}
	for _, p := range projects {
		pid, lets := p.ID, allowed(p.Workflow)
		for stage, role := range roles {
			n, err := s.count(ctx, stuckWork(pid, stage, role, false, lets), limit)
			if err != nil {
				return nil, err
			}
			langs, err := s.StuckLanguages(ctx, pid, stage, role, limit)
			if err != nil {
				return nil, err
			}
			for _, l := range langs {
				n += l.Count
			}
			out[stage] += n
		}
	}
	return out, nil
}
