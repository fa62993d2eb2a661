package bulk_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store/bulk"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// doc is a driver.Valuer whose empty value is NULL, as store.JSON is.
type doc string

func (d doc) Value() (driver.Value, error) {
	if d == "" {
		return nil, nil
	}
	return string(d), nil
}

const table = `CREATE TABLE things (
	id TEXT PRIMARY KEY, owner TEXT NOT NULL, name TEXT NOT NULL, body TEXT, note TEXT,
	flag BOOLEAN NOT NULL, n INTEGER NOT NULL, at TIMESTAMP NOT NULL)`

var columns = []string{"id", "owner", "name", "body", "note", "flag", "n", "at"}

// target is a database with the table things, and how rows reach it in a transaction.
type target struct {
	db *sql.DB
	// begin starts a transaction and returns the target of bulk writes in it.
	begin func(t *testing.T) (*sql.Tx, bulk.Target)
}

// targets are the ways rows are written: SQLite, and PostgreSQL with COPY (on the connection
// of the transaction) and with statements (without it). Each opens a new database.
var targets = []struct {
	name string
	open func(t *testing.T) target
}{
	{"sqlite", func(t *testing.T) target {
		db := open(t, "sqlite", filepath.Join(t.TempDir(), "bulk.db"))
		return target{db, func(t *testing.T) (*sql.Tx, bulk.Target) {
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			return tx, bulk.Target{Tx: tx, Pool: db}
		}}
	}},
	{"postgres/copy", func(t *testing.T) target { return postgres(t, true) }},
	{"postgres/statements", func(t *testing.T) target { return postgres(t, false) }},
}

func open(t *testing.T, driverName, dsn string) *sql.DB {
	db, err := sql.Open(driverName, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(table); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE UNIQUE INDEX things_key ON things (owner, name)"); err != nil {
		t.Fatal(err)
	}
	return db
}

// postgres is a new PostgreSQL schema; its transactions run on a connection of their own,
// which the target names when copy is set.
func postgres(t *testing.T, copy bool) target {
	db := open(t, "pgx", testenv.PostgresURL(t))
	return target{db, func(t *testing.T) (*sql.Tx, bulk.Target) {
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		tx, err := conn.BeginTx(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		tg := bulk.Target{Tx: tx, Pool: db, Postgres: true}
		if copy {
			tg.Conn = conn
		}
		return tx, tg
	}}
}

// rows are things of one owner, named name-1 on; every third has no body and no note.
func rows(owner string, from, to int, at time.Time) bulk.Rows {
	r := bulk.Rows{Table: "things", Columns: columns}
	for i := from; i <= to; i++ {
		var body doc
		var note *string
		if i%3 != 0 {
			body, note = doc(fmt.Sprintf(`{"i":%d}`, i)), new(string)
			*note = fmt.Sprintf("note %d", i)
		}
		r.Values = append(r.Values, []any{fmt.Sprintf("%s-%d", owner, i), owner, fmt.Sprintf("name-%d", i), body, note, i%2 == 0, i, at})
	}
	return r
}

// TestInsertNew: rows whose key is new are written, with every value as given (NULL for an
// empty driver.Valuer and a nil pointer); a key already in the table, or repeated within the
// rows, is left out, and the keys written are returned, on both databases and both ways
// PostgreSQL takes rows (COPY, statements), over more rows than one statement holds, twice in
// one transaction.
func TestInsertNew(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 30, 15, 123456000, time.UTC)
	for _, tt := range targets {
		t.Run(tt.name, func(t *testing.T) {
			tg, owner := tt.open(t), "o"
			tx, target := tg.begin(t)
			first, err := bulk.InsertNew(ctx, target, rows(owner, 1, 150, at), "owner, name", "name")
			if err != nil || len(first) != 150 || !first["name-1"] || !first["name-150"] {
				t.Fatalf("a first insert wrote %d: %v", len(first), err)
			}
			again := rows(owner, 140, 300, at)
			again.Values = append(again.Values, rows(owner, 200, 200, at).Values...)
			again.Values[len(again.Values)-1][0] = owner + "-repeat"
			second, err := bulk.InsertNew(ctx, target, again, "owner, name", "name")
			if err != nil || len(second) != 150 || second["name-140"] || second["name-150"] || !second["name-151"] || !second["name-300"] {
				t.Fatalf("a second insert wrote %d: %v", len(second), err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			var n int
			if err := tg.db.QueryRow("SELECT COUNT(*) FROM things").Scan(&n); err != nil || n != 300 {
				t.Fatalf("%d rows stored: %v", n, err)
			}
			for _, i := range []int{2, 3, 299} {
				checkRow(t, tg.db, owner, i, at)
			}
		})
	}
}

// checkRow reads back thing i of the owner and compares it with what rows wrote.
func checkRow(t *testing.T, db *sql.DB, owner string, i int, at time.Time) {
	t.Helper()
	var body, note sql.NullString
	var flag bool
	var n int
	var got time.Time
	err := db.QueryRow(fmt.Sprintf("SELECT body, note, flag, n, at FROM things WHERE id = '%s-%d'", owner, i)).Scan(&body, &note, &flag, &n, &got)
	if err != nil {
		t.Fatal(err)
	}
	want := rows(owner, i, i, at).Values[0]
	wantBody, _ := want[3].(doc).Value()
	if body.Valid != (wantBody != nil) || (body.Valid && body.String != wantBody) || note.Valid != (want[4].(*string) != nil) ||
		flag != want[5] || n != i || !got.Equal(at) {
		t.Errorf("row %d: body %v, note %v, flag %v, n %d, at %v; wrote %v", i, body, note, flag, n, got, want)
	}
}

// TestInsert: every row is written, on both databases and both ways PostgreSQL takes rows; a
// row that breaks a constraint (an id the table holds) fails the write.
func TestInsert(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range targets {
		t.Run(tt.name, func(t *testing.T) {
			tg, owner := tt.open(t), "o"
			tx, target := tg.begin(t)
			if err := bulk.Insert(ctx, target, rows(owner, 1, 130, at)); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			var names []string
			got, err := tg.db.Query("SELECT name FROM things ORDER BY n")
			if err != nil {
				t.Fatal(err)
			}
			for got.Next() {
				var s string
				got.Scan(&s)
				names = append(names, s)
			}
			if got.Close(); len(names) != 130 || names[0] != "name-1" || names[129] != "name-130" {
				t.Fatalf("%d rows: %v", len(names), names)
			}
			checkRow(t, tg.db, owner, 3, at)
			tx, target = tg.begin(t)
			defer tx.Rollback()
			if err := bulk.Insert(ctx, target, rows(owner, 130, 131, at)); err == nil {
				t.Fatal("a row with an id the table holds was written")
			}
		})
	}
}
