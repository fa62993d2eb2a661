package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// Lease is how a running job shows that the replica working it lives. The job renews its
// lease every Heartbeat; every replica looks every Reap for jobs of other replicas whose lease
// has not been renewed for Bound, and rescues them: the job runs again at once on whichever
// replica takes it, or, when it has no attempt left, ends discarded (and its release or import
// failed). So a job whose replica died or stopped is taken up again at most Bound + Reap after
// its last heartbeat.
type Lease struct {
	Heartbeat time.Duration
	Bound     time.Duration
	Reap      time.Duration
}

// DefaultLease renews every 5 seconds and rescues after 30 seconds without a renewal: a job
// whose replica died runs again (or ends failed) within 35 seconds.
var DefaultLease = Lease{Heartbeat: 5 * time.Second, Bound: 30 * time.Second, Reap: 5 * time.Second}

// orDefault fills the zero fields from DefaultLease.
func (l Lease) orDefault() Lease {
	if l.Heartbeat <= 0 {
		l.Heartbeat = DefaultLease.Heartbeat
	}
	if l.Bound <= 0 {
		l.Bound = DefaultLease.Bound
	}
	if l.Reap <= 0 {
		l.Reap = DefaultLease.Reap
	}
	return l
}

// errLeaseLost ends a job whose lease was lost: another attempt of it runs, or will.
var errLeaseLost = errors.New("this job's lease was lost (its replica could not renew it in time), so it runs again elsewhere")

// leases is the middleware that holds a lease on every job while it runs.
type leases struct {
	river.MiddlewareDefaults
	st  *store.Store
	l   Lease
	log *slog.Logger
	// selfFence stops a job that could not renew its lease for half the bound, before another
	// replica may rescue it. Only on PostgreSQL: SQLite is one process, whose own jobs nobody
	// else rescues, and whose one connection a long statement may hold past the bound.
	selfFence bool
	// frozen stops the renewals, as if the process had stopped (tests).
	frozen atomic.Bool
}

var _ rivertype.WorkerMiddleware = (*leases)(nil)

func newLeases(st *store.Store, l Lease, log *slog.Logger) *leases {
	return &leases{st: st, l: l, log: log, selfFence: st.Dialect() == store.Postgres}
}

// Work takes the job's lease, renews it while the job runs, and drops it at the end. A job
// whose lease is lost has its context cancelled with errLeaseLost as the cause.
func (m *leases) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	if err := m.st.JobLeases().Take(ctx, job.ID, job.Attempt); err != nil {
		return fmt.Errorf("job lease: %w", err)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { m.renew(ctx, job, cancel, done) })
	err := doInner(ctx)
	close(done)
	wg.Wait()
	lost := errors.Is(context.Cause(ctx), errLeaseLost)
	if !lost {
		m.st.JobLeases().Drop(context.WithoutCancel(ctx), job.ID, job.Attempt) // note: best effort; a later attempt replaces it
	}
	if lost {
		// note: River records this end on the job's row, which may by now be a later attempt's;
		// what the jobs work on (releases, imports, figures) is idempotent, so an attempt more
		// finds its work done or ended and does nothing
		m.log.Warn("job lease lost", "job", job.ID, "kind", job.Kind, "attempt", job.Attempt, "err", err)
		return errors.Join(errLeaseLost, err)
	}
	return err
}

// renew renews the lease every heartbeat until done. A renewal that finds the lease taken by
// another attempt cancels the job; so does (with selfFence) half the bound without a renewal.
func (m *leases) renew(ctx context.Context, job *rivertype.JobRow, cancel context.CancelCauseFunc, done <-chan struct{}) {
	t := time.NewTicker(m.l.Heartbeat)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		if m.frozen.Load() {
			continue
		}
		rctx, stop := context.WithTimeout(context.WithoutCancel(ctx), m.l.Heartbeat)
		ok, err := m.st.JobLeases().Renew(rctx, job.ID, job.Attempt)
		stop()
		switch {
		case err == nil && ok:
			last = time.Now()
		case err == nil:
			cancel(errLeaseLost)
			return
		case m.selfFence && time.Since(last) > m.l.Bound/2:
			cancel(errLeaseLost)
			return
		}
	}
}

// reaper rescues the running jobs of other replicas whose leases were not renewed in time.
type reaper[TTx any] struct {
	client  *river.Client[TTx]
	st      *store.Store
	l       *leases
	abandon func(ctx context.Context, job *rivertype.JobRow) error
	log     *slog.Logger

	frozen atomic.Bool
	quit   chan struct{}
	done   chan struct{}
	once   sync.Once
}

func newReaper[TTx any](client *river.Client[TTx], d Deps, l *leases) *reaper[TTx] {
	return &reaper[TTx]{client: client, st: d.Store, l: l, log: l.log, abandon: abandoner(d),
		quit: make(chan struct{}), done: make(chan struct{})}
}

func (r *reaper[TTx]) run() {
	defer close(r.done)
	t := time.NewTicker(r.l.l.Reap)
	defer t.Stop()
	for {
		select {
		case <-r.quit:
			return
		case <-t.C:
		}
		if r.frozen.Load() {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), r.l.l.Reap+r.l.l.Bound)
		if err := r.reap(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("looking for jobs with lost leases", "err", err)
		}
		cancel()
	}
}

func (r *reaper[TTx]) stop() {
	r.once.Do(func() { close(r.quit) })
	<-r.done
}

// reap rescues every running job of another replica (or of an earlier process) whose lease was
// last renewed, or which started without taking one, longer than the bound ago.
func (r *reaper[TTx]) reap(ctx context.Context) error {
	res, err := r.client.JobList(ctx, river.NewJobListParams().States(rivertype.JobStateRunning).First(1000))
	if err != nil {
		return err
	}
	ids := make([]int64, len(res.Jobs))
	for i, j := range res.Jobs {
		ids[i] = j.ID
	}
	held, err := r.st.JobLeases().Of(ctx, ids)
	if err != nil {
		return err
	}
	now := time.Now()
	for _, j := range res.Jobs {
		if j.AttemptedAt == nil || len(j.AttemptedBy) > 0 && j.AttemptedBy[len(j.AttemptedBy)-1] == r.client.ID() {
			continue // note: this replica's own jobs renew their leases in this process
		}
		since := *j.AttemptedAt
		if l, ok := held[j.ID]; ok && l.Attempt == j.Attempt {
			since = l.BeatAt
		}
		if now.Sub(since) < r.l.l.Bound {
			continue
		}
		if err := r.rescue(ctx, j, now.Sub(since)); err != nil {
			return err
		}
	}
	return nil
}

// rescue makes a job whose lease was lost available again at once, or, with no attempt left,
// discards it and ends what it was working on as failed.
func (r *reaper[TTx]) rescue(ctx context.Context, j *rivertype.JobRow, silent time.Duration) error {
	now := time.Now().UTC()
	msg := fmt.Sprintf("the replica working this job stopped: its lease was not renewed for %s", silent.Round(time.Second))
	e, err := json.Marshal(rivertype.AttemptError{At: now, Attempt: j.Attempt, Error: msg})
	if err != nil {
		return err
	}
	state, finalized := rivertype.JobStateAvailable, (*time.Time)(nil)
	if j.Attempt >= j.MaxAttempts {
		state, finalized = rivertype.JobStateDiscarded, &now
	}
	// note: the horizon is just after this attempt began, so a later attempt is never touched
	_, err = r.client.Driver().GetExecutor().JobRescueMany(ctx, &riverdriver.JobRescueManyParams{
		ID: []int64{j.ID}, Error: [][]byte{e}, FinalizedAt: []*time.Time{finalized}, ScheduledAt: []time.Time{now},
		State: []string{string(state)}, StuckHorizon: j.AttemptedAt.Add(time.Millisecond), Schema: r.client.Schema()})
	if err != nil {
		return fmt.Errorf("rescue job %d: %w", j.ID, err)
	}
	r.log.Warn("rescued a job whose replica stopped", "job", j.ID, "kind", j.Kind, "attempt", j.Attempt, "state", state, "silent", silent)
	if state == rivertype.JobStateDiscarded {
		return r.abandon(ctx, j)
	}
	return nil
}

// abandoner ends the release or import of a job that will not run again as failed.
func abandoner(d Deps) func(ctx context.Context, job *rivertype.JobRow) error {
	return func(ctx context.Context, job *rivertype.JobRow) error {
		switch job.Kind {
		case ReleaseArgs{}.Kind():
			var a ReleaseArgs
			if err := json.Unmarshal(job.EncodedArgs, &a); err != nil || d.Releases == nil {
				return err
			}
			return d.Releases.Interrupted(ctx, a.ReleaseID)
		case ImportArgs{}.Kind():
			var a ImportArgs
			if err := json.Unmarshal(job.EncodedArgs, &a); err != nil {
				return err
			}
			return d.Imports.Interrupted(ctx, a.ImportID)
		}
		return nil
	}
}
