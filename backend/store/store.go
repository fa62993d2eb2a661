// Package store is Arbiter's persistence layer over gorm: one Store whose methods are named by
// nouns, take a context first, and return ErrNotFound for missing rows.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/arbiter-annotation/arbiter/backend/store/migrations"
	"github.com/arbiter-annotation/arbiter/backend/store/rowcache"
)

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("not found")

// NotFoundError is ErrNotFound naming what was missing ("item", "project"), so that a
// response can say what it could not find.
type NotFoundError struct{ What string }

func (e *NotFoundError) Error() string { return e.What + " not found" }

// Is makes a NotFoundError match ErrNotFound.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// Missing names what was not found when err is ErrNotFound; other errors pass unchanged.
func Missing(err error, what string) error {
	if errors.Is(err, ErrNotFound) {
		return &NotFoundError{What: what}
	}
	return err
}

// ErrConflict is returned when a write would violate a uniqueness rule or a version check.
var ErrConflict = errors.New("conflict")

// Dialect names the database engine behind a Store.
type Dialect string

// The supported database engines.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Store is the database of one server process. Replicas share it; nothing else is shared.
type Store struct {
	db      *gorm.DB
	sqlDB   *sql.DB
	conn    *sql.Conn // the connection of a WithConnTx transaction, for bulk writes
	dialect Dialect
	url     string
	schema  string // PostgreSQL: the schema of the tables
	cache   *rowcache.Cache
	stop    func() // ends the listener; nil on SQLite and in transactions
	// labelPage, when set (by a test), is the page size of EachProductionLabel on this store.
	labelPage int
}

// Pool sizes the connection pool of a PostgreSQL store. SQLite always uses one connection.
type Pool struct {
	// MaxOpen bounds the connections to the database.
	MaxOpen int
	// MaxIdle is how many stay open while unused; below MaxOpen, a busy server closes and
	// reopens connections many times a second, so it defaults to MaxOpen.
	MaxIdle int
	// MaxLifetime closes a connection after this long (0: never); MaxIdleTime closes one
	// that has not been used for this long.
	MaxLifetime time.Duration
	MaxIdleTime time.Duration
	// Driver names a database/sql driver to open connections with instead of the usual one
	// ("pgx" or "sqlite"); tests register one that wraps the usual driver to count statements.
	Driver string
}

// DefaultPool is the pool of a PostgreSQL store unless configured: 20 connections, all kept.
var DefaultPool = Pool{MaxOpen: 20, MaxIdle: 20, MaxLifetime: 30 * time.Minute, MaxIdleTime: 5 * time.Minute}

// Open connects to the database named by url with the default pool: postgres://... or
// postgresql://... for PostgreSQL, sqlite:PATH (or a bare path) for the embedded SQLite file.
func Open(ctx context.Context, url string) (*Store, error) { return OpenPool(ctx, url, DefaultPool) }

// OpenPool is Open with a pool of the given size.
func OpenPool(ctx context.Context, url string, pool Pool) (*Store, error) {
	dialect, dial, err := dialector(url, pool.Driver)
	if err != nil {
		return nil, err
	}
	db, err := gorm.Open(dial, &gorm.Config{
		Logger:                 logger.Discard,
		NowFunc:                func() time.Time { return time.Now().UTC() },
		SkipDefaultTransaction: true,
		TranslateError:         true,
	})
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	if dialect == SQLite {
		// note: SQLite allows one writer; a single connection serialises writers inside the
		// process instead of failing with SQLITE_BUSY under load.
		sqlDB.SetMaxOpenConns(1)
	} else {
		pool = pool.withDefaults()
		sqlDB.SetMaxOpenConns(pool.MaxOpen)
		sqlDB.SetMaxIdleConns(pool.MaxIdle)
		sqlDB.SetConnMaxLifetime(pool.MaxLifetime)
		sqlDB.SetConnMaxIdleTime(pool.MaxIdleTime)
	}
	if err := sqlDB.PingContext(ctx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	s := &Store{db: db, sqlDB: sqlDB, dialect: dialect, url: url, cache: rowcache.New(DefaultCacheTTL, dialect == SQLite)}
	var notify *rowcache.Notifier
	if dialect == Postgres {
		if s.schema, err = s.currentSchema(ctx); err != nil {
			sqlDB.Close()
			return nil, fmt.Errorf("connect to database: %w", err)
		}
		notify = &rowcache.Notifier{Pool: sqlDB, Schema: s.schema}
	}
	if err := s.cache.Watch(db, notify); err != nil {
		sqlDB.Close()
		return nil, err
	}
	if dialect == Postgres {
		lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		done := make(chan struct{})
		go s.cache.Listen(lctx, url, s.schema, done)
		s.stop = func() { cancel(); <-done }
	}
	return s, nil
}

// withDefaults fills unset sizes: MaxOpen from DefaultPool, MaxIdle equal to MaxOpen.
func (p Pool) withDefaults() Pool {
	if p.MaxOpen <= 0 {
		p.MaxOpen = DefaultPool.MaxOpen
	}
	if p.MaxIdle <= 0 || p.MaxIdle > p.MaxOpen {
		p.MaxIdle = p.MaxOpen
	}
	return p
}

// URL is the database URL the store was opened with (it may hold a password).
func (s *Store) URL() string { return s.url }

func dialector(url, driver string) (Dialect, gorm.Dialector, error) {
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return Postgres, postgres.New(postgres.Config{DSN: url, DriverName: driver}), nil
	case url == "":
		return "", nil, errors.New("database url is empty")
	}
	path, query, _ := strings.Cut(strings.TrimPrefix(url, "sqlite:"), "?")
	sync, err := sqliteSynchronous(query)
	if err != nil {
		return "", nil, err
	}
	if path != ":memory:" {
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			return "", nil, fmt.Errorf("create database directory: %w", err)
		}
	}
	dsn := path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(" + sync + ")"
	return SQLite, &sqlite.Dialector{DSN: dsn, DriverName: driver}, nil
}

// sqliteSynchronous reads the one option of a sqlite: URL, synchronous=normal|full. NORMAL
// (the default) keeps every commit across a crash of the process; a power loss or a crash of
// the machine may undo the last commits. FULL also syncs the log at each commit, as
// PostgreSQL does by default, at the cost of a disk flush per commit.
func sqliteSynchronous(query string) (string, error) {
	q, err := neturl.ParseQuery(query)
	if err != nil {
		return "", fmt.Errorf("database url: %w", err)
	}
	sync := "NORMAL"
	for k, v := range q {
		switch {
		case k != "synchronous":
			return "", fmt.Errorf("database url: unknown sqlite option %q (the one option is synchronous=normal|full)", k)
		case len(v) != 1 || (!strings.EqualFold(v[0], "normal") && !strings.EqualFold(v[0], "full")):
			return "", fmt.Errorf("database url: synchronous=%s: want normal or full", strings.Join(v, ","))
		}
		sync = strings.ToUpper(v[0])
	}
	return sync, nil
}

// Dialect reports the database engine.
func (s *Store) Dialect() Dialect { return s.dialect }

// SQL returns the underlying connection pool (for the job queue and health checks).
func (s *Store) SQL() *sql.DB { return s.sqlDB }

// Close stops listening for changes and releases the connection pool.
func (s *Store) Close() error {
	if s.stop != nil {
		s.stop()
	}
	return s.sqlDB.Close()
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.sqlDB.PingContext(ctx) }

// Migrate applies every pending migration, each in its own transaction. On PostgreSQL an
// advisory lock keeps replicas that start together from migrating twice.
func (s *Store) Migrate(ctx context.Context, log *slog.Logger) error {
	opts := []goose.ProviderOption{goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(migrations.Go(s.dialect == Postgres)...)}
	dialect := goose.DialectSQLite3
	if s.dialect == Postgres {
		dialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, s.sqlDB, migrations.FS, opts...)
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	results, err := p.Up(ctx)
	for _, r := range results {
		log.Info("migration applied", "version", r.Source.Version, "file", filepath.Base(r.Source.Path), "duration", r.Duration)
	}
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// SchemaVersion reports the newest applied migration and the newest one this binary knows.
func (s *Store) SchemaVersion(ctx context.Context) (current, latest int64, err error) {
	dialect := goose.DialectSQLite3
	if s.dialect == Postgres {
		dialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(dialect, s.sqlDB, migrations.FS, goose.WithDisableGlobalRegistry(true),
		goose.WithGoMigrations(migrations.Go(s.dialect == Postgres)...))
	if err != nil {
		return 0, 0, err
	}
	current, err = p.GetDBVersion(ctx)
	if err != nil {
		return 0, 0, err
	}
	sources := p.ListSources()
	if len(sources) > 0 {
		latest = sources[len(sources)-1].Version
	}
	return current, latest, nil
}

// newID returns a time-ordered unique id.
func newID() string { return uuid.Must(uuid.NewV7()).String() }

// NewID returns a new row id (time-ordered), for a row whose id is needed before it is written.
func NewID() string { return newID() }

// now is the store's clock, always UTC.
func now() time.Time { return time.Now().UTC() }

// translate maps driver errors to the store's sentinel errors.
func translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		return ErrNotFound
	case errors.Is(err, gorm.ErrDuplicatedKey), uniqueViolation(err):
		return fmt.Errorf("%w: %v", ErrConflict, err)
	}
	return err
}

// uniqueViolation reports a PostgreSQL unique violation that gorm did not translate: raw
// statements whose error arrives with their rows (a write inside a WITH query) keep the driver's.
func uniqueViolation(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "23505"
}

// SQLTx is the database/sql transaction of a store returned by WithTx, for libraries (the job
// queue) that must write in the same transaction; ok is false outside a transaction.
func (s *Store) SQLTx() (tx *sql.Tx, ok bool) {
	tx, ok = s.db.Statement.ConnPool.(*sql.Tx)
	return tx, ok
}

// WithTx runs fn in one transaction; any error rolls everything back.
func (s *Store) WithTx(ctx context.Context, fn func(tx *Store) error) error {
	return s.withTx(ctx, false, fn)
}

// WithConnTx is WithTx holding its connection, on which bulk writes load with COPY (PostgreSQL).
func (s *Store) WithConnTx(ctx context.Context, fn func(tx *Store) error) error {
	return s.withTx(ctx, true, fn)
}

func (s *Store) withTx(ctx context.Context, hold bool, fn func(tx *Store) error) error {
	_, nested := s.SQLTx()
	db, conn := s.db.WithContext(ctx), s.conn
	if hold && !nested && s.dialect == Postgres {
		c, err := s.sqlDB.Conn(ctx)
		if err != nil {
			return translate(err)
		}
		defer c.Close()
		db.Statement.ConnPool, conn = c, c // note: gorm begins the transaction on it
	}
	var tx *sql.Tx
	err := db.Transaction(func(db *gorm.DB) error {
		tx, _ = db.Statement.ConnPool.(*sql.Tx)
		return fn(&Store{db: db, sqlDB: s.sqlDB, conn: conn, dialect: s.dialect, url: s.url, schema: s.schema, cache: s.cache})
	})
	if !nested && tx != nil {
		s.cache.Committed(ctx, tx, err)
	}
	return err
}

// Unavailable reports whether err means the database could not be reached or dropped the
// connection (as opposed to refusing the statement): a request that meets it may succeed when
// tried again shortly.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		// note: class 08 is connection exceptions; 57P01–57P03 an administrator's or a
		// shutdown's termination; 53300 too many connections
		return strings.HasPrefix(pg.Code, "08") || pg.Code == "57P01" || pg.Code == "57P02" || pg.Code == "57P03" || pg.Code == "53300"
	}
	var connect *pgconn.ConnectError
	var netErr net.Error
	switch {
	case errors.As(err, &connect), errors.As(err, &netErr),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "conn closed") || strings.Contains(msg, "connection reset") ||
		strings.Contains(msg, "broken pipe") || strings.Contains(msg, "database is locked")
}
