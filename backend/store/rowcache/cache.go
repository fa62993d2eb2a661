// Package rowcache keeps, per server process, the rows every request reads to authenticate and
// authorize (its token, user, project and membership) for a short time, and keeps the replicas
// of one PostgreSQL database from serving a row after it changed.
//
// note: correctness rests on three rules. (1) Every write to a cached table clears the cache of
// its process, at the write and again after its transaction commits; the second clear removes
// what a concurrent request read from the old row before the commit. (2) On PostgreSQL the
// write also sends a notification in its own transaction, delivered at commit to every
// replica's listener; each listener clears its cache and answers with an acknowledgement, and
// the writer waits for as many acknowledgements as there were listeners before it acknowledges
// the write itself. So once a revocation has been answered, no replica serves the old row. A
// replica whose listener is not connected serves nothing from its cache. (3) A read that began
// before a clear cannot fill the cache after it (the epoch check), so a stale row read
// concurrently with a change is never kept.
package rowcache

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// DefaultTTL is how long a row may be served from memory. It is a safety net only: every
// change clears the caches of every replica at once.
const DefaultTTL = 10 * time.Second

// maxEntries bounds the cache: past it, everything is forgotten at once.
const maxEntries = 100_000

// Cache is one process's cache of rows read for authentication.
type Cache struct {
	mu      sync.Mutex
	ttl     time.Duration
	epoch   uint64
	live    bool // entries may be served: always on SQLite, while listening on PostgreSQL
	entries map[string]entry
	pending sync.Map // *sql.Tx → Change: transactions that changed a cached table
	waiters map[string]*waiter
	now     func() time.Time
}

type entry struct {
	v  any
	at time.Time
}

// New returns a cache whose entries live ttl; live says whether it may serve them yet (on
// PostgreSQL, only once its listener is connected).
func New(ttl time.Duration, live bool) *Cache {
	return &Cache{ttl: ttl, live: live, entries: map[string]entry{}, waiters: map[string]*waiter{}, now: time.Now}
}

// Read reads key through the cache: a live entry, or read() kept for later. Each caller gets
// its own copy. Errors and missing rows are never kept.
func Read[T any](c *Cache, key string, read func() (*T, error)) (*T, error) {
	if v, ok := c.get(key); ok {
		cp := *v.(*T)
		return &cp, nil
	}
	epoch := c.begin()
	v, err := read()
	if err != nil {
		return v, err
	}
	cp := *v
	c.put(key, &cp, epoch)
	return v, nil
}

// get returns a live entry.
func (c *Cache) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || !c.live || c.ttl <= 0 || c.now().Sub(e.at) > c.ttl {
		return nil, false
	}
	return e.v, true
}

// begin returns the epoch a read starts in, for put.
func (c *Cache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// put keeps v unless the cache was cleared since the read began.
func (c *Cache) put(key string, v any, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || c.ttl <= 0 || epoch != c.epoch {
		return
	}
	if len(c.entries) >= maxEntries {
		clear(c.entries)
	}
	c.entries[key] = entry{v: v, at: c.now()}
}

// Clear forgets every entry and starts a new epoch.
func (c *Cache) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	clear(c.entries)
}

// setLive turns serving from the cache on or off, clearing it either way.
func (c *Cache) setLive(live bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.live = live
	clear(c.entries)
}

// SetTTL changes how long entries live; 0 turns the cache off.
func (c *Cache) SetTTL(ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ttl = ttl
	c.epoch++
	clear(c.entries)
}

// Live reports whether the cache serves rows (on PostgreSQL: whether the listener is
// connected).
func (c *Cache) Live() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.live && c.ttl > 0
}

// changed notes that transaction tx wrote a cached table, with the notification ch it sent
// (empty on SQLite), for Committed.
func (c *Cache) changed(tx *sql.Tx, ch change) { c.pending.Store(tx, ch) }

// noted reports whether transaction tx already wrote a cached table.
func (c *Cache) noted(tx *sql.Tx) bool {
	_, ok := c.pending.Load(tx)
	return ok
}

// Committed finishes a transaction's changes after it committed (err == nil) or rolled back:
// a committed change clears the cache again and waits for the replicas' acknowledgements.
func (c *Cache) Committed(ctx context.Context, tx *sql.Tx, err error) {
	v, ok := c.pending.LoadAndDelete(tx)
	if !ok {
		return
	}
	ch := v.(change)
	if err != nil {
		c.forget(ch.nonce)
		return
	}
	c.Clear()
	c.await(ctx, ch)
}
