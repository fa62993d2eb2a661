package auth

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestHashGate: a budget of two hashes lets two run at once; a third waits up to a second for
// room, then is refused with ErrBusy; room that frees up in time lets it through.
func TestHashGate(t *testing.T) {
	g := newHashGate(2*hashMemory + hashMemory/2)
	if cap(g.slots) != 2 {
		t.Fatalf("%d slots for a budget of 2.5 hashes", cap(g.slots))
	}
	release := make(chan struct{})
	running := make(chan struct{}, 2)
	for range 2 {
		go g.do(context.Background(), func() error { running <- struct{}{}; <-release; return nil })
	}
	<-running
	<-running
	start := time.Now()
	if err := g.do(context.Background(), func() error { return nil }); !errors.Is(err, ErrBusy) {
		t.Fatalf("a third hash over the budget: %v", err)
	}
	if d := time.Since(start); d < hashWait/2 {
		t.Fatalf("refused after %v, without waiting for room", d)
	}
	go func() { time.Sleep(100 * time.Millisecond); close(release) }()
	if err := g.do(context.Background(), func() error { return nil }); err != nil {
		t.Fatalf("a hash once room freed up: %v", err)
	}
	if newHashGate(0).slots == nil || cap(newHashGate(0).slots) != 1 {
		t.Fatal("a budget below one hash must still let one through")
	}
}
