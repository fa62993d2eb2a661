package exports

import "sync"

// batchSize is the number of entries handed to the writers at once.
const batchSize = 128

// pipeDepth is the number of batches that may wait for one writer; with
// batchSize it bounds the entries in flight, hence the memory.
const pipeDepth = 4

// pipe runs one format writer on its own goroutine: formats are
// independent, so they write in parallel while each still sees the records
// in stream order (its files stay deterministic).
type pipe struct {
	w    writer
	in   chan []*entry
	done chan struct{}
	err  error
	fail func()
}

func newPipe(w writer, fail func()) *pipe {
	p := &pipe{w: w, in: make(chan []*entry, pipeDepth), done: make(chan struct{}), fail: fail}
	go p.run()
	return p
}

// run writes every batch; after the first error it drains the rest.
func (p *pipe) run() {
	defer close(p.done)
	for batch := range p.in {
		if p.err != nil {
			continue
		}
		for _, e := range batch {
			if err := p.w.write(e); err != nil {
				p.err = err
				p.fail()
				break
			}
		}
	}
}

// stop ends the pipe's input and waits for it; it returns the write error.
func (p *pipe) stop() error {
	close(p.in)
	<-p.done
	return p.err
}

// pipes fans batches out to every writer.
type pipes struct {
	list    []*pipe
	batch   []*entry
	once    sync.Once
	stopErr error
}

// send queues an entry, handing a full batch to every writer.
func (ps *pipes) send(e *entry) {
	ps.batch = append(ps.batch, e)
	if len(ps.batch) == batchSize {
		ps.flush()
	}
}

// flush hands the pending batch to every writer; the batch is shared and
// read-only from here on.
func (ps *pipes) flush() {
	if len(ps.batch) == 0 {
		return
	}
	for _, p := range ps.list {
		p.in <- ps.batch
	}
	ps.batch = make([]*entry, 0, batchSize)
}

// stop flushes, stops every pipe once and returns the first write error.
func (ps *pipes) stop() error {
	ps.once.Do(func() {
		ps.flush()
		for _, p := range ps.list {
			if err := p.stop(); err != nil && ps.stopErr == nil {
				ps.stopErr = err
			}
		}
	})
	return ps.stopErr
}
