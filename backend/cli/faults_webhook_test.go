//go:build faults

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/jobs"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
)

// TestFaultWebhookReplicaKilled: the replica posting a release.completed delivery is killed with
// SIGKILL while the receiver holds the request open. Another replica, started after, rescues the
// delivery's job within the lease's bound and posts it again with the same webhook-id, signed
// with the webhook's secret; the delivery ends delivered.
func TestFaultWebhookReplicaKilled(t *testing.T) {
	dsn := testenv.PostgresURL(t)
	var mu sync.Mutex
	type request struct {
		id, ts, sig string
		body        []byte
	}
	var got []request
	arrived := make(chan struct{}, 4)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, request{r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp"), r.Header.Get("webhook-signature"), b})
		first := len(got) == 1
		mu.Unlock()
		arrived <- struct{}{}
		if first {
			<-r.Context().Done() // note: held open until its replica dies
			return
		}
	}))
	t.Cleanup(recv.Close)
	allow := "ARBITER_WEBHOOK_ALLOW_PRIVATE=true"
	a := startReplica(t, dsn, "", allow)
	ctx := context.Background()
	lead := &loadAPI{http: &http.Client{Timeout: time.Minute}, base: a.url}
	var err error
	if lead.token, err = loginAs(ctx, lead, faultAdminEmail, faultAdminPassword); err != nil {
		t.Fatal(err)
	}
	var p struct{ ID string }
	if _, err := lead.do(ctx, "POST", "/api/v1/projects", map[string]any{"name": "webhook under a kill", "template": "likert-rating"}, &p, nil, 201); err != nil {
		t.Fatal(err)
	}
	project := "/api/v1/projects/" + p.ID
	var hook struct{ ID, Secret string }
	if _, err := lead.do(ctx, "POST", project+"/webhooks", map[string]any{"url": recv.URL, "events": []string{"release.completed"}}, &hook, nil, 201); err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for i := range 20 {
		fmt.Fprintf(&lines, `{"external_id":"w-%02d","inputs":{"prompt":"prompt %d","output":[{"id":"o1","type":"text","value":"answer %d"}]},"ground_truth":{"answers":{"quality":%d},"provenance":"rule"}}`+"\n", i, i, i, 1+i%5)
	}
	if _, err := lead.do(ctx, "POST", project+"/items", strings.NewReader(lines.String()), nil, nil, 200); err != nil {
		t.Fatal(err)
	}
	var rel struct{ ID string }
	if _, err := lead.do(ctx, "POST", project+"/releases", map[string]any{"name": "v1", "formats": []string{"jsonl"}}, &rel, nil, 202); err != nil {
		t.Fatal(err)
	}
	select {
	case <-arrived:
	case <-time.After(2 * time.Minute):
		t.Fatal("the delivery never reached the receiver")
	}
	a.kill()
	killed := time.Now()
	b := startReplica(t, dsn, "", allow)
	lead.base = b.url
	bound := jobs.DefaultLease.Bound + jobs.DefaultLease.Reap
	select {
	case <-arrived:
	case <-time.After(bound + 30*time.Second):
		t.Fatalf("%s after the kill the delivery was not made again", time.Since(killed).Round(time.Second))
	}
	took := time.Since(killed)
	mu.Lock()
	first, second := got[0], got[1]
	mu.Unlock()
	ts, _ := strconv.ParseInt(second.ts, 10, 64)
	if second.id != first.id || !webhooks.Verify(hook.Secret, second.id, ts, second.body, second.sig) || string(second.body) != string(first.body) {
		t.Fatalf("the second attempt: %+v, the first %+v", second, first)
	}
	var payload webhooks.Payload
	json.Unmarshal(second.body, &payload)
	if payload.Type != "release.completed" || payload.Data["release_id"] != rel.ID {
		t.Fatalf("payload %+v", payload)
	}
	var log struct {
		Items []struct {
			ID, Status string
			Attempts   int
		}
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := lead.do(ctx, "GET", project+"/webhooks/"+hook.ID+"/deliveries", nil, &log, nil, 200); err != nil {
			t.Fatal(err)
		}
		if len(log.Items) == 1 && log.Items[0].Status == "delivered" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivery log: %+v", log.Items)
		}
	}
	t.Logf("the delivery was made again %s after the kill (bound %s), same webhook-id %s; log %+v", took.Round(time.Millisecond), bound, second.id, log.Items[0])
	if took > bound+10*time.Second || log.Items[0].ID != first.id {
		t.Fatalf("after the rescue: %s, log %+v", took, log.Items)
	}
}
