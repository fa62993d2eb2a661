package imports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// batchAhead is one batch of an import, read and checked as far as it can be without the
// database, while the batch before it is stored.
type batchAhead struct {
	part  *ImportReport // the lines read, and the lines refused on reading (too long, bad text, media paths)
	lines []parsedLine
	// err ended the reading after this batch: io.EOF at the end of the file.
	err error
	// stored is closed once the batch is stored or the import has stopped.
	stored chan struct{}
}

// readAhead reads the batches of r in a goroutine of its own and parses them, the lines of a
// batch on every processor, one batch ahead of the batch being stored (so that a batch's
// parsing and validation, the server's share of an import, overlap the database's share of the
// batch before it). The batches come in order; the last one has err set. quit, once closed,
// stops the reading after the batch being read: the caller closes it and drains the channel.
//
// note: the batch read ahead is what the import holds on top of one batch; after a batch of
// importBatchBytes or more (long lines) the next waits until it is stored, so that at most one
// such batch is held, and MaxImportMemory stands.
func readAhead(ctx context.Context, p *workflow.Project, r io.Reader, files MediaFiles, pool bool, quit <-chan struct{}) <-chan *batchAhead {
	out := make(chan *batchAhead)
	go func() {
		defer close(out)
		lr := newLineReader(r)
		for lines := 0; ; {
			b := &batchAhead{part: &ImportReport{Lines: lines}, stored: make(chan struct{})}
			size := 0
			b.err = safely(func() error {
				raw, err := readBatch(lr, b.part)
				lines = b.part.Lines
				if err != nil && !errors.Is(err, io.EOF) {
					return err
				}
				if files != nil {
					// note: media are stored before the batch's transaction, which on SQLite holds
					// the only connection
					raw = resolveBatch(ctx, p.Schema, raw, files, b.part)
				}
				for _, l := range raw {
					size += len(l.data)
				}
				var perr error
				if b.lines, perr = parseBatch(p, raw, pool); perr != nil {
					return perr
				}
				return err
			})
			out <- b // note: never dropped; the caller drains the channel
			if b.err != nil {
				return
			}
			if size >= importBatchBytes {
				<-b.stored
			}
			select {
			case <-quit:
				return
			default:
			}
		}
	}()
	return out
}

// parseBatch parses and validates the lines of a batch (parseLine) on every processor.
func parseBatch(p *workflow.Project, raw []rawLine, pool bool) ([]parsedLine, error) {
	out := make([]parsedLine, len(raw))
	workers := min(runtime.GOMAXPROCS(0), (len(raw)+63)/64)
	errs := make([]error, workers)
	names := newKeyNames(p.Schema)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			errs[w] = safely(func() error {
				for i := w; i < len(raw); i += workers {
					out[i] = parseLine(p, raw[i], pool, names)
					raw[i].data = nil // note: the parsed item holds what is kept of the line; the line can go
				}
				return nil
			})
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// safely runs f and returns its error, or the panic it raised as an error: a goroutine of an
// import must not take the server down.
func safely(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the import failed: %v", v)
		}
	}()
	return f()
}

// merge adds the lines read and refused in a batch to the import's report.
func (r *ImportReport) merge(part *ImportReport) {
	r.Lines = part.Lines
	for _, e := range part.Errors {
		if len(r.Errors) >= maxReportedErrors {
			r.Truncated = true
			continue
		}
		r.Errors = append(r.Errors, e)
	}
}
