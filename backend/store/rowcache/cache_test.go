package rowcache

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

type row struct{ Name string }

// clock is a cache's time, moved by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newTestCache(ttl time.Duration, live bool) (*Cache, *clock) {
	c := New(ttl, live)
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	c.now = clk.now
	return c, clk
}

// reader counts its reads and returns the row it holds now.
type reader struct {
	reads int
	row   row
	err   error
}

func (r *reader) read() (*row, error) {
	r.reads++
	if r.err != nil {
		return nil, r.err
	}
	v := r.row
	return &v, nil
}

func TestReadServesCopiesUntilTheTTL(t *testing.T) {
	c, clk := newTestCache(10*time.Second, true)
	r := &reader{row: row{"ada"}}
	first, _ := Read(c, "k", r.read)
	first.Name = "changed by the caller"
	second, err := Read(c, "k", r.read)
	if err != nil || second.Name != "ada" || r.reads != 1 {
		t.Fatalf("second read %+v, %v after %d reads; want the kept copy after 1", second, err, r.reads)
	}
	second.Name = "changed again"
	if third, _ := Read(c, "k", r.read); third.Name != "ada" {
		t.Fatalf("a caller's change reached the cache: %+v", third)
	}
	clk.t = clk.t.Add(11 * time.Second)
	r.row.Name = "grace"
	if got, _ := Read(c, "k", r.read); got.Name != "grace" || r.reads != 2 {
		t.Fatalf("after the TTL: %+v after %d reads; want a fresh read", got, r.reads)
	}
}

func TestReadKeepsNoErrors(t *testing.T) {
	c, _ := newTestCache(time.Minute, true)
	r := &reader{err: errors.New("not found")}
	for range 2 {
		if _, err := Read(c, "k", r.read); err == nil {
			t.Fatal("the error was lost")
		}
	}
	if r.reads != 2 {
		t.Fatalf("%d reads; an error was kept", r.reads)
	}
}

func TestWhatTheCacheMayServe(t *testing.T) {
	cases := []struct {
		name  string
		setup func(c *Cache)
		want  int // reads for two Reads
	}{
		{"live", func(c *Cache) {}, 1},
		{"not live (its listener is down)", func(c *Cache) { c.setLive(false) }, 2},
		{"turned off", func(c *Cache) { c.SetTTL(0) }, 2},
		{"cleared between the reads", nil, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newTestCache(time.Minute, true)
			r := &reader{row: row{"ada"}}
			if tc.setup != nil {
				tc.setup(c)
			}
			Read(c, "k", r.read)
			if tc.setup == nil {
				c.Clear()
			}
			Read(c, "k", r.read)
			if r.reads != tc.want {
				t.Fatalf("%d reads, want %d", r.reads, tc.want)
			}
		})
	}
}

func TestLive(t *testing.T) {
	c, _ := newTestCache(time.Minute, false)
	if c.Live() {
		t.Fatal("a cache made not live is live")
	}
	c.setLive(true)
	if !c.Live() {
		t.Fatal("a cache set live is not")
	}
	c.SetTTL(0)
	if c.Live() {
		t.Fatal("a cache turned off is live")
	}
}

// A read that began before a clear must not fill the cache after it: the row it read may be
// the one the clear was for.
func TestReadBeforeAClearIsNotKept(t *testing.T) {
	c, _ := newTestCache(time.Minute, true)
	r := &reader{row: row{"stale"}}
	Read(c, "k", func() (*row, error) {
		v, err := r.read()
		c.Clear() // a write commits while the row is being read
		return v, err
	})
	r.row.Name = "fresh"
	if got, _ := Read(c, "k", r.read); got.Name != "fresh" {
		t.Fatalf("served %q, read before the clear", got.Name)
	}
}

func TestTheCacheIsBounded(t *testing.T) {
	c, _ := newTestCache(time.Minute, true)
	for i := range maxEntries + 10 {
		Read(c, fmt.Sprint(i), (&reader{}).read)
	}
	if n := len(c.entries); n > maxEntries {
		t.Fatalf("%d entries kept, bound %d", n, maxEntries)
	}
}

func TestAwaitReturnsOnceEveryListenerAnswered(t *testing.T) {
	c, _ := newTestCache(time.Minute, true)
	if !c.expect("n1") {
		t.Fatal("a live cache cannot expect acknowledgements")
	}
	done := make(chan struct{})
	go func() { c.await(context.Background(), change{nonce: "n1", listeners: 2}); close(done) }()
	c.acked("n1")
	select {
	case <-done:
		t.Fatal("returned after 1 of 2 acknowledgements")
	case <-time.After(50 * time.Millisecond):
	}
	c.acked("n1")
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("did not return after 2 of 2 acknowledgements")
	}
	if len(c.waiters) != 0 {
		t.Fatalf("%d waiters left behind", len(c.waiters))
	}
}

func TestAcknowledgementsBeforeTheCount(t *testing.T) {
	c, _ := newTestCache(time.Minute, true)
	c.expect("n1")
	c.acked("n1") // a fast listener answers before the writer knows how many listen
	start := time.Now()
	c.await(context.Background(), change{nonce: "n1", listeners: 1})
	if d := time.Since(start); d > time.Second {
		t.Fatalf("waited %v for an acknowledgement already in", d)
	}
}

func TestAwaitIsBounded(t *testing.T) {
	c, _ := newTestCache(time.Minute, true)
	c.expect("n1")
	start := time.Now()
	c.wait(context.Background(), "n1", 1, 30*time.Millisecond)
	if d := time.Since(start); d < 30*time.Millisecond || d > time.Second {
		t.Fatalf("waited %v for a listener that never answers; want the 30ms bound", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c.expect("n2")
	c.await(ctx, change{nonce: "n2", listeners: 1}) // returns with its context
	c.await(ctx, change{})                          // nobody to wait for
}

func TestANotLiveCacheExpectsNothing(t *testing.T) {
	c, _ := newTestCache(time.Minute, false)
	if c.expect("n1") {
		t.Fatal("a cache whose listener is down expects acknowledgements it cannot hear")
	}
}

func TestCommittedClearsOnlyAfterACommit(t *testing.T) {
	c, _ := newTestCache(time.Minute, true)
	tx1, tx2 := newTx(), newTx()
	r := &reader{row: row{"ada"}}
	c.expect("n1")
	c.changed(tx1, change{nonce: "n1"})
	if !c.noted(tx1) || c.noted(tx2) {
		t.Fatal("Noted does not tell the transactions apart")
	}
	Read(c, "k", r.read)
	c.Committed(context.Background(), tx1, errors.New("rolled back"))
	if c.noted(tx1) || len(c.waiters) != 0 {
		t.Fatal("a rolled-back change was kept")
	}
	Read(c, "k", r.read)
	if r.reads != 1 {
		t.Fatalf("a rollback cleared the cache (%d reads)", r.reads)
	}
	c.changed(tx2, change{})
	c.Committed(context.Background(), tx2, nil)
	Read(c, "k", r.read)
	if r.reads != 2 {
		t.Fatalf("a commit left the cache as it was (%d reads)", r.reads)
	}
	c.Committed(context.Background(), tx2, nil) // once only
}

func TestHear(t *testing.T) {
	c, _ := newTestCache(time.Minute, true)
	c.expect("n1")
	r := &reader{row: row{"ada"}}
	cases := []struct {
		payload, reply string
		cleared        bool
	}{
		{"other n1", "", false},
		{"public ack n1", "", false},
		{"public n2", "public ack n2", true},
		{"public", "", true},
	}
	for _, tc := range cases {
		Read(c, "k", r.read)
		before := r.reads
		if got := c.hear("public", tc.payload); got != tc.reply {
			t.Errorf("hear(%q) replied %q, want %q", tc.payload, got, tc.reply)
		}
		Read(c, "k", r.read)
		if cleared := r.reads > before; cleared != tc.cleared {
			t.Errorf("hear(%q): cleared %v, want %v", tc.payload, cleared, tc.cleared)
		}
	}
	if w := c.waiters["n1"]; w == nil || w.got != 1 {
		t.Fatalf("the acknowledgement was not counted: %+v", w)
	}
}

// Listen on a database it cannot reach keeps the cache from serving and ends with its context.
func TestListenWithoutADatabase(t *testing.T) {
	c, _ := newTestCache(time.Minute, true)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go c.Listen(ctx, "postgres://nobody@127.0.0.1:1/none?connect_timeout=1", "public", done)
	deadline := time.Now().Add(5 * time.Second)
	for c.Live() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if c.Live() {
		t.Fatal("the cache serves rows without a listener")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Listen did not end with its context")
	}
	if _, err := c.listenOnce(context.Background(), "::not a url", "public"); err == nil {
		t.Fatal("a bad url was accepted")
	}
}
