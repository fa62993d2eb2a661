package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// ExplainNextItem returns PostgreSQL's plan of the claim's query, one line per row.
func ExplainNextItem(ctx context.Context, s *Store, projectID, userID string, stage flow.Stage, slots int, at time.Time) ([]string, error) {
	q := itemWork(projectID, userID, stage, slots, at, Allowed{})
	var plan []string
	err := s.db.WithContext(ctx).Raw("EXPLAIN "+s.nextItemSQL(q), q.args...).Scan(&plan).Error
	return plan, err
}

// SeedFamilyQuery returns SeedFamily's query and its arguments.
func SeedFamilyQuery(s *Store, projectID, seed string, limit int) (string, []any) {
	return s.seedFamilyQuery(projectID, seed, limit)
}
