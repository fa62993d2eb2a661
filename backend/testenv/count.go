package testenv

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// Statements counts the round trips a store makes to its database: every query, exec, begin,
// commit and rollback through the driver it wraps.
type Statements struct {
	mu     sync.Mutex
	on     bool
	n      int
	sqlLog []string
}

// Start begins counting from zero.
func (s *Statements) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on, s.n, s.sqlLog = true, 0, nil
}

// Stop ends counting and returns the count and the statements, in order.
func (s *Statements) Stop() (int, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on = false
	return s.n, s.sqlLog
}

func (s *Statements) add(what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.on {
		s.n++
		s.sqlLog = append(s.sqlLog, strings.Join(strings.Fields(what), " "))
	}
}

var countingDrivers atomic.Int64

// CountingDriver registers a database/sql driver that wraps the driver registered as base
// ("pgx" or "sqlite") and counts what passes through it; it returns the new driver's name,
// for store.Pool.Driver.
func CountingDriver(base string) (string, *Statements) {
	db, err := sql.Open(base, "")
	if err != nil {
		panic(err)
	}
	inner := db.Driver()
	db.Close()
	name := fmt.Sprintf("%s-counted-%d", base, countingDrivers.Add(1))
	st := &Statements{}
	sql.Register(name, &countDriver{inner: inner, st: st})
	return name, st
}

type countDriver struct {
	inner driver.Driver
	st    *Statements
}

func (d *countDriver) Open(dsn string) (driver.Conn, error) {
	c, err := d.inner.Open(dsn)
	if err != nil {
		return nil, err
	}
	return &countConn{Conn: c, st: d.st}, nil
}

// countConn forwards every optional interface database/sql uses, counting round trips.
type countConn struct {
	driver.Conn
	st *Statements
}

func (c *countConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if p, ok := c.Conn.(driver.ConnPrepareContext); ok {
		return p.PrepareContext(ctx, query)
	}
	return c.Conn.Prepare(query)
}

func (c *countConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	c.st.add("BEGIN")
	var tx driver.Tx
	var err error
	if b, ok := c.Conn.(driver.ConnBeginTx); ok {
		tx, err = b.BeginTx(ctx, opts)
	} else {
		tx, err = c.Conn.Begin() //nolint:staticcheck // fallback of database/sql itself
	}
	if err != nil {
		return nil, err
	}
	return &countTx{Tx: tx, st: c.st}, nil
}

func (c *countConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.Conn.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	c.st.add(query)
	return e.ExecContext(ctx, query, args)
}

func (c *countConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.Conn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	c.st.add(query)
	return q.QueryContext(ctx, query, args)
}

func (c *countConn) CheckNamedValue(v *driver.NamedValue) error {
	if n, ok := c.Conn.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(v)
	}
	return driver.ErrSkip
}

func (c *countConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *countConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *countConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

type countTx struct {
	driver.Tx
	st *Statements
}

func (t *countTx) Commit() error   { t.st.add("COMMIT"); return t.Tx.Commit() }
func (t *countTx) Rollback() error { t.st.add("ROLLBACK"); return t.Tx.Rollback() }
