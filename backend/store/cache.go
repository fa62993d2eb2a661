package store

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"
)

// DefaultCacheTTL is how long a row read for authentication may be served from memory. It is
// a safety net only: every change made through a store clears the caches of every replica at
// once (see cache).
const DefaultCacheTTL = 10 * time.Second

// cachedTables are the tables whose rows every request reads to authenticate and authorize.
var cachedTables = []string{"users", "personal_access_tokens", "projects", "project_members"}

// cache keeps the rows every request reads (its token, user, project and membership) for a
// short time, so that a request costs only the statements of its own work.
//
// note: correctness rests on three rules. (1) Every write to a cached table through gorm
// clears the cache of this process, at the write and again after its transaction commits; the
// second clear removes what a concurrent request read from the old row before the commit.
// (2) On PostgreSQL the write also sends a notification in its own transaction, delivered at
// commit to every replica's listener; each listener clears its cache and answers with an
// acknowledgement, and the writer waits for as many acknowledgements as there were listeners
// before it acknowledges the write itself. So once a revocation has been answered, no replica
// serves the old row. A replica whose listener is not connected serves nothing from its cache.
// (3) A read that began before a clear cannot fill the cache after it (the epoch check), so a
// stale row read concurrently with a change is never kept.
type cache struct {
	ttl     time.Duration
	mu      sync.Mutex
	epoch   uint64
	live    bool // entries may be served: always on SQLite, while listening on PostgreSQL
	entries map[string]cacheEntry
	pending sync.Map // *sql.Tx → change: transactions that changed a cached table
	waiters map[string]*waiter
	now     func() time.Time
}

// waiter is a writer waiting for the listeners' acknowledgements of its change.
type waiter struct {
	want, got int // want is -1 until the number of listeners is known
	done      chan struct{}
	closed    bool
}

type cacheEntry struct {
	v  any
	at time.Time
}

// change is one write's notification: its nonce, and how many listeners must acknowledge it.
type change struct {
	nonce     string
	listeners int
}

func newCache(ttl time.Duration, live bool) *cache {
	return &cache{ttl: ttl, live: live, entries: map[string]cacheEntry{}, waiters: map[string]*waiter{}, now: time.Now}
}

// get returns a live entry.
func (c *cache) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || !c.live || c.ttl <= 0 || c.now().Sub(e.at) > c.ttl {
		return nil, false
	}
	return e.v, true
}

// begin returns the epoch a read starts in, for put.
func (c *cache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// put keeps v unless the cache was cleared since the read began.
func (c *cache) put(key string, v any, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || c.ttl <= 0 || epoch != c.epoch {
		return
	}
	if len(c.entries) > 100_000 {
		clear(c.entries)
	}
	c.entries[key] = cacheEntry{v: v, at: c.now()}
}

// clear forgets every entry and starts a new epoch.
func (c *cache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	clear(c.entries)
}

// setLive turns serving from the cache on or off, clearing it either way.
func (c *cache) setLive(live bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.live = live
	clear(c.entries)
}

// setTTL changes how long entries live; 0 turns the cache off.
func (c *cache) setTTL(ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ttl = ttl
	c.epoch++
	clear(c.entries)
}

// heard is called by the listener for every change notification: it clears the cache.
func (c *cache) heard() { c.clear() }

// acked counts a listener's acknowledgement of the change nonce.
func (c *cache) acked(nonce string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w, ok := c.waiters[nonce]; ok {
		w.got++
		w.check()
	}
}

// expect registers a writer's wait for the acknowledgements of its change, before the change
// is sent; ok is false when this replica cannot hear them (its listener is down).
func (c *cache) expect(nonce string) (ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live {
		return false
	}
	c.waiters[nonce] = &waiter{want: -1, done: make(chan struct{})}
	return true
}

// wait waits for n acknowledgements of the change nonce, at most timeout.
func (c *cache) wait(ctx context.Context, nonce string, n int, timeout time.Duration) {
	c.mu.Lock()
	w, ok := c.waiters[nonce]
	if ok {
		w.want = n
		w.check()
	}
	c.mu.Unlock()
	if !ok {
		return
	}
	defer c.forget(nonce)
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-w.done:
	case <-t.C:
	case <-ctx.Done():
	}
}

// check closes done once the wanted acknowledgements are in.
func (w *waiter) check() {
	if w.want >= 0 && w.got >= w.want && !w.closed {
		w.closed = true
		close(w.done)
	}
}

func (c *cache) forget(nonce string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.waiters, nonce)
}

// cached reads key through the cache: a live entry, or read() kept for later. Errors and
// missing rows are never kept.
func cached[T any](s *Store, key string, read func() (*T, error)) (*T, error) {
	if v, ok := s.cache.get(key); ok {
		cp := *v.(*T)
		return &cp, nil
	}
	epoch := s.cache.begin()
	v, err := read()
	if err != nil {
		return v, err
	}
	cp := *v
	s.cache.put(key, &cp, epoch)
	return v, nil
}

// CachedUser is User, served from the cache of rows read for authentication.
func (s *Store) CachedUser(ctx context.Context, id string) (*User, error) {
	return cached(s, "user\x00"+id, func() (*User, error) { return s.User(ctx, id) })
}

// CachedProject is Project, served from the cache of rows read for authorization.
func (s *Store) CachedProject(ctx context.Context, id string) (*Project, error) {
	return cached(s, "project\x00"+id, func() (*Project, error) { return s.Project(ctx, id) })
}

// CachedMember is Member, served from the cache of rows read for authorization.
func (s *Store) CachedMember(ctx context.Context, projectID, userID string) (*Member, error) {
	return cached(s, "member\x00"+projectID+"\x00"+userID, func() (*Member, error) { return s.Member(ctx, projectID, userID) })
}

// CachedAccessToken is AccessTokenByHash, served from the cache of rows read for
// authentication.
func (s *Store) CachedAccessToken(ctx context.Context, hash string) (*PersonalAccessToken, error) {
	return cached(s, "pat\x00"+hash, func() (*PersonalAccessToken, error) { return s.AccessTokenByHash(ctx, hash) })
}

// UseCache sets how long rows read for authentication may be served from memory; 0 turns the
// cache off.
func (s *Store) UseCache(ttl time.Duration) { s.cache.setTTL(ttl) }

// settingCacheNeutral marks a write that changes nothing a cached row is used for (the time
// a token was last used).
const settingCacheNeutral = "arbiter:cache_neutral"

// rawWrite finds the table a raw INSERT, UPDATE or DELETE writes.
var rawWrite = regexp.MustCompile(`(?is)^\s*(?:insert\s+into|update|delete\s+from)\s+["` + "`" + `]?(\w+)`)

// watchWrites registers the gorm callbacks that notice writes to cached tables.
func (s *Store) watchWrites() error {
	cb := s.db.Callback()
	after := func(db *gorm.DB) {
		if db.Error != nil || db.RowsAffected == 0 {
			return
		}
		if neutral, _ := db.Get(settingCacheNeutral); neutral == true {
			return
		}
		table := db.Statement.Table
		if db.Statement.SQL.Len() > 0 && (table == "" || db.Statement.Schema == nil) {
			if m := rawWrite.FindStringSubmatch(db.Statement.SQL.String()); m != nil {
				table = m[1]
			}
		}
		if i := strings.IndexAny(table, " \t"); i > 0 {
			table = table[:i]
		}
		for _, t := range cachedTables {
			if t == table {
				s.changed(db)
				return
			}
		}
	}
	return joinErrs(
		cb.Create().After("gorm:create").Register("arbiter:cache", after),
		cb.Update().After("gorm:update").Register("arbiter:cache", after),
		cb.Delete().After("gorm:delete").Register("arbiter:cache", after),
		cb.Raw().After("gorm:raw").Register("arbiter:cache", after),
	)
}

func joinErrs(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// changed handles a write to a cached table: the cache is cleared now, and again when the
// write commits; on PostgreSQL every replica is told and acknowledges.
func (s *Store) changed(db *gorm.DB) {
	s.cache.clear()
	ctx := db.Statement.Context
	tx, inTx := db.Statement.ConnPool.(*sql.Tx)
	if inTx {
		if _, seen := s.cache.pending.Load(tx); seen {
			return
		}
		ch := change{}
		if s.dialect == Postgres {
			var err error
			if ch, err = s.notify(ctx, tx); err != nil {
				db.AddError(err)
				return
			}
		}
		s.cache.pending.Store(tx, ch)
		return
	}
	if s.dialect == Postgres {
		ch, err := s.notify(ctx, s.sqlDB)
		if err != nil {
			db.AddError(err)
			return
		}
		s.cache.clear()
		s.awaitAcks(ctx, ch)
	}
}

// committed finishes a transaction's changes to cached tables after it committed (or rolled
// back, err != nil).
func (s *Store) committed(ctx context.Context, tx *sql.Tx, err error) {
	v, ok := s.cache.pending.LoadAndDelete(tx)
	if !ok {
		return
	}
	if err != nil {
		s.cache.forget(v.(change).nonce)
		return
	}
	s.cache.clear()
	s.awaitAcks(ctx, v.(change))
}

// querier is what notify sends through: the pool or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// notify counts the listening replicas and tells them that cached rows changed; inside a
// transaction the notification is delivered when it commits, and not at all when it rolls
// back.
func (s *Store) notify(ctx context.Context, q querier) (change, error) {
	ch := change{nonce: newID()}
	if !s.cache.expect(ch.nonce) {
		ch.nonce = "" // note: nobody to wait for; the other replicas are still told
	}
	err := q.QueryRowContext(ctx, `SELECT pg_notify($1, $2)::text, (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $3)`,
		changesChannel, s.schema+" "+ch.nonce, s.listenerName()).Scan(new(string), &ch.listeners)
	if err != nil {
		s.cache.forget(ch.nonce)
		return ch, fmt.Errorf("notify replicas of a change: %w", err)
	}
	return ch, nil
}

// awaitAcks waits until every replica that was listening when the change was sent has
// cleared its cache, or at most two seconds (a replica that does not answer has lost its
// listener, and with it its cache).
func (s *Store) awaitAcks(ctx context.Context, ch change) {
	if ch.nonce != "" {
		s.cache.wait(ctx, ch.nonce, ch.listeners, 2*time.Second)
	}
}

// CacheLive reports whether the cache serves rows (on PostgreSQL: whether the listener is
// connected), for health checks and tests.
func (s *Store) CacheLive() bool {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	return s.cache.live && s.cache.ttl > 0
}
