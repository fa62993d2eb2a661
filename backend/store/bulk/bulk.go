// Package bulk writes many rows of one table at once: with COPY on PostgreSQL (pgx's CopyFrom,
// on the connection under the caller's transaction), with multi-row INSERT statements
// otherwise. It knows nothing of the tables; the store says what to write.
package bulk

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Querier runs statements: a *sql.Tx, or a *sql.DB outside transactions.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Target is where the rows go: the transaction Tx, or the pool when Tx is nil, and on
// PostgreSQL the connection under Tx, Conn, which COPY runs on. Without Conn, or when its
// driver is not pgx's (a test's wrapping driver), the rows go in INSERT statements.
type Target struct {
	Tx       *sql.Tx
	Pool     *sql.DB
	Conn     *sql.Conn
	Postgres bool
}

// db is the transaction, or the pool outside one.
func (t Target) db() Querier {
	if t.Tx != nil {
		return t.Tx
	}
	return t.Pool
}

// Rows are rows of one table: the values of each row in the order of Columns. A value that is
// a driver.Valuer is written as its Value.
type Rows struct {
	Table   string
	Columns []string
	Values  [][]any
}

// chunk is how many rows share one INSERT statement: 64 rows of 14 columns are 896 parameters,
// under the limits of both databases.
const chunk = 64

// Insert writes the rows.
func Insert(ctx context.Context, t Target, r Rows) error {
	if len(r.Values) == 0 {
		return nil
	}
	if err := normalize(r.Values); err != nil {
		return err
	}
	done, err := t.withPgx(func(c *pgx.Conn) error { return copyRows(ctx, c, r.Table, r) })
	if done {
		return err
	}
	return t.statements(ctx, r, "", nil)
}

// InsertNew writes the rows whose key (the columns of a unique index, "project_id,
// external_id") the table does not hold yet, and returns the value of column returning (a text
// column) of each row it wrote. Rows that repeat a key of the table or of an earlier row are
// left out.
//
// note: on PostgreSQL the rows are copied into the table directly, inside a savepoint; a key
// the table already holds fails that COPY at its first such row, and the rows are then copied
// into a temporary table and inserted from it with ON CONFLICT DO NOTHING RETURNING. A first
// import copies once; a re-import pays for the rows before its first known key, twice.
func InsertNew(ctx context.Context, t Target, r Rows, key, returning string) (map[string]bool, error) {
	if len(r.Values) == 0 {
		return nil, nil
	}
	col := slices.Index(r.Columns, returning)
	if col < 0 {
		return nil, fmt.Errorf("bulk: %q is not a column of the rows", returning)
	}
	if err := normalize(r.Values); err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(r.Values))
	got := func(v string) { out[v] = true }
	done, err := t.withPgx(func(c *pgx.Conn) error { return copyNew(ctx, c, r, key, col, got) })
	if done {
		return out, err
	}
	return out, t.statements(ctx, r, " ON CONFLICT ("+key+") DO NOTHING RETURNING "+returning, got)
}

// withPgx runs f on the pgx connection of the target, and reports whether it did: false when
// the target has none.
func (t Target) withPgx(f func(*pgx.Conn) error) (bool, error) {
	if !t.Postgres || t.Conn == nil {
		return false, nil
	}
	ran := false
	err := t.Conn.Raw(func(dc any) error {
		c, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return nil
		}
		ran = true
		return f(c.Conn())
	})
	return ran, err
}

func copyRows(ctx context.Context, c *pgx.Conn, table string, r Rows) error {
	_, err := c.CopyFrom(ctx, pgx.Identifier{table}, r.Columns, pgx.CopyFromRows(r.Values))
	return err
}

// copyNew is InsertNew on PostgreSQL.
func copyNew(ctx context.Context, c *pgx.Conn, r Rows, key string, col int, got func(string)) error {
	if _, err := c.Exec(ctx, "SAVEPOINT bulk_copy"); err != nil {
		return err
	}
	err := copyRows(ctx, c, r.Table, r)
	if err == nil {
		for _, row := range r.Values {
			v, _ := row[col].(string)
			got(v)
		}
		_, err = c.Exec(ctx, "RELEASE SAVEPOINT bulk_copy")
		return err
	}
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || pg.Code != "23505" {
		return err
	}
	cols := strings.Join(r.Columns, ", ")
	if _, err := c.Exec(ctx, "ROLLBACK TO SAVEPOINT bulk_copy; RELEASE SAVEPOINT bulk_copy;\n"+
		"CREATE TEMPORARY TABLE bulk_rows ON COMMIT DROP AS SELECT "+cols+" FROM "+pgx.Identifier{r.Table}.Sanitize()+" WITH NO DATA"); err != nil {
		return err
	}
	if err := copyRows(ctx, c, "bulk_rows", r); err != nil {
		return err
	}
	rows, err := c.Query(ctx, "INSERT INTO "+pgx.Identifier{r.Table}.Sanitize()+" ("+cols+") SELECT "+cols+
		" FROM bulk_rows ON CONFLICT ("+key+") DO NOTHING RETURNING "+r.Columns[col])
	if err != nil {
		return err
	}
	var v string
	if _, err := pgx.ForEachRow(rows, []any{&v}, func() error { got(v); return nil }); err != nil {
		return err
	}
	_, err = c.Exec(ctx, "DROP TABLE bulk_rows")
	return err
}

// statements writes the rows in multi-row INSERT statements ending in suffix; each value the
// statements return goes to got.
func (t Target) statements(ctx context.Context, r Rows, suffix string, got func(string)) error {
	head := "INSERT INTO " + r.Table + " (" + strings.Join(r.Columns, ", ") + ") VALUES "
	for start := 0; start < len(r.Values); start += chunk {
		rows := r.Values[start:min(start+chunk, len(r.Values))]
		var sb strings.Builder
		args := make([]any, 0, len(rows)*len(r.Columns))
		sb.WriteString(head)
		for i, row := range rows {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteByte('(')
			for j := range row {
				if j > 0 {
					sb.WriteByte(',')
				}
				if t.Postgres {
					fmt.Fprintf(&sb, "$%d", len(args)+j+1)
				} else {
					sb.WriteByte('?')
				}
			}
			sb.WriteByte(')')
			args = append(args, row...)
		}
		sb.WriteString(suffix)
		if err := query(ctx, t.db(), sb.String(), args, got); err != nil {
			return err
		}
	}
	return nil
}

// query runs one statement and hands each value of its one returned column to got (nil: the
// statement returns nothing).
//
// note: rows are read here rather than with gorm's Scan, which writes the statement out with
// every value inlined (for its logger) whether or not anything logs: several copies of each row.
func query(ctx context.Context, db Querier, stmt string, args []any, got func(string)) error {
	if got == nil {
		_, err := db.ExecContext(ctx, stmt, args...)
		return err
	}
	rows, err := db.QueryContext(ctx, stmt, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return err
		}
		got(v)
	}
	return rows.Err()
}

// normalize replaces each driver.Valuer by its value, so that both drivers and COPY write what
// database/sql would.
func normalize(values [][]any) error {
	for _, row := range values {
		for j, v := range row {
			if vr, ok := v.(driver.Valuer); ok {
				var err error
				if row[j], err = vr.Value(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
