package store

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// changesChannel is the PostgreSQL notification channel on which replicas tell each other
// that rows they cache changed ("<schema> <nonce>") and acknowledge that they forgot them
// ("<schema> ack <nonce>"). Deployments in other schemas of one database ignore each other.
const changesChannel = "arbiter_changes"

// listen keeps a connection of its own listening for changes while ctx lives. While it is
// connected the cache may serve rows; when the connection drops, the cache is cleared and
// bypassed until it is back (notifications may have been missed meanwhile).
func (s *Store) listen(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		connected, _ := s.listenOnce(ctx)
		s.cache.setLive(false)
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
func (s *Store) listenOnce(ctx context.Context) (connected bool, err error) {
	cfg, err := pgx.ParseConfig(s.url)
	if err != nil {
		return false, err
	}
	// note: writers count the listeners by this name to know how many acknowledgements to await
	cfg.RuntimeParams["application_name"] = s.listenerName()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+changesChannel); err != nil {
		return false, err
	}
	s.cache.setLive(true)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true, err
		}
		schema, rest, _ := strings.Cut(n.Payload, " ")
		if schema != s.schema {
			continue
		}
		if nonce, ok := strings.CutPrefix(rest, "ack "); ok {
			s.cache.acked(nonce)
			continue
		}
		s.cache.heard()
		if rest != "" {
			if _, err := conn.Exec(ctx, "SELECT pg_notify($1, $2)", changesChannel, s.schema+" ack "+rest); err != nil {
				return true, err
			}
		}
	}
}

// listenerName is the application name of this deployment's listener connections.
func (s *Store) listenerName() string { return "arbiter-cache " + s.schema }

// currentSchema is the schema the store's tables are in (the first of its search_path).
func (s *Store) currentSchema(ctx context.Context) (string, error) {
	var schema string
	err := s.sqlDB.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema)
	return schema, err
}
