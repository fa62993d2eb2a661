package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestInternalErrorsLoggedNotShown breaks the database under one handler: the client gets a
// 500 with the request id (not a 404 or any other status that would hide the failure), and
// the cause goes to the server's own logger, in its format, never to the client.
func TestInternalErrorsLoggedNotShown(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		var logs bytes.Buffer
		e := newEnv(t, open, func(o *options) { o.log = slog.New(slog.NewJSONHandler(&logs, nil)) })
		pid := e.admin.createProject("broken")
		if _, err := e.store.SQL().ExecContext(context.Background(), "DROP TABLE audit_events"); err != nil {
			t.Fatal(err)
		}
		status, body := e.admin.do("GET", "/api/v1/projects/"+pid+"/audit", nil)
		if status != 500 || errorCode(t, body) != "internal" || strings.Contains(string(body), "audit_events") {
			t.Fatalf("a failing query: %d %s", status, body)
		}
		var line struct {
			Msg       string `json:"msg"`
			Err       string `json:"err"`
			RequestID string `json:"request_id"`
		}
		found := false
		for _, l := range bytes.Split(logs.Bytes(), []byte("\n")) {
			if json.Unmarshal(l, &line) == nil && line.Msg == "request failed" {
				found = strings.Contains(line.Err, "audit_events") && line.RequestID != "" && strings.Contains(string(body), line.RequestID)
			}
		}
		if !found {
			t.Fatalf("the cause was not logged as JSON with the request id:\n%s", logs.String())
		}
	})
}
