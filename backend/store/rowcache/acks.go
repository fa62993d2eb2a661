package rowcache

import (
	"context"
	"time"
)

// ackTimeout bounds a writer's wait: a replica that does not answer has lost its listener, and
// with it its cache.
const ackTimeout = 2 * time.Second

// change is one write's notification: its nonce, and how many listeners must acknowledge it.
// An empty nonce waits for nobody.
type change struct {
	nonce     string
	listeners int
}

// waiter is a writer waiting for the listeners' acknowledgements of its change.
type waiter struct {
	want, got int // want is -1 until the number of listeners is known
	done      chan struct{}
	closed    bool
}

// heard is called by the listener for every change notification: it clears the cache.
func (c *Cache) heard() { c.Clear() }

// acked counts a listener's acknowledgement of the change nonce.
func (c *Cache) acked(nonce string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w, ok := c.waiters[nonce]; ok {
		w.got++
		w.check()
	}
}

// expect registers a writer's wait for the acknowledgements of its change, before the change
// is sent; ok is false when this replica cannot hear them (its listener is down).
func (c *Cache) expect(nonce string) (ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live {
		return false
	}
	c.waiters[nonce] = &waiter{want: -1, done: make(chan struct{})}
	return true
}

// await waits until every replica that was listening when ch was sent has cleared its cache,
// or at most two seconds.
func (c *Cache) await(ctx context.Context, ch change) {
	if ch.nonce != "" {
		c.wait(ctx, ch.nonce, ch.listeners, ackTimeout)
	}
}

// wait waits for n acknowledgements of the change nonce, at most timeout.
func (c *Cache) wait(ctx context.Context, nonce string, n int, timeout time.Duration) {
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

func (c *Cache) forget(nonce string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.waiters, nonce)
}
