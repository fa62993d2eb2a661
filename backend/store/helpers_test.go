package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	neturl "net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// fixture is one migrated store of one engine, with helpers that build the rows a test needs.
// The store is shared: every test builds its own people and projects, and asserts nothing of
// rows it did not make, so that the package costs one migration per engine.
type fixture struct {
	t   *testing.T
	ctx context.Context
	s   *store.Store
}

// eachBackend runs fn on the package's store of each engine: SQLite, and PostgreSQL when
// ARBITER_TEST_POSTGRES_URL is set (required where services are, as testenv.Backends).
func eachBackend(t *testing.T, fn func(t *testing.T, f *fixture)) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			fn(t, &fixture{t: t, ctx: context.Background(), s: sharedStore(t, engine)})
		})
	}
}

// eachFreshBackend is eachBackend on a fresh store of each engine, for what reads the whole
// database.
func eachFreshBackend(t *testing.T, fn func(t *testing.T, f *fixture)) {
	for _, b := range testenv.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fn(t, &fixture{t: t, ctx: context.Background(), s: b.Open(t)})
		})
	}
}

// shared holds the package's store of each engine, opened on first use and closed (its
// PostgreSQL schema dropped) by TestMain once every test has run.
var shared struct {
	mu     sync.Mutex
	stores map[string]*store.Store
	close  []func()
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, c := range shared.close {
		c()
	}
	os.Exit(code)
}

// sharedStore returns the package's store of an engine; PostgreSQL is skipped or failed as
// testenv.Service says when it is not configured.
func sharedStore(t *testing.T, engine string) *store.Store {
	t.Helper()
	base := ""
	if engine == "postgres" {
		base = testenv.Service(t, testenv.EnvPostgres, "PostgreSQL")
	}
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if s := shared.stores[engine]; s != nil {
		return s
	}
	s, closeFn, err := openShared(engine, base)
	if err != nil {
		t.Fatalf("open the shared %s store: %v", engine, err)
	}
	if shared.stores == nil {
		shared.stores = map[string]*store.Store{}
	}
	shared.stores[engine], shared.close = s, append(shared.close, closeFn)
	return s
}

// openShared opens and migrates a store in a temporary directory (SQLite) or in a fresh
// schema of the database at base (PostgreSQL); closeFn closes it and removes what it made.
func openShared(engine, base string) (s *store.Store, closeFn func(), err error) {
	ctx := context.Background()
	var url string
	var remove func()
	if engine == "postgres" {
		schema := testenv.RandomName("t_shared_")
		admin, err := sql.Open("pgx", base)
		if err != nil {
			return nil, nil, err
		}
		defer admin.Close()
		if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			return nil, nil, err
		}
		remove = func() {
			if db, err := sql.Open("pgx", base); err == nil {
				db.Exec("DROP SCHEMA " + schema + " CASCADE")
				db.Close()
			}
		}
		u, err := neturl.Parse(base)
		if err != nil {
			return nil, nil, err
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		url = u.String()
	} else {
		dir, err := os.MkdirTemp("", "arbiter-store-")
		if err != nil {
			return nil, nil, err
		}
		remove = func() { os.RemoveAll(dir) }
		url = "sqlite:" + filepath.Join(dir, "arbiter.db")
	}
	if s, err = store.Open(ctx, url); err == nil {
		if err = s.Migrate(ctx, slog.New(slog.DiscardHandler)); err != nil {
			s.Close()
		}
	}
	if err != nil {
		remove()
		return nil, nil, err
	}
	return s, func() { s.Close(); remove() }, nil
}

// run runs fn as a subtest on the same store.
func (f *fixture) run(name string, fn func(t *testing.T, f *fixture)) {
	f.t.Run(name, func(t *testing.T) { fn(t, &fixture{t: t, ctx: f.ctx, s: f.s}) })
}

// pg reports whether the store is PostgreSQL.
func (f *fixture) pg() bool { return f.s.Dialect() == store.Postgres }

// ph is the engine's placeholder for the n-th argument of raw SQL.
func (f *fixture) ph(n int) string {
	if f.pg() {
		return fmt.Sprintf("$%d", n)
	}
	return "?"
}

// exec runs raw SQL (placeholders from ph) on the store's pool.
func (f *fixture) exec(query string, args ...any) {
	f.t.Helper()
	if _, err := f.s.SQL().ExecContext(f.ctx, query, args...); err != nil {
		f.t.Fatalf("%s: %v", query, err)
	}
}

// countRows counts the rows of a table that match a condition (placeholders from ph).
func (f *fixture) countRows(table, where string, args ...any) int {
	f.t.Helper()
	var n int
	if err := f.s.SQL().QueryRowContext(f.ctx, "SELECT COUNT(*) FROM "+table+" WHERE "+where, args...).Scan(&n); err != nil {
		f.t.Fatal(err)
	}
	return n
}

var serial atomic.Int64

// unique returns a name no other call returns in this process.
func unique(prefix string) string { return fmt.Sprintf("%s-%d", prefix, serial.Add(1)) }

// user creates a person with a unique email.
func (f *fixture) user(name string) *store.User {
	f.t.Helper()
	u := &store.User{Email: unique(name) + "@example.org", Name: name, PasswordHash: "x"}
	must(f.t, f.s.CreateUser(f.ctx, u))
	return u
}

// project creates a project led by lead.
func (f *fixture) project(lead *store.User) *store.Project {
	f.t.Helper()
	p := &store.Project{Name: "P " + lead.Name, CreatedBy: lead.ID}
	must(f.t, f.s.CreateProject(f.ctx, p, nil))
	return p
}

// member gives u the roles in p.
func (f *fixture) member(p *store.Project, u *store.User, roles ...store.Role) {
	f.t.Helper()
	must(f.t, f.s.SetMember(f.ctx, p.ID, u.ID, roles))
}

// item creates an item of p in a stage; opts change it before it is written.
func (f *fixture) item(p *store.Project, externalID string, stage flow.Stage, opts ...func(*store.Item)) *store.Item {
	f.t.Helper()
	it := &store.Item{ProjectID: p.ID, ExternalID: externalID, Inputs: store.JSON(`{"text":"` + externalID + `"}`), Stage: stage}
	for _, o := range opts {
		o(it)
	}
	got, err := f.s.InsertNewItems(f.ctx, []*store.Item{it})
	if err != nil || !got[externalID] {
		f.t.Fatalf("item %s: inserted %v, %v", externalID, got, err)
	}
	return it
}

// items creates n items of p in a stage, external ids prefix-001 on, in id order.
func (f *fixture) items(p *store.Project, prefix string, stage flow.Stage, n int, opts ...func(*store.Item)) []*store.Item {
	f.t.Helper()
	out := make([]*store.Item, n)
	for i := range out {
		out[i] = f.item(p, fmt.Sprintf("%s-%03d", prefix, i+1), stage, opts...)
	}
	return out
}

// inLanguage sets an item's language.
func inLanguage(tag string) func(*store.Item) { return func(it *store.Item) { it.Language = tag } }

// assign creates u's assignment of it in a stage with a status: an active one holds a lease for
// an hour, a submitted one was submitted now; opts change it before it is written.
func (f *fixture) assign(it *store.Item, u *store.User, stage flow.Stage, status flow.AssignmentStatus, opts ...func(*store.Assignment)) *store.Assignment {
	f.t.Helper()
	t := time.Now().UTC()
	a := &store.Assignment{ProjectID: it.ProjectID, ItemID: it.ID, UserID: u.ID, Stage: stage, Status: status,
		LeaseExpiresAt: t.Add(time.Hour)}
	if status == flow.AssignSubmitted || status == flow.AssignRejected {
		a.SubmittedAt, a.Answers = &t, store.JSON(`{"q":"a"}`)
	}
	for _, o := range opts {
		o(a)
	}
	must(f.t, f.s.CreateAssignment(f.ctx, a))
	return a
}

// leaseEnded makes an active assignment's lease one that ran out a minute ago.
func leaseEnded(a *store.Assignment) { a.LeaseExpiresAt = time.Now().UTC().Add(-time.Minute) }

// awaitingReview makes a label one a reviewer may take.
func awaitingReview(a *store.Assignment) { a.ReviewStatus = flow.ReviewPending }

// reviewOf makes a review assignment one of the label l.
func reviewOf(l *store.Assignment) func(*store.Assignment) {
	return func(a *store.Assignment) { a.TargetID = &l.ID }
}

// submittedAt sets when an assignment was submitted.
func submittedAt(t time.Time) func(*store.Assignment) {
	return func(a *store.Assignment) { a.SubmittedAt = &t }
}

// worked records that u first worked it in a stage, as a claim does.
func (f *fixture) worked(it *store.Item, u *store.User, stage flow.Stage) {
	f.t.Helper()
	if _, err := f.s.FirstStage(f.ctx, it.ID, u.ID, stage); err != nil {
		f.t.Fatal(err)
	}
}

// eachCountedBackend is eachBackend with stores whose driver counts their round trips to the
// database.
func eachCountedBackend(t *testing.T, fn func(t *testing.T, f *fixture, st *testenv.Statements)) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			var s *store.Store
			var st *testenv.Statements
			if engine == "postgres" {
				url := testenv.PostgresURL(t)
				var name string
				name, st = testenv.CountingDriver("pgx")
				s = testenv.OpenPool(t, url, store.Pool{Driver: name})
			} else {
				var name string
				name, st = testenv.CountingDriver("sqlite")
				s = testenv.OpenPool(t, "sqlite:"+filepath.Join(t.TempDir(), "arbiter.db"), store.Pool{Driver: name})
			}
			fn(t, &fixture{t: t, ctx: context.Background(), s: s}, st)
		})
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// equal fails the test when got is not want.
func equal[T any](t testing.TB, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

// idsOf lists the ids of items.
func idsOf(its ...*store.Item) []string {
	out := make([]string, len(its))
	for i, it := range its {
		out[i] = it.ID
	}
	return out
}

// equalIDs fails the test when got does not hold exactly want, in order (nil and empty alike).
func equalIDs(t testing.TB, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}
