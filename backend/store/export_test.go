package store

import (
	"context"
	"slices"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// ExplainNextItem returns PostgreSQL's plans of the claim's two queries (the unheld items, then
// all), one line per row.
func ExplainNextItem(ctx context.Context, s *Store, projectID, userID string, stage flow.Stage, slots int, at time.Time) ([]string, error) {
	var plan []string
	for _, q := range []workQuery{unheld(itemWork(projectID, userID, stage, slots, at, Allowed{}), stage, at), itemWork(projectID, userID, stage, slots, at, Allowed{})} {
		var p []string
		if err := s.db.WithContext(ctx).Raw("EXPLAIN "+s.nextItemSQL(q), q.args...).Scan(&p).Error; err != nil {
			return nil, err
		}
		plan = append(plan, p...)
	}
	return plan, nil
}

// SeedFamilyQuery returns SeedFamily's query and its arguments.
func SeedFamilyQuery(s *Store, projectID, seed string, limit int) (string, []any) {
	return s.seedFamilyQuery(projectID, seed, limit)
}

// SetLabelPage sets how many labels a page of EachProductionLabel reads on s.
func SetLabelPage(s *Store, n int) { s.labelPage = n }

// PreparedPlans sums, over the statements prepared on the store's connection whose text
// contains like, how many times PostgreSQL planned them generically and for their values.
func PreparedPlans(ctx context.Context, s *Store, like string) (generic, custom int64, err error) {
	err = s.sqlDB.QueryRowContext(ctx, `SELECT COALESCE(sum(generic_plans), 0), COALESCE(sum(custom_plans), 0)
FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%' AND statement NOT LIKE '%pg_prepared_statements%'`, like).Scan(&generic, &custom)
	return generic, custom, err
}

// NextItemCandidates returns up to limit items of a stage the user may claim (see itemWork).
func (s *Store) NextItemCandidates(ctx context.Context, projectID, userID string, stage flow.Stage, slots, limit int, at time.Time, allowed Allowed) ([]string, error) {
	return s.candidates(ctx, itemWork(projectID, userID, stage, slots, at, allowed), limit)
}

// AddPassRevision keeps one save made in a pass of a form with passes (see RevisionWrite).
func (s *Store) AddPassRevision(ctx context.Context, assignmentID string, version int, kind flow.RevisionKind, answers JSON, pass string, inputs JSON) error {
	w := RevisionWrite(assignmentID, version, kind, answers, pass, inputs)
	return translate(s.db.WithContext(ctx).Exec(w.SQL, w.Args...).Error)
}

// CacheLive reports whether the cache serves rows (on PostgreSQL: whether the listener is
// connected), for health checks and tests.
func (s *Store) CacheLive() bool { return s.cache.Live() }

// EachPrediction calls fn for every prediction of a project in (item, model) order: the
// rows of EachPredictionAnswers, each copied.
func (s *Store) EachPrediction(ctx context.Context, projectID string, fn func(*Prediction) error) error {
	return s.EachPredictionAnswers(ctx, projectID, func(p *PredictionAnswers) error {
		return fn(&Prediction{ItemID: string(p.ItemID), Model: string(p.Model), Answers: JSON(slices.Clone(p.Answers))})
	})
}
