package exports

import (
	"runtime"
	"sync"
)

// prepareBatch is the number of records one goroutine prepares at a time.
const prepareBatch = 64

// maxPreparers bounds the goroutines that prepare records.
const maxPreparers = 4

// preparedBatch is a batch of records on its way through a preparer: once
// done is closed, entries holds the entries of its records in order, up to
// the first record that failed, and err that record's error.
type preparedBatch struct {
	recs    []Record
	entries []*entry
	err     error
	done    chan struct{}
}

// preparers prepare batches of records on goroutines of their own, each
// with its own preparer. The exporter takes the batches back in the order
// it gave them, so the entries reach the writers in stream order and the
// files do not depend on which goroutine prepared what.
type preparers struct {
	work    chan *preparedBatch
	pending []*preparedBatch // given and not taken back yet, oldest first
	window  int              // batches given at most before the oldest is taken back
	wg      sync.WaitGroup
	stopped bool
}

func newPreparers(rel *Release, spec *Spec) *preparers {
	n := min(runtime.GOMAXPROCS(0), maxPreparers)
	ps := &preparers{work: make(chan *preparedBatch), window: 2 * n}
	for range n {
		p := newPreparer(rel, spec)
		ps.wg.Add(1)
		go func() {
			defer ps.wg.Done()
			for b := range ps.work {
				b.entries = make([]*entry, 0, len(b.recs))
				for i := range b.recs {
					e, err := p.prepare(&b.recs[i])
					if err != nil {
						b.err = err
						break
					}
					b.entries = append(b.entries, e)
				}
				close(b.done)
			}
		}()
	}
	return ps
}

// give hands a batch to the next free preparer. It returns the oldest
// batch when the window is full (the caller takes it back), or nil.
func (ps *preparers) give(recs []Record) *preparedBatch {
	b := &preparedBatch{recs: recs, done: make(chan struct{})}
	ps.work <- b
	ps.pending = append(ps.pending, b)
	if len(ps.pending) <= ps.window {
		return nil
	}
	return ps.oldest()
}

// oldest waits for the oldest batch given and returns it, or nil when none
// is pending.
func (ps *preparers) oldest() *preparedBatch {
	if len(ps.pending) == 0 {
		return nil
	}
	b := ps.pending[0]
	ps.pending[0] = nil
	ps.pending = ps.pending[1:]
	<-b.done
	return b
}

// stop ends the preparers once they finished what they were given.
func (ps *preparers) stop() {
	if ps.stopped {
		return
	}
	ps.stopped = true
	close(ps.work)
	ps.wg.Wait()
	ps.pending = nil
}
