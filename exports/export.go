package exports

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync/atomic"
)

// ErrNoRecords is returned when no record was left to export after the
// status filter and the metadata filter.
var ErrNoRecords = errors.New("exports: no records to export")

// Job is one release to write.
type Job struct {
	// Release is the header: schema, project, figures, salt.
	Release *Release
	// Spec is the validated request (ParseSpec with Release.Schema).
	Spec *Spec
	// Sink receives every file.
	Sink Sink
	// Progress, when set, is called with the number of records read so
	// far, every ProgressEvery records and once at the end.
	Progress func(read int64)
	// ProgressEvery defaults to 1000.
	ProgressEvery int64
	// ExtraFiles, when set, lists files the caller wrote into the sink
	// itself while the records streamed (media copied into the release);
	// it is called once, after the last record, and the manifest lists
	// them with the rest.
	ExtraFiles func() []FileEntry
}

// Export streams records once into every format of the spec, then writes
// agreement.json, README.md and manifest.json, and returns the manifest.
//
// Records are handled one at a time in stream order and never collected, so
// memory does not grow with the number of items (the judgeanything format
// keeps an 8-byte key per distinct query and response to write each once).
// The caller streams them in a stable order (for example by item id) so that
// the same project state gives byte-identical data files. On error nothing
// is listed as done and no manifest is written; the caller discards the
// files already in the sink.
func Export(ctx context.Context, job Job, records iter.Seq2[Record, error]) (*Manifest, error) {
	x, err := newExporter(job)
	if err != nil {
		return nil, err
	}
	for rec, err := range records {
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			err = x.add(&rec)
		} else if perr := x.drain(); perr != nil {
			err = perr // note: an earlier record's error comes first, as when records are prepared one by one
		}
		if err != nil {
			x.abort()
			return nil, err
		}
	}
	if err := x.drain(); err != nil {
		x.abort()
		return nil, err
	}
	return x.finish()
}

// exporter holds the state of one Export.
type exporter struct {
	job     Job
	files   *fileSet
	writers []writer
	pipes   *pipes
	failed  atomic.Bool
	prep    *preparers
	batch   []Record // kept records not given to the preparers yet
	counter *counter
	tally   Tally // the finished count, set once the records are read
	agree   map[string]*meanAcc
	read    int64
}

func newExporter(job Job) (*exporter, error) {
	if job.Release == nil || job.Spec == nil || job.Sink == nil {
		return nil, errors.New("exports: a job needs a release, a spec and a sink")
	}
	if len(job.Release.Salt) == 0 {
		return nil, errors.New("exports: the release needs a pseudonym salt")
	}
	if err := Validate(&job.Release.Schema, job.Spec.Formats, nil); err != nil {
		return nil, err
	}
	if job.ProgressEvery <= 0 {
		job.ProgressEvery = 1000
	}
	x := &exporter{job: job, files: newFileSet(job.Sink), counter: newCounter(job.Spec.Formats, job.Release.Criteria),
		agree: map[string]*meanAcc{}}
	e := &env{rel: job.Release, spec: job.Spec, files: x.files}
	for _, name := range job.Spec.Formats {
		f, _ := lookupFormat(name)
		w, err := f.open(e)
		if err != nil {
			x.abort()
			return nil, fmt.Errorf("exports: open %s: %w", name, err)
		}
		x.writers = append(x.writers, w)
	}
	x.pipes = &pipes{batch: make([]*entry, 0, batchSize)}
	for _, w := range x.writers {
		x.pipes.list = append(x.pipes.list, newPipe(w, func() { x.failed.Store(true) }))
	}
	x.prep = newPreparers(job.Release, job.Spec)
	return x, nil
}

// add reads one record: a kept one is prepared with the records after it
// and then handed to every writer (take).
func (x *exporter) add(rec *Record) error {
	x.read++
	x.counter.t.Read++
	if x.job.Progress != nil && x.read%x.job.ProgressEvery == 0 {
		x.job.Progress(x.read)
	}
	keep, err := x.keep(rec)
	if err != nil || !keep {
		return err
	}
	if x.failed.Load() {
		return x.pipes.stop()
	}
	x.batch = append(x.batch, *rec)
	if len(x.batch) < prepareBatch {
		return nil
	}
	b := x.prep.give(x.batch)
	x.batch = make([]Record, 0, prepareBatch)
	return x.take(b)
}

// drain gives the preparers the last kept records and takes back every
// batch still pending, in order.
func (x *exporter) drain() error {
	if len(x.batch) > 0 {
		if err := x.take(x.prep.give(x.batch)); err != nil {
			return err
		}
		x.batch = nil
	}
	for b := x.prep.oldest(); b != nil; b = x.prep.oldest() {
		if err := x.take(b); err != nil {
			return err
		}
	}
	return nil
}

// take hands a prepared batch (nil: none) to every writer and counts it, in
// stream order; it returns the error of the batch's failed record, if any.
func (x *exporter) take(b *preparedBatch) error {
	if b == nil {
		return nil
	}
	for _, e := range b.entries {
		if x.failed.Load() {
			return x.pipes.stop()
		}
		x.pipes.send(e)
		x.count(e)
	}
	return b.err
}

// keep applies the metadata filter, then the status rule and the spot
// check, counting every item it leaves out with its reason.
func (x *exporter) keep(rec *Record) (bool, error) {
	switch rec.Status {
	case "":
		rec.Status = StatusDone
	case StatusDone, StatusDropped, StatusUnresolved:
	default:
		return false, recordErr(rec.ID, rec.ExternalID, "status", "invalid_status",
			"status %q is not done, dropped or unresolved", rec.Status)
	}
	if !x.job.Spec.Matches(rec.Meta) {
		x.counter.t.Filtered++
		return false, nil
	}
	x.counter.inScope(rec)
	switch {
	case rec.Status == StatusDone && rec.SpotCheck != nil:
		// note: D3-Omni removes the items its blind spot check rejects; the lead's
		// resolution of the flag (return or drop) settles the item
		x.counter.exclude(LossSpotCheck, rec.SpotCheck.reason())
		return false, nil
	case rec.Status == StatusDropped && !x.job.Spec.IncludeDropped:
		x.counter.exclude(LossDropped, rec.DropReason)
		return false, nil
	case rec.Status == StatusUnresolved && !x.job.Spec.IncludeDropped:
		x.counter.exclude(LossUnresolved, "")
		return false, nil
	}
	return true, nil
}

// finish closes the writers and writes agreement.json, README.md and the
// manifest.
func (x *exporter) finish() (*Manifest, error) {
	if x.job.Progress != nil {
		x.job.Progress(x.read)
	}
	x.prep.stop()
	if err := x.pipes.stop(); err != nil {
		x.abort()
		return nil, err
	}
	for _, w := range x.writers {
		if err := w.close(); err != nil {
			x.writers = nil
			return nil, err
		}
	}
	x.writers = nil
	x.tally = x.counter.tally()
	if x.tally.Total == 0 {
		return nil, ErrNoRecords
	}
	if err := x.writeAgreement(); err != nil {
		return nil, err
	}
	if err := x.writeCard(); err != nil {
		return nil, err
	}
	return x.writeManifest()
}

// abort stops the writers and closes whatever is open, ignoring errors:
// the release has failed.
func (x *exporter) abort() {
	if x.prep != nil {
		x.prep.stop()
	}
	if x.pipes != nil {
		_ = x.pipes.stop()
	}
	for _, w := range x.writers {
		_ = w.close()
	}
	x.writers = nil
}
