// Package hooks keeps the rows of a project's webhooks and of their deliveries, in the tables
// webhooks and webhook_deliveries. It runs plain SQL on the store's transaction or pool, the
// same on SQLite and PostgreSQL; the rules (which events, signing, retries) live in package
// webhooks.
package hooks

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// ErrNotFound is a webhook or delivery that does not exist in the project.
var ErrNotFound = errors.New("webhook not found")

// Querier runs statements: a *sql.Tx, or a *sql.DB outside transactions.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// DB is where the rows are: a transaction or the pool, and whether it is PostgreSQL (whose
// placeholders are $1, $2, ...).
type DB struct {
	Q        Querier
	Postgres bool
}

// Webhook is one target of a project's events.
type Webhook struct {
	ID        string
	ProjectID string
	URL       string
	Events    []string
	Secret    string
	Enabled   bool
	CreatedBy *string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Delivery is one event sent (or being sent) to one webhook.
type Delivery struct {
	ID             string
	WebhookID      string
	Event          string
	Payload        string
	Status         string
	Attempts       int
	LastError      *string
	ResponseStatus *int
	CreatedAt      time.Time
	UpdatedAt      time.Time
	DeliveredAt    *time.Time
}

// The states of a delivery.
const (
	StatusPending   = "pending"   // queued or between attempts
	StatusDelivered = "delivered" // the receiver answered 2xx
	StatusFailed    = "failed"    // no attempt is left, or the webhook is gone or disabled
)

// NewID returns a new row id, time-ordered.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

func now() time.Time { return time.Now().UTC() }

// bind rewrites ? placeholders as $n for PostgreSQL.
func (d DB) bind(q string) string {
	if !d.Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (d DB) exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := d.Q.ExecContext(ctx, d.bind(q), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

const webhookCols = "id, project_id, url, events, secret, enabled, created_by, created_at, updated_at"

func scanWebhooks(rows *sql.Rows, err error) ([]Webhook, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Webhook{}
	for rows.Next() {
		var w Webhook
		var events string
		if err := rows.Scan(&w.ID, &w.ProjectID, &w.URL, &events, &w.Secret, &w.Enabled, &w.CreatedBy, &w.CreatedAt, &w.UpdatedAt); err != nil {
			return nil, err
		}
		w.Events = splitEvents(events)
		w.CreatedAt, w.UpdatedAt = w.CreatedAt.UTC(), w.UpdatedAt.UTC()
		out = append(out, w)
	}
	return out, rows.Err()
}

func splitEvents(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

// CreateWebhook writes a new webhook, filling its id and times.
func (d DB) CreateWebhook(ctx context.Context, w *Webhook) error {
	w.ID, w.CreatedAt = NewID(), now()
	w.UpdatedAt = w.CreatedAt
	_, err := d.exec(ctx, "INSERT INTO webhooks ("+webhookCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		w.ID, w.ProjectID, w.URL, strings.Join(w.Events, ","), w.Secret, w.Enabled, w.CreatedBy, w.CreatedAt, w.UpdatedAt)
	return err
}

// Webhooks lists a project's webhooks, oldest first.
func (d DB) Webhooks(ctx context.Context, projectID string) ([]Webhook, error) {
	return scanWebhooks(d.Q.QueryContext(ctx, d.bind("SELECT "+webhookCols+" FROM webhooks WHERE project_id = ? ORDER BY created_at, id"), projectID))
}

// Webhook reads one webhook of a project; projectID "" reads it whatever its project.
func (d DB) Webhook(ctx context.Context, projectID, id string) (*Webhook, error) {
	q, args := "SELECT "+webhookCols+" FROM webhooks WHERE id = ?", []any{id}
	if projectID != "" {
		q, args = q+" AND project_id = ?", append(args, projectID)
	}
	ws, err := scanWebhooks(d.Q.QueryContext(ctx, d.bind(q), args...))
	if err != nil {
		return nil, err
	}
	if len(ws) == 0 {
		return nil, ErrNotFound
	}
	return &ws[0], nil
}

// UpdateWebhook writes a webhook's url, events, enabled flag and secret.
func (d DB) UpdateWebhook(ctx context.Context, w *Webhook) error {
	w.UpdatedAt = now()
	n, err := d.exec(ctx, "UPDATE webhooks SET url = ?, events = ?, enabled = ?, secret = ?, updated_at = ? WHERE id = ? AND project_id = ?",
		w.URL, strings.Join(w.Events, ","), w.Enabled, w.Secret, w.UpdatedAt, w.ID, w.ProjectID)
	if err == nil && n == 0 {
		return ErrNotFound
	}
	return err
}

// DeleteWebhook removes a webhook with its deliveries.
func (d DB) DeleteWebhook(ctx context.Context, projectID, id string) error {
	if _, err := d.exec(ctx, "DELETE FROM webhook_deliveries WHERE webhook_id IN (SELECT id FROM webhooks WHERE id = ? AND project_id = ?)", id, projectID); err != nil {
		return err
	}
	n, err := d.exec(ctx, "DELETE FROM webhooks WHERE id = ? AND project_id = ?", id, projectID)
	if err == nil && n == 0 {
		return ErrNotFound
	}
	return err
}

// Enabled lists the enabled webhooks of a project.
func (d DB) Enabled(ctx context.Context, projectID string) ([]Webhook, error) {
	return scanWebhooks(d.Q.QueryContext(ctx, d.bind("SELECT "+webhookCols+" FROM webhooks WHERE project_id = ? AND enabled = ? ORDER BY id"), projectID, true))
}

const deliveryCols = "id, webhook_id, event, payload, status, attempts, last_error, response_status, created_at, updated_at, delivered_at"

func scanDeliveries(rows *sql.Rows, err error) ([]Delivery, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Delivery{}
	for rows.Next() {
		var v Delivery
		var status sql.NullInt64
		if err := rows.Scan(&v.ID, &v.WebhookID, &v.Event, &v.Payload, &v.Status, &v.Attempts, &v.LastError, &status, &v.CreatedAt, &v.UpdatedAt, &v.DeliveredAt); err != nil {
			return nil, err
		}
		if status.Valid {
			s := int(status.Int64)
			v.ResponseStatus = &s
		}
		v.CreatedAt, v.UpdatedAt = v.CreatedAt.UTC(), v.UpdatedAt.UTC()
		if v.DeliveredAt != nil {
			t := v.DeliveredAt.UTC()
			v.DeliveredAt = &t
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// CreateDelivery writes a pending delivery to a webhook that is there and enabled; its id is
// set by the caller (it is in the payload). False: the webhook is gone or disabled, and
// nothing was written.
func (d DB) CreateDelivery(ctx context.Context, v *Delivery) (bool, error) {
	v.CreatedAt, v.Status = now(), StatusPending
	v.UpdatedAt = v.CreatedAt
	// note: PostgreSQL types the parameters of a SELECT list as text unless told
	ts := "?"
	if d.Postgres {
		ts = "CAST(? AS TIMESTAMP)"
	}
	n, err := d.exec(ctx, "INSERT INTO webhook_deliveries ("+deliveryCols+") SELECT ?, ?, ?, ?, ?, 0, NULL, NULL, "+ts+", "+ts+", NULL"+
		" WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ? AND enabled = ?)",
		v.ID, v.WebhookID, v.Event, v.Payload, v.Status, v.CreatedAt, v.UpdatedAt, v.WebhookID, true)
	return n == 1, err
}

// Delivery reads one delivery.
func (d DB) Delivery(ctx context.Context, id string) (*Delivery, error) {
	vs, err := scanDeliveries(d.Q.QueryContext(ctx, d.bind("SELECT "+deliveryCols+" FROM webhook_deliveries WHERE id = ?"), id))
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, ErrNotFound
	}
	return &vs[0], nil
}

// Deliveries lists a webhook's deliveries, newest first, at most limit.
func (d DB) Deliveries(ctx context.Context, webhookID string, limit int) ([]Delivery, error) {
	return scanDeliveries(d.Q.QueryContext(ctx, d.bind("SELECT "+deliveryCols+" FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC, id DESC LIMIT ?"), webhookID, limit))
}

// Attempt is the outcome of one attempt at a delivery.
type Attempt struct {
	Status         string
	Error          *string
	ResponseStatus *int
}

// RecordAttempt counts one more attempt at a delivery and writes its outcome.
func (d DB) RecordAttempt(ctx context.Context, id string, a Attempt) error {
	t := now()
	var delivered *time.Time
	if a.Status == StatusDelivered {
		delivered = &t
	}
	_, err := d.exec(ctx, "UPDATE webhook_deliveries SET attempts = attempts + 1, status = ?, last_error = ?, response_status = ?, updated_at = ?, delivered_at = ? WHERE id = ?",
		a.Status, a.Error, a.ResponseStatus, t, delivered, id)
	return err
}

// EndDelivery marks a delivery failed without an attempt (its webhook is gone or disabled).
func (d DB) EndDelivery(ctx context.Context, id, reason string) error {
	_, err := d.exec(ctx, "UPDATE webhook_deliveries SET status = ?, last_error = ?, updated_at = ? WHERE id = ?", StatusFailed, reason, now(), id)
	return err
}
