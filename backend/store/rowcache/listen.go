package rowcache

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// channel is the PostgreSQL notification channel on which replicas tell each other that rows
// they cache changed ("<schema> <nonce>") and acknowledge that they forgot them ("<schema> ack
// <nonce>"). Deployments in other schemas of one database ignore each other.
const channel = "arbiter_changes"

// listenerName is the application name of a deployment's listener connections: writers count
// the listeners by it to know how many acknowledgements to await.
func listenerName(schema string) string { return "arbiter-cache " + schema }

// Querier is what Notify sends through: a pool or a transaction.
type Querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// notify counts the listening replicas of schema and tells them that cached rows changed;
// inside a transaction the notification is delivered when it commits, and not at all when it
// rolls back.
func (c *Cache) notify(ctx context.Context, q Querier, schema string) (change, error) {
	ch := change{nonce: uuid.Must(uuid.NewV7()).String()}
	if !c.expect(ch.nonce) {
		ch.nonce = "" // note: nobody to wait for; the other replicas are still told
	}
	err := q.QueryRowContext(ctx, `SELECT pg_notify($1, $2)::text, (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $3)`,
		channel, schema+" "+ch.nonce, listenerName(schema)).Scan(new(string), &ch.listeners)
	if err != nil {
		c.forget(ch.nonce)
		return ch, fmt.Errorf("notify replicas of a change: %w", err)
	}
	return ch, nil
}

// Listen keeps a connection of its own to the database at url listening for changes to
// schema while ctx lives, and closes done when it ends. While it is connected the cache may
// serve rows; when the connection drops, the cache is cleared and bypassed until it is back
// (notifications may have been missed meanwhile).
func (c *Cache) Listen(ctx context.Context, url, schema string, done chan<- struct{}) {
	defer close(done)
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		connected, _ := c.listenOnce(ctx, url, schema)
		c.setLive(false)
		if ctx.Err() != nil {
			return
		}
		if connected {
			backoff = 100 * time.Millisecond
		} else {
			backoff = min(backoff*2, 5*time.Second)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
	}
}

// listenOnce connects, listens and clears the cache on every notification until the
// connection fails or ctx ends; connected says whether it got as far as listening.
func (c *Cache) listenOnce(ctx context.Context, url, schema string) (connected bool, err error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return false, err
	}
	cfg.RuntimeParams["application_name"] = listenerName(schema)
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return false, err
	}
	c.setLive(true)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true, err
		}
		if reply := c.hear(schema, n.Payload); reply != "" {
			if _, err := conn.Exec(ctx, "SELECT pg_notify($1, $2)", channel, reply); err != nil {
				return true, err
			}
		}
	}
}

// hear handles one notification payload for schema: a change clears the cache and is answered
// with the acknowledgement returned; an acknowledgement is counted for its writer.
func (c *Cache) hear(schema, payload string) (reply string) {
	sch, rest, _ := strings.Cut(payload, " ")
	if sch != schema {
		return ""
	}
	if nonce, ok := strings.CutPrefix(rest, "ack "); ok {
		c.acked(nonce)
		return ""
	}
	c.heard()
	if rest == "" {
		return ""
	}
	return schema + " ack " + rest
}
