package store

import (
	"context"
	"database/sql/driver"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Table maintenance. PostgreSQL's autovacuum daemon vacuums a table once a fifth of it is dead
// rows and analyses it once a tenth has changed. Where autovacuum is off, the tables the work
// fills are never analysed nor vacuumed: with no statistics the planner may walk (project,
// stage) for a person's open assignments instead of (project, user, stage, status), so each
// claim reads every label of the project, and the dead rows each submit leaves behind (an
// assignment changes status, an item its stage) stay in every index the queue walks, so a
// claim costs more with every item done. Maintain does the daemon's two steps in its absence.

// maintenanceDue lists this schema's tables past autovacuum's default thresholds: dead rows
// over 50 plus a fifth of the table (vacuum), changed rows over 50 plus a tenth (analyse).
const maintenanceDue = `SELECT s.relname,
  s.n_dead_tup > 50 + 0.2 * GREATEST(c.reltuples, 0) AS vacuum,
  s.n_mod_since_analyze > 50 + 0.1 * GREATEST(c.reltuples, 0) AS analyze
FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
WHERE s.schemaname = current_schema()
  AND (s.n_dead_tup > 50 + 0.2 * GREATEST(c.reltuples, 0) OR s.n_mod_since_analyze > 50 + 0.1 * GREATEST(c.reltuples, 0))
ORDER BY s.relname`

// Maintained names the tables a maintenance pass vacuumed and analysed.
type Maintained struct {
	Vacuumed, Analyzed []string
}

// Maintain vacuums and analyses the tables past autovacuum's thresholds when PostgreSQL's
// autovacuum is off. With autovacuum on, and on SQLite (whose planner ranks indexes by the
// equality columns they match, and which reuses freed pages itself), it does nothing.
func (s *Store) Maintain(ctx context.Context) (Maintained, error) {
	if s.dialect != Postgres {
		return Maintained{}, nil
	}
	var autovacuum string
	if err := s.sqlDB.QueryRowContext(ctx, "SELECT current_setting('autovacuum')").Scan(&autovacuum); err != nil {
		return Maintained{}, translate(err)
	}
	if autovacuum == "on" {
		return Maintained{}, nil
	}
	return s.maintainDue(ctx)
}

// maintainDue vacuums and analyses every table of the schema past the thresholds, unless
// another pass holds the schema's maintenance lock (a long vacuum outlasting the period).
func (s *Store) maintainDue(ctx context.Context) (done Maintained, err error) {
	conn, err := s.sqlDB.Conn(ctx)
	if err != nil {
		return done, translate(err)
	}
	defer conn.Close()
	var locked bool
	const key = "hashtext('arbiter maintenance ' || current_schema())"
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock("+key+")").Scan(&locked); err != nil || !locked {
		return done, translate(err)
	}
	defer func() {
		if _, uerr := conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock("+key+")"); uerr != nil {
			// note: a connection that may still hold the lock must not go back to the pool
			conn.Raw(func(any) error { return driver.ErrBadConn })
			if err == nil {
				err = translate(uerr)
			}
		}
	}()
	type due struct {
		table           string
		vacuum, analyze bool
	}
	rows, err := conn.QueryContext(ctx, maintenanceDue)
	if err != nil {
		return Maintained{}, translate(err)
	}
	var todo []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.table, &d.vacuum, &d.analyze); err != nil {
			rows.Close()
			return Maintained{}, err
		}
		todo = append(todo, d)
	}
	if err := rows.Close(); err != nil {
		return Maintained{}, err
	}
	if err := rows.Err(); err != nil {
		return Maintained{}, translate(err)
	}
	for _, d := range todo {
		// note: a table another session has locked is left for the next pass
		command := "ANALYZE (SKIP_LOCKED) "
		switch {
		case d.vacuum && d.analyze:
			command = "VACUUM (SKIP_LOCKED, ANALYZE) "
		case d.vacuum:
			command = "VACUUM (SKIP_LOCKED) "
		}
		// note: VACUUM cannot run in a transaction; outside one, each statement is its own
		if _, err := conn.ExecContext(ctx, command+pgx.Identifier{d.table}.Sanitize()); err != nil {
			return done, fmt.Errorf("%s%s: %w", command, d.table, translate(err))
		}
		if d.vacuum {
			done.Vacuumed = append(done.Vacuumed, d.table)
		}
		if d.analyze {
			done.Analyzed = append(done.Analyzed, d.table)
		}
	}
	return done, nil
}
