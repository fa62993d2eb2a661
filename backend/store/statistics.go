package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Planner statistics. PostgreSQL's planner picks indexes from each table's statistics, which
// its autovacuum daemon refreshes once a table has changed by a tenth. Where autovacuum is
// off, the tables the work fills (assignments, item_people, revisions, audit events) are never
// analysed: with no statistics the planner may walk (project, stage) for a person's open
// assignments instead of (project, user, stage, status), so each claim reads every label of
// the project. RefreshStatistics does the daemon's analyse step in its absence.

// staleTables lists this schema's tables changed since their last analysis by more than
// autovacuum's default analyse threshold: 50 rows plus a tenth of the table.
const staleTables = `SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
WHERE s.schemaname = current_schema() AND s.n_mod_since_analyze > 50 + 0.1 * GREATEST(c.reltuples, 0)
ORDER BY s.relname`

// RefreshStatistics analyses the tables whose statistics are stale when PostgreSQL's
// autovacuum is off, and returns their names. With autovacuum on, and on SQLite (whose
// planner ranks indexes by the equality columns they match), it does nothing.
func (s *Store) RefreshStatistics(ctx context.Context) ([]string, error) {
	if s.dialect != Postgres {
		return nil, nil
	}
	var autovacuum string
	if err := s.sqlDB.QueryRowContext(ctx, "SELECT current_setting('autovacuum')").Scan(&autovacuum); err != nil {
		return nil, translate(err)
	}
	if autovacuum == "on" {
		return nil, nil
	}
	return s.analyzeStale(ctx)
}

// analyzeStale analyses every stale table of the schema and returns their names.
func (s *Store) analyzeStale(ctx context.Context) ([]string, error) {
	rows, err := s.sqlDB.QueryContext(ctx, staleTables)
	if err != nil {
		return nil, translate(err)
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return nil, err
		}
		tables = append(tables, t)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err)
	}
	for _, t := range tables {
		if _, err := s.sqlDB.ExecContext(ctx, "ANALYZE "+pgx.Identifier{t}.Sanitize()); err != nil {
			return nil, fmt.Errorf("analyze %s: %w", t, translate(err))
		}
	}
	return tables, nil
}
