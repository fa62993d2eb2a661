// Package webhooks posts a project's events to the URLs its leads registered, signed as the
// Standard Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature). The
// packages where events happen call a Notifier in the transaction of the change; each delivery
// is a row and a job of the job queue, retried with exponential backoff, so a delivery is made
// at least once even when the replica making it dies.
package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/store/hooks"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// The events a webhook may take.
const (
	ReleaseCompleted       = "release.completed"
	ReleaseFailed          = "release.failed"
	CalibrationRoundClosed = "calibration_round.closed"
	ItemDecided            = "item.decided"
	ImportCompleted        = "import.completed"
	AnnotatorFlagged       = "annotator.flagged"
)

// Events lists every event, in the order the API documents them.
var Events = []string{ReleaseCompleted, ReleaseFailed, CalibrationRoundClosed, ItemDecided, ImportCompleted, AnnotatorFlagged}

// Event is something that happened in a project. Data holds the ids a receiver needs; the
// project's id is added to it.
type Event struct {
	Type      string
	ProjectID string
	Data      map[string]any
}

// Notifier is what the packages where events happen call, in the store transaction of the
// change when there is one (tx then is that transaction), so that the delivery is queued if and
// only if the change is committed.
type Notifier interface {
	Notify(ctx context.Context, tx *store.Store, ev Event) error
}

// Off is the Notifier of a server without webhooks: it sends nothing.
type Off struct{}

// Notify does nothing.
func (Off) Notify(context.Context, *store.Store, Event) error { return nil }

// Enqueuer queues the job that makes one delivery, in the store transaction tx.
type Enqueuer interface {
	EnqueueDelivery(ctx context.Context, tx *store.Store, deliveryID string) error
}

// MaxAttempts is how many times a delivery is tried before it ends failed.
const MaxAttempts = 8

// AttemptTimeout bounds one attempt: connecting, sending and reading the answer's head.
const AttemptTimeout = 20 * time.Second

// PerWebhook is how many deliveries to one webhook one replica makes at once; more wait.
const PerWebhook = 4

// DefaultBackoff is the wait after the first failed attempt; each later one waits four times
// the one before: 5 s, 20 s, 80 s, 5 min, 21 min, 85 min, 5.7 h (about 7.5 h in all).
const DefaultBackoff = 5 * time.Second

// knownFor is how long a replica trusts what it read of a project's enabled webhooks, so that
// events of projects without any cost no statement; a webhook made or changed on another
// replica gets that replica's events at most this long after.
const knownFor = 5 * time.Second

// Deps are what the service needs.
type Deps struct {
	Store *store.Store
	// AllowPrivate lets webhooks target loopback and private networks (--webhook-allow-private).
	AllowPrivate bool
	// Backoff is the wait after the first failed attempt; 0: DefaultBackoff.
	Backoff time.Duration
	// Lookup resolves host names; nil: the system's resolver.
	Lookup Lookup
}

// Service owns a project's webhooks and makes their deliveries.
type Service struct {
	store        *store.Store
	jobs         Enqueuer
	allowPrivate bool
	backoff      time.Duration
	lookup       Lookup
	client       *httpClient

	mu    sync.Mutex
	known map[string]knownHooks // project id → its enabled webhooks, as last read
	busy  map[string]int        // webhook id → deliveries in flight in this process
}

// knownHooks are a project's enabled webhooks as read at a time.
type knownHooks struct {
	at    time.Time
	hooks []knownHook
}

type knownHook struct {
	id     string
	events []string
}

// New returns the service; UseJobs wires the job queue once it exists.
func New(d Deps) *Service {
	s := &Service{store: d.Store, allowPrivate: d.AllowPrivate, backoff: d.Backoff, lookup: d.Lookup,
		known: map[string]knownHooks{}, busy: map[string]int{}}
	if s.backoff <= 0 {
		s.backoff = DefaultBackoff
	}
	if s.lookup == nil {
		s.lookup = defaultLookup
	}
	s.client = newHTTPClient(s)
	return s
}

// UseJobs lets the service queue deliveries.
func (s *Service) UseJobs(e Enqueuer) { s.jobs = e }

// db is the rows of tx: its transaction, or the pool.
func db(tx *store.Store) hooks.DB {
	pg := tx.Dialect() == store.Postgres
	if q, ok := tx.SQLTx(); ok {
		return hooks.DB{Q: q, Postgres: pg}
	}
	return hooks.DB{Q: tx.SQL(), Postgres: pg}
}

// Input is a new webhook, or the fields a change sets (nil: unchanged).
type Input struct {
	URL     *string  `json:"url"`
	Events  []string `json:"events"`
	Enabled *bool    `json:"enabled"`
}

// View is a webhook as the API shows it: never its secret.
type View struct {
	ID        string    `json:"id"`
	ProjectID string    `json:"project_id"`
	URL       string    `json:"url"`
	Events    []string  `json:"events"`
	Enabled   bool      `json:"enabled"`
	CreatedBy *string   `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func viewOf(w *hooks.Webhook) View {
	return View{ID: w.ID, ProjectID: w.ProjectID, URL: w.URL, Events: w.Events, Enabled: w.Enabled, CreatedBy: w.CreatedBy,
		CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
}

// Created is a webhook with its secret, answered once: at creation and at rotation.
type Created struct {
	View
	Secret string `json:"secret"`
}

// DeliveryView is one delivery in a webhook's log.
type DeliveryView struct {
	ID             string     `json:"id"`
	WebhookID      string     `json:"webhook_id"`
	Event          string     `json:"event"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	LastError      *string    `json:"last_error"`
	ResponseStatus *int       `json:"response_status"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	DeliveredAt    *time.Time `json:"delivered_at"`
}

// validate checks the events and the URL of a webhook.
func (s *Service) validate(ctx context.Context, in Input, creating bool) error {
	fe := tasks.FieldErrors{}
	if in.Events != nil || creating {
		if len(in.Events) == 0 {
			fe.Add("events", "required", "name at least one event: %v", Events)
		}
		for i, e := range in.Events {
			if !slices.Contains(Events, e) {
				fe.Add(fmt.Sprintf("events[%d]", i), "unknown_event", "unknown event %q; the events are %v", e, Events)
			} else if slices.Index(in.Events, e) < i {
				fe.Add(fmt.Sprintf("events[%d]", i), "duplicate", "event %q is named twice", e)
			}
		}
	}
	if in.URL == nil && creating {
		fe.Add("url", "required", "the url is required")
	} else if in.URL != nil {
		if err := s.checkURL(ctx, *in.URL); err != nil {
			for k, v := range err.(tasks.FieldErrors) {
				fe[k] = v
			}
		}
	}
	return fe.Err()
}

// forget drops what this replica knows of a project's webhooks.
func (s *Service) forget(projectID string) {
	s.mu.Lock()
	delete(s.known, projectID)
	s.mu.Unlock()
}

// List lists a project's webhooks, without their secrets.
func (s *Service) List(ctx context.Context, projectID string) ([]View, error) {
	ws, err := db(s.store).Webhooks(ctx, projectID)
	out := make([]View, len(ws))
	for i := range ws {
		out[i] = viewOf(&ws[i])
	}
	return out, err
}

// Create registers a webhook and answers it with its new secret.
func (s *Service) Create(ctx context.Context, projectID, actorID string, in Input) (*Created, error) {
	if err := s.validate(ctx, in, true); err != nil {
		return nil, err
	}
	w := hooks.Webhook{ProjectID: projectID, URL: *in.URL, Events: in.Events, Secret: NewSecret(), Enabled: in.Enabled == nil || *in.Enabled}
	if actorID != "" {
		w.CreatedBy = &actorID
	}
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := db(tx).CreateWebhook(ctx, &w); err != nil {
			return err
		}
		return tx.Audit(ctx, projectID, actorID, "webhook.create", "webhook:"+w.ID, nil, map[string]any{"url": w.URL, "events": w.Events})
	})
	s.forget(projectID)
	if err != nil {
		return nil, err
	}
	return &Created{View: viewOf(&w), Secret: w.Secret}, nil
}

// missing names a webhook that is not there.
func missing(err error) error {
	if err == hooks.ErrNotFound {
		return &store.NotFoundError{What: "webhook"}
	}
	return err
}

// Update changes a webhook's url, events or enabled flag.
func (s *Service) Update(ctx context.Context, projectID, actorID, id string, in Input) (*View, error) {
	if err := s.validate(ctx, in, false); err != nil {
		return nil, err
	}
	var w *hooks.Webhook
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		var err error
		if w, err = db(tx).Webhook(ctx, projectID, id); err != nil {
			return missing(err)
		}
		before := map[string]any{"url": w.URL, "events": w.Events, "enabled": w.Enabled}
		if in.URL != nil {
			w.URL = *in.URL
		}
		if in.Events != nil {
			w.Events = in.Events
		}
		if in.Enabled != nil {
			w.Enabled = *in.Enabled
		}
		if err := db(tx).UpdateWebhook(ctx, w); err != nil {
			return missing(err)
		}
		return tx.Audit(ctx, projectID, actorID, "webhook.update", "webhook:"+w.ID, before, map[string]any{"url": w.URL, "events": w.Events, "enabled": w.Enabled})
	})
	s.forget(projectID)
	if err != nil {
		return nil, err
	}
	v := viewOf(w)
	return &v, nil
}

// Rotate gives a webhook a new secret and answers it, once; deliveries from now on are signed
// with it.
func (s *Service) Rotate(ctx context.Context, projectID, actorID, id string) (*Created, error) {
	var w *hooks.Webhook
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		var err error
		if w, err = db(tx).Webhook(ctx, projectID, id); err != nil {
			return missing(err)
		}
		w.Secret = NewSecret()
		if err := db(tx).UpdateWebhook(ctx, w); err != nil {
			return err
		}
		return tx.Audit(ctx, projectID, actorID, "webhook.rotate", "webhook:"+w.ID, nil, nil)
	})
	if err != nil {
		return nil, err
	}
	return &Created{View: viewOf(w), Secret: w.Secret}, nil
}

// Delete removes a webhook and its delivery log; its queued deliveries end without an attempt.
func (s *Service) Delete(ctx context.Context, projectID, actorID, id string) error {
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := db(tx).DeleteWebhook(ctx, projectID, id); err != nil {
			return missing(err)
		}
		return tx.Audit(ctx, projectID, actorID, "webhook.delete", "webhook:"+id, nil, nil)
	})
	s.forget(projectID)
	return err
}

// DeliveryLimit is how many of its latest deliveries a webhook's log shows.
const DeliveryLimit = 100

// Deliveries lists a webhook's latest deliveries, newest first.
func (s *Service) Deliveries(ctx context.Context, projectID, id string) ([]DeliveryView, error) {
	d := db(s.store)
	if _, err := d.Webhook(ctx, projectID, id); err != nil {
		return nil, missing(err)
	}
	vs, err := d.Deliveries(ctx, id, DeliveryLimit)
	out := make([]DeliveryView, len(vs))
	for i, v := range vs {
		out[i] = DeliveryView{ID: v.ID, WebhookID: v.WebhookID, Event: v.Event, Status: v.Status, Attempts: v.Attempts, LastError: v.LastError,
			ResponseStatus: v.ResponseStatus, CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt, DeliveredAt: v.DeliveredAt}
	}
	return out, err
}

// Payload is the body of every delivery.
type Payload struct {
	Type      string         `json:"type"`
	Timestamp time.Time      `json:"timestamp"`
	Data      map[string]any `json:"data"`
}

// Notify queues a delivery of the event to each enabled webhook of its project that takes it,
// in tx's transaction (or a transaction of its own). What this replica read of the project's
// enabled webhooks in the last knownFor is taken as it is, so an event of a project without
// one costs no statement, and one with webhooks a delivery row and a job per webhook taking it
// (on PostgreSQL River's insert may add a notification, at most one per queue and interval).
func (s *Service) Notify(ctx context.Context, tx *store.Store, ev Event) error {
	if s.jobs == nil || ev.Type == "" {
		return nil
	}
	ws, err := s.subscribed(ctx, tx, ev)
	if err != nil || len(ws) == 0 {
		return err
	}
	if _, ok := tx.SQLTx(); !ok {
		return tx.WithTx(ctx, func(tx *store.Store) error { return s.queue(ctx, tx, ev, ws) })
	}
	return s.queue(ctx, tx, ev, ws)
}

// subscribed lists the ids of the project's enabled webhooks that take the event, from what
// this replica read of them in the last knownFor.
func (s *Service) subscribed(ctx context.Context, tx *store.Store, ev Event) ([]string, error) {
	s.mu.Lock()
	k, ok := s.known[ev.ProjectID]
	s.mu.Unlock()
	if !ok || time.Since(k.at) >= knownFor {
		ws, err := db(tx).Enabled(ctx, ev.ProjectID)
		if err != nil {
			return nil, err
		}
		k = knownHooks{at: time.Now(), hooks: make([]knownHook, len(ws))}
		for i, w := range ws {
			k.hooks[i] = knownHook{id: w.ID, events: w.Events}
		}
		s.mu.Lock()
		s.known[ev.ProjectID] = k
		s.mu.Unlock()
	}
	var out []string
	for _, w := range k.hooks {
		if slices.Contains(w.events, ev.Type) {
			out = append(out, w.id)
		}
	}
	return out, nil
}

func (s *Service) queue(ctx context.Context, tx *store.Store, ev Event, webhookIDs []string) error {
	data := map[string]any{"project_id": ev.ProjectID}
	for k, v := range ev.Data {
		data[k] = v
	}
	body, err := json.Marshal(Payload{Type: ev.Type, Timestamp: time.Now().UTC().Truncate(time.Millisecond), Data: data})
	if err != nil {
		return err
	}
	for _, id := range webhookIDs {
		d := hooks.Delivery{ID: "msg_" + hooks.NewID(), WebhookID: id, Event: ev.Type, Payload: string(body)}
		// note: a webhook deleted or disabled on another replica since this one read them is
		// skipped here
		if made, err := db(tx).CreateDelivery(ctx, &d); err != nil || !made {
			if err != nil {
				return err
			}
			continue
		}
		if err := s.jobs.EnqueueDelivery(ctx, tx, d.ID); err != nil {
			return err
		}
	}
	return nil
}

// ReleaseEnded is the event of a release that ended: release.completed with its manifest's
// path and the API routes of the release and of the manifest, or release.failed with its
// error. A release that cannot be read is no event (Notify sends nothing).
func ReleaseEnded(ctx context.Context, st *store.Store, releaseID string) Event {
	r, err := st.Release(context.WithoutCancel(ctx), "", releaseID)
	if err != nil || (r.Status != flow.ReleaseDone && r.Status != flow.ReleaseFailed) {
		return Event{}
	}
	base := "/api/v1/projects/" + r.ProjectID + "/releases/" + r.ID
	data := map[string]any{"release_id": r.ID, "name": r.Name, "release_url": base}
	if r.Status == flow.ReleaseFailed {
		data["error"] = r.Error
		return Event{Type: ReleaseFailed, ProjectID: r.ProjectID, Data: data}
	}
	data["manifest_path"] = manifestPath
	data["manifest_url"] = base + "/files/" + manifestPath
	return Event{Type: ReleaseCompleted, ProjectID: r.ProjectID, Data: data}
}

// manifestPath is where a release's manifest is among its files.
const manifestPath = "manifest.json"
