// Package jobs runs background work (imports, and later exports and agreement runs) on a job
// queue kept in the database, so any replica may pick up any job. It uses River with its
// PostgreSQL or SQLite driver, whichever the store uses.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// ImportArgs is the job that works one background import.
type ImportArgs struct {
	ImportID string `json:"import_id"`
}

// Kind names the job type in the queue.
func (ImportArgs) Kind() string { return "import" }

// InsertOpts bounds retries: an import that fails three times stays failed with its error.
func (ImportArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 3} }

type importWorker struct {
	river.WorkerDefaults[ImportArgs]
	flow  *workflow.Service
	blobs blob.Store
}

func (w *importWorker) Work(ctx context.Context, job *river.Job[ImportArgs]) error {
	return w.flow.RunImport(ctx, w.blobs, job.Args.ImportID)
}

// Timeout lets a large import run as long as it needs.
func (w *importWorker) Timeout(*river.Job[ImportArgs]) time.Duration { return -1 }

// Runner enqueues and works jobs.
type Runner interface {
	// EnqueueImport queues the import with the given id.
	EnqueueImport(ctx context.Context, importID string) error
	// Stop waits for running jobs to finish, or for ctx to end.
	Stop(ctx context.Context) error
}

// Deps are what the workers need.
type Deps struct {
	Store       *store.Store
	DatabaseURL string // for PostgreSQL, River gets a pgx pool of its own
	Flow        *workflow.Service
	Blobs       blob.Store
	Log         *slog.Logger
	Workers     int
}

// Start migrates River's tables and starts working jobs.
func Start(ctx context.Context, d Deps) (Runner, error) {
	workers := river.NewWorkers()
	river.AddWorker(workers, &importWorker{flow: d.Flow, blobs: d.Blobs})
	cfg := &river.Config{
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: max(d.Workers, 1)}},
		Workers:           workers,
		Logger:            d.Log,
		FetchPollInterval: 200 * time.Millisecond,
		JobTimeout:        -1,
	}
	if d.Store.Dialect() == store.Postgres {
		pool, err := pgxpool.New(ctx, d.DatabaseURL)
		if err != nil {
			return nil, fmt.Errorf("job queue: %w", err)
		}
		r, err := start(ctx, riverpgxv5.New(pool), cfg)
		if err != nil {
			pool.Close()
			return nil, err
		}
		r.closeFn = pool.Close
		return r, nil
	}
	return start(ctx, riversqlite.New(d.Store.SQL()), cfg)
}

type runner[TTx any] struct {
	client  *river.Client[TTx]
	closeFn func()
}

func start[TTx any](ctx context.Context, driver riverdriver.Driver[TTx], cfg *river.Config) (*runner[TTx], error) {
	m, err := rivermigrate.New(driver, nil)
	if err != nil {
		return nil, fmt.Errorf("job queue migrations: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return nil, fmt.Errorf("job queue migrations: %w", err)
	}
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("job queue: %w", err)
	}
	if err := client.Start(ctx); err != nil {
		return nil, fmt.Errorf("job queue: %w", err)
	}
	return &runner[TTx]{client: client}, nil
}

func (r *runner[TTx]) EnqueueImport(ctx context.Context, id string) error {
	_, err := r.client.Insert(ctx, ImportArgs{ImportID: id}, nil)
	return err
}

func (r *runner[TTx]) Stop(ctx context.Context) error {
	err := r.client.Stop(ctx)
	if r.closeFn != nil {
		r.closeFn()
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
