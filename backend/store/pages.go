package store

import (
	"context"

	"gorm.io/gorm"
)

// customPlan makes PostgreSQL plan each execution for its own values.
const customPlan = "SET LOCAL plan_cache_mode = force_custom_plan"

// readPage runs one page of a long read (a release's items, a project's labels or ground
// truth) with the given session settings, and returns what page returns.
//
// note: on PostgreSQL the page runs in a transaction of its own that plans it for its own
// values. pgx keeps each statement prepared on its connection, and after five executions
// PostgreSQL may switch it to a generic plan; for a keyset page ("id > the last one read") that
// plan cannot use the value, and scans and sorts the whole project on every page (380 ms
// instead of 13 ms a page, quadratic over a release). SQLite plans every statement afresh.
func (s *Store) readPage(ctx context.Context, page func(db *gorm.DB) (int, error), settings ...string) (int, error) {
	if s.dialect != Postgres {
		return page(s.db.WithContext(ctx))
	}
	var n int
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, set := range append([]string{customPlan}, settings...) {
			if err := tx.Exec(set).Error; err != nil {
				return translate(err)
			}
		}
		var err error
		n, err = page(tx)
		return err
	})
	return n, err
}
