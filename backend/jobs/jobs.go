// Package jobs runs background work (imports and releases) on a job queue kept in the database, so any replica may pick up any job. It uses River with its
// PostgreSQL or SQLite driver, whichever the store uses.
package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
)

// ImportArgs is the job that works one background import.
type ImportArgs struct {
	ImportID string `json:"import_id"`
}

// Kind names the job type in the queue.
func (ImportArgs) Kind() string { return "import" }

// InsertOpts bounds retries: an import that fails three times stays failed with its error. Its
// queue is chosen when it is queued, by its size (see EnqueueImport).
func (ImportArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 3} }

type importWorker struct {
	river.WorkerDefaults[ImportArgs]
	imports *imports.Service
}

func (w *importWorker) Work(ctx context.Context, job *river.Job[ImportArgs]) error {
	return w.imports.RunImport(ctx, job.Args.ImportID)
}

// Timeout lets a large import run as long as it needs.
func (w *importWorker) Timeout(*river.Job[ImportArgs]) time.Duration { return -1 }

// ReleaseArgs is the job that writes one release.
type ReleaseArgs struct {
	ReleaseID string `json:"release_id"`
}

// Kind names the job type in the queue.
func (ReleaseArgs) Kind() string { return "release" }

// InsertOpts allows a second attempt only so that a release whose first run died (its replica
// was killed) is seen again and ended failed; a release never resumes. Releases are bulk work.
func (ReleaseArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 2, Queue: QueueBulk}
}

type releaseWorker struct {
	river.WorkerDefaults[ReleaseArgs]
	releases *releases.Service
}

func (w *releaseWorker) Work(ctx context.Context, job *river.Job[ReleaseArgs]) error {
	return w.releases.Run(ctx, job.Args.ReleaseID)
}

// Timeout lets a large release run as long as it needs.
func (w *releaseWorker) Timeout(*river.Job[ReleaseArgs]) time.Duration { return -1 }

// AgreementArgs is the job that refreshes a project's agreement figures.
type AgreementArgs struct {
	ProjectID string     `json:"project_id"`
	Stage     flow.Stage `json:"stage"`
}

// Kind names the job type in the queue.
func (AgreementArgs) Kind() string { return "agreement" }

// InsertOpts: a failed refresh is retried twice; the next request queues another anyway.
func (AgreementArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 3, Queue: QueueFigures}
}

type agreementWorker struct {
	river.WorkerDefaults[AgreementArgs]
	insight *insight.Service
}

func (w *agreementWorker) Work(ctx context.Context, job *river.Job[AgreementArgs]) error {
	return w.insight.RunAgreement(ctx, job.Args.ProjectID, job.Args.Stage)
}

// Timeout lets a large project's figures take as long as they need.
func (w *agreementWorker) Timeout(*river.Job[AgreementArgs]) time.Duration { return -1 }

// FiguresArgs is the job that refreshes a project's derived figures of one kind (balance,
// report, judges), kept as the agreement figures are.
type FiguresArgs struct {
	ProjectID string           `json:"project_id"`
	Figures   flow.FiguresKind `json:"figures"`
	Params    string           `json:"params,omitempty"`
}

// Kind names the job type in the queue.
func (FiguresArgs) Kind() string { return "figures" }

// InsertOpts: a failed refresh is retried twice; the next request queues another anyway.
func (FiguresArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 3, Queue: QueueFigures}
}

type figuresWorker struct {
	river.WorkerDefaults[FiguresArgs]
	insight *insight.Service
}

func (w *figuresWorker) Work(ctx context.Context, job *river.Job[FiguresArgs]) error {
	return w.insight.RunFigures(ctx, job.Args.ProjectID, job.Args.Figures, job.Args.Params)
}

// Timeout lets a large project's figures take as long as they need.
func (w *figuresWorker) Timeout(*river.Job[FiguresArgs]) time.Duration { return -1 }

// DeliveryArgs is the job that makes one webhook delivery.
type DeliveryArgs struct {
	DeliveryID string `json:"delivery_id"`
}

// Kind names the job type in the queue.
func (DeliveryArgs) Kind() string { return "webhook_delivery" }

// InsertOpts: a delivery is tried webhooks.MaxAttempts times, in a queue of its own so that
// slow receivers never hold up imports or releases.
func (DeliveryArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: webhooks.MaxAttempts, Queue: QueueWebhooks}
}

type deliveryWorker struct {
	river.WorkerDefaults[DeliveryArgs]
	hooks *webhooks.Service
}

func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[DeliveryArgs]) error {
	err := w.hooks.Deliver(ctx, job.Args.DeliveryID, job.Attempt >= job.MaxAttempts)
	if errors.Is(err, webhooks.ErrBusy) {
		return river.JobSnooze(time.Second)
	}
	return err
}

// NextRetry backs off exponentially (webhooks.Service.RetryAt).
func (w *deliveryWorker) NextRetry(job *river.Job[DeliveryArgs]) time.Time {
	return w.hooks.RetryAt(job.Attempt)
}

// Timeout is one attempt's bound, with a margin for recording it.
func (w *deliveryWorker) Timeout(*river.Job[DeliveryArgs]) time.Duration {
	return webhooks.AttemptTimeout + 10*time.Second
}

// MaintenanceArgs is the periodic job that does autovacuum's work where nothing else does
// (store.Maintain).
type MaintenanceArgs struct{}

// Kind names the job type in the queue.
func (MaintenanceArgs) Kind() string { return "maintenance" }

// InsertOpts: a failed run is not retried; the next period runs again.
func (MaintenanceArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 1} }

// MaintenanceEvery is how often the maintenance job runs: half of autovacuum's default nap.
const MaintenanceEvery = 30 * time.Second

type maintenanceWorker struct {
	river.WorkerDefaults[MaintenanceArgs]
	store *store.Store
	log   *slog.Logger
}

func (w *maintenanceWorker) Work(ctx context.Context, _ *river.Job[MaintenanceArgs]) error {
	done, err := w.store.Maintain(ctx)
	if len(done.Vacuumed)+len(done.Analyzed) > 0 && w.log != nil {
		w.log.Debug("tables maintained", "vacuumed", done.Vacuumed, "analyzed", done.Analyzed)
	}
	return err
}

// Runner enqueues and works jobs.
type Runner interface {
	imports.Enqueuer
	insight.Enqueuer
	releases.Enqueuer
	webhooks.Enqueuer
	// Stop waits for running jobs to finish, or for ctx to end.
	Stop(ctx context.Context) error
}

// The queues, each with workers of its own, so that small jobs never wait behind large ones:
// small imports and maintenance in river.QueueDefault, the figures leads read in QueueFigures,
// releases and large imports in QueueBulk, webhook deliveries in QueueWebhooks.
const (
	QueueFigures  = "figures"
	QueueBulk     = "bulk"
	QueueWebhooks = "webhooks"
)

// WebhookWorkers is how many webhook deliveries one replica makes at once.
const WebhookWorkers = 8

// BulkImportBytes is the size from which an import is bulk work.
const BulkImportBytes = 4 << 20

// Deps are what the workers need.
type Deps struct {
	Store       *store.Store
	DatabaseURL string // for PostgreSQL, the workers get a pgx pool of their own
	Imports     *imports.Service
	Insight     *insight.Service
	Releases    *releases.Service // nil: no release jobs are worked
	Webhooks    *webhooks.Service // nil: no webhook deliveries are made
	Log         *slog.Logger
	// Workers is how many jobs of each of QueueDefault and QueueBulk run at once (QueueFigures
	// runs one).
	Workers int
	// Lease is how running jobs prove that their replica lives; zero fields take DefaultLease.
	Lease Lease
}

// Start migrates River's tables and starts working jobs.
func Start(ctx context.Context, d Deps) (Runner, error) {
	workers := river.NewWorkers()
	river.AddWorker(workers, &importWorker{imports: d.Imports})
	river.AddWorker(workers, &agreementWorker{insight: d.Insight})
	river.AddWorker(workers, &figuresWorker{insight: d.Insight})
	if d.Releases != nil {
		river.AddWorker(workers, &releaseWorker{releases: d.Releases})
	}
	if d.Webhooks != nil {
		river.AddWorker(workers, &deliveryWorker{hooks: d.Webhooks})
	}
	log := d.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	leases := newLeases(d.Store, d.Lease.orDefault(), log)
	cfg := &river.Config{
		Queues: map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: max(d.Workers, 1)},
			QueueBulk:          {MaxWorkers: max(d.Workers, 1)},
			QueueFigures:       {MaxWorkers: 1},
			QueueWebhooks:      {MaxWorkers: WebhookWorkers},
		},
		Workers:           workers,
		Middleware:        []rivertype.Middleware{leases},
		Logger:            d.Log,
		FetchPollInterval: 200 * time.Millisecond,
		JobTimeout:        -1,
	}
	if d.Store.Dialect() == store.Postgres {
		// note: periodic jobs are queued by the elected leader only, so one replica maintains
		river.AddWorker(workers, &maintenanceWorker{store: d.Store, log: d.Log})
		cfg.PeriodicJobs = []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(MaintenanceEvery),
			func() (river.JobArgs, *river.InsertOpts) { return MaintenanceArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})}
		// note: workers listen for new jobs on a pgx pool of their own; jobs are inserted through
		// the store's database/sql pool, inside the transaction that writes the job's row
		pool, err := pgxpool.New(ctx, d.DatabaseURL)
		if err != nil {
			return nil, fmt.Errorf("job queue: %w", err)
		}
		r, err := start(ctx, riverpgxv5.New(pool), cfg, leases, d)
		if err != nil {
			pool.Close()
			return nil, err
		}
		inserter, err := river.NewClient(riverdatabasesql.New(d.Store.SQL()), &river.Config{Logger: d.Log})
		if err != nil {
			r.Stop(ctx)
			pool.Close()
			return nil, fmt.Errorf("job queue: %w", err)
		}
		return &split[pgx.Tx]{workers: r, inserter: inserter, closeFn: pool.Close}, nil
	}
	r, err := start(ctx, riversqlite.New(d.Store.SQL()), cfg, leases, d)
	if err != nil {
		return nil, err
	}
	return &split[*sql.Tx]{workers: r, inserter: r.client}, nil
}

// split works jobs with one client and inserts them with another that takes the store's
// database/sql transactions.
type split[TTx any] struct {
	workers  *runner[TTx]
	inserter *river.Client[*sql.Tx]
	closeFn  func()
}

// EnqueueImport queues an import, written in the store transaction tx, in that transaction:
// in QueueBulk from BulkImportBytes on, else in QueueDefault.
func (s *split[TTx]) EnqueueImport(ctx context.Context, tx *store.Store, id string) error {
	sqlTx, ok := tx.SQLTx()
	if !ok {
		return fmt.Errorf("job queue: enqueue needs a transaction")
	}
	im, err := tx.Import(ctx, "", id)
	if err != nil {
		return fmt.Errorf("job queue: %w", err)
	}
	opts := &river.InsertOpts{Queue: river.QueueDefault}
	if im.BytesTotal >= BulkImportBytes {
		opts.Queue = QueueBulk
	}
	_, err = s.inserter.InsertTx(ctx, sqlTx, ImportArgs{ImportID: id}, opts)
	return err
}

// EnqueueAgreement queues a refresh of a project's agreement figures in the store transaction tx.
func (s *split[TTx]) EnqueueAgreement(ctx context.Context, tx *store.Store, projectID string, stage flow.Stage) error {
	sqlTx, ok := tx.SQLTx()
	if !ok {
		return fmt.Errorf("job queue: enqueue needs a transaction")
	}
	_, err := s.inserter.InsertTx(ctx, sqlTx, AgreementArgs{ProjectID: projectID, Stage: stage}, nil)
	return err
}

// EnqueueFigures queues a refresh of a project's derived figures in the store transaction tx.
func (s *split[TTx]) EnqueueFigures(ctx context.Context, tx *store.Store, projectID string, kind flow.FiguresKind, params string) error {
	sqlTx, ok := tx.SQLTx()
	if !ok {
		return fmt.Errorf("job queue: enqueue needs a transaction")
	}
	_, err := s.inserter.InsertTx(ctx, sqlTx, FiguresArgs{ProjectID: projectID, Figures: kind, Params: params}, nil)
	return err
}

// EnqueueRelease queues a release in the store transaction tx.
func (s *split[TTx]) EnqueueRelease(ctx context.Context, tx *store.Store, id string) error {
	sqlTx, ok := tx.SQLTx()
	if !ok {
		return fmt.Errorf("job queue: enqueue needs a transaction")
	}
	_, err := s.inserter.InsertTx(ctx, sqlTx, ReleaseArgs{ReleaseID: id}, nil)
	return err
}

// EnqueueDelivery queues a webhook delivery in the store transaction tx.
func (s *split[TTx]) EnqueueDelivery(ctx context.Context, tx *store.Store, deliveryID string) error {
	sqlTx, ok := tx.SQLTx()
	if !ok {
		return fmt.Errorf("job queue: enqueue needs a transaction")
	}
	_, err := s.inserter.InsertTx(ctx, sqlTx, DeliveryArgs{DeliveryID: deliveryID}, nil)
	return err
}

func (s *split[TTx]) Stop(ctx context.Context) error {
	err := s.workers.Stop(ctx)
	if s.closeFn != nil {
		s.closeFn()
	}
	return err
}

type runner[TTx any] struct {
	client *river.Client[TTx]
	leases *leases
	reaper *reaper[TTx]
}

func start[TTx any](ctx context.Context, driver riverdriver.Driver[TTx], cfg *river.Config, l *leases, d Deps) (*runner[TTx], error) {
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
	rp := newReaper(client, d, l)
	go rp.run()
	return &runner[TTx]{client: client, leases: l, reaper: rp}, nil
}

func (r *runner[TTx]) Stop(ctx context.Context) error {
	r.reaper.stop()
	err := r.client.Stop(ctx)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
