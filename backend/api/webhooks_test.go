package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/config"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
)

// testHosts are host names the test resolver answers itself (the rest go to the system's).
var testHosts sync.Map // host → netip.Addr

func testLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, ok := testHosts.Load(host); ok {
		return []netip.Addr{a.(netip.Addr)}, nil
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// hit is one request a receiver got.
type hit struct {
	id, timestamp, signature, contentType string
	body                                  []byte
}

// receiver is a webhook receiver on loopback that answers fail first requests 500.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	hits []hit
	fail int
}

func newReceiver(t *testing.T, fail int) *receiver {
	r := &receiver{fail: fail}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.hits = append(r.hits, hit{req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp"), req.Header.Get("webhook-signature"), req.Header.Get("content-type"), b})
		failing := len(r.hits) <= r.fail
		r.mu.Unlock()
		if failing {
			http.Error(w, "not now", http.StatusInternalServerError)
		}
	}))
	t.Cleanup(r.Close)
	return r
}

// wait returns the receiver's requests once it has n, failing after a minute.
func (r *receiver) wait(t *testing.T, n int) []hit {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		r.mu.Lock()
		hs := append([]hit(nil), r.hits...)
		r.mu.Unlock()
		if len(hs) >= n {
			return hs
		}
		if time.Now().After(deadline) {
			t.Fatalf("the receiver got %d requests, want %d", len(hs), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type webhookView struct {
	ID      string   `json:"id"`
	URL     string   `json:"url"`
	Events  []string `json:"events"`
	Enabled bool     `json:"enabled"`
	Secret  string   `json:"secret"`
}

type deliveryView struct {
	ID             string  `json:"id"`
	Event          string  `json:"event"`
	Status         string  `json:"status"`
	Attempts       int     `json:"attempts"`
	LastError      *string `json:"last_error"`
	ResponseStatus *int    `json:"response_status"`
}

func (c *client) createWebhook(pid, url string, events ...string) webhookView {
	c.e.t.Helper()
	var w webhookView
	c.must("POST", "/api/v1/projects/"+pid+"/webhooks", map[string]any{"url": url, "events": events}, 201, &w)
	if !strings.HasPrefix(w.Secret, "whsec_") {
		c.e.t.Fatalf("webhook without its secret: %+v", w)
	}
	return w
}

// waitDeliveries polls a webhook's log until done says it is complete.
func (c *client) waitDeliveries(pid, wid string, done func([]deliveryView) bool) []deliveryView {
	c.e.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var v struct{ Items []deliveryView }
		c.must("GET", "/api/v1/projects/"+pid+"/webhooks/"+wid+"/deliveries", nil, 200, &v)
		if done(v.Items) {
			return v.Items
		}
		if time.Now().After(deadline) {
			c.e.t.Fatalf("deliveries of %s: %+v", wid, v.Items)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// verified checks a request's headers and signature and decodes its body.
func verified(t *testing.T, secret string, h hit) webhooks.Payload {
	t.Helper()
	ts, err := strconv.ParseInt(h.timestamp, 10, 64)
	if err != nil || time.Since(time.Unix(ts, 0)).Abs() > time.Minute {
		t.Fatalf("webhook-timestamp %q", h.timestamp)
	}
	if h.contentType != "application/json" || !strings.HasPrefix(h.id, "msg_") {
		t.Fatalf("headers: %+v", h)
	}
	if !webhooks.Verify(secret, h.id, ts, h.body, h.signature) {
		t.Fatalf("signature %q does not verify with the webhook's secret", h.signature)
	}
	if webhooks.Verify(webhooks.NewSecret(), h.id, ts, h.body, h.signature) {
		t.Fatal("the signature verifies with another secret")
	}
	var p webhooks.Payload
	if err := json.Unmarshal(h.body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWebhookDeliveries: a release's completion reaches a loopback receiver signed with the
// webhook's secret and naming the release; a receiver that fails twice gets it on the third
// attempt with the same webhook-id, and the log says 3 attempts; item.decided comes once per
// decided item.
func TestWebhookDeliveries(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, _, ann, pid, tpl := releaseProject(t, e)
		ok, flaky, decided := newReceiver(t, 0), newReceiver(t, 2), newReceiver(t, 0)
		wOK := lead.createWebhook(pid, ok.URL+"/hook", "release.completed", "release.failed")
		wFlaky := lead.createWebhook(pid, flaky.URL, "release.completed")
		wDecided := lead.createWebhook(pid, decided.URL, "item.decided")
		var list struct{ Items []map[string]any }
		lead.must("GET", "/api/v1/projects/"+pid+"/webhooks", nil, 200, &list)
		if len(list.Items) != 3 || list.Items[0]["secret"] != nil || list.Items[0]["url"] != ok.URL+"/hook" {
			t.Fatalf("list: %+v", list.Items)
		}
		ann2 := e.newUser("ann2b@example.org", false)
		lead.member(pid, ann2, "annotator")
		labelReleaseProject(t, e, pid, tpl, []*client{ann, ann2})
		rid := lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"}})
		if rel := lead.waitRelease(pid, rid); rel.Status != "done" {
			t.Fatalf("release: %+v", rel)
		}

		p := verified(t, wOK.Secret, ok.wait(t, 1)[0])
		if p.Type != "release.completed" || p.Data["release_id"] != rid || p.Data["project_id"] != pid ||
			p.Data["manifest_url"] != "/api/v1/projects/"+pid+"/releases/"+rid+"/files/manifest.json" {
			t.Fatalf("payload: %+v", p)
		}
		log := lead.waitDeliveries(pid, wOK.ID, func(d []deliveryView) bool { return len(d) == 1 && d[0].Status == "delivered" })
		if log[0].Attempts != 1 || log[0].ResponseStatus == nil || *log[0].ResponseStatus != 200 || log[0].Event != "release.completed" {
			t.Fatalf("log: %+v", log)
		}

		hs := flaky.wait(t, 3)
		for _, h := range hs {
			if h.id != hs[0].id {
				t.Fatalf("webhook-id changed between attempts: %s, %s", hs[0].id, h.id)
			}
			if p := verified(t, wFlaky.Secret, h); p.Data["release_id"] != rid {
				t.Fatalf("payload: %+v", p)
			}
		}
		log = lead.waitDeliveries(pid, wFlaky.ID, func(d []deliveryView) bool { return len(d) == 1 && d[0].Status == "delivered" })
		if log[0].Attempts != 3 || *log[0].ResponseStatus != 200 || log[0].ID != hs[0].id {
			t.Fatalf("log: %+v", log)
		}
		time.Sleep(300 * time.Millisecond)
		if n := len(flaky.wait(t, 3)); n != 3 {
			t.Fatalf("a delivered event was sent %d times", n)
		}

		var items struct {
			Items []struct{ ID, Stage string }
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/items?limit=100", nil, 200, &items)
		done := map[string]bool{}
		for _, it := range items.Items {
			if it.Stage == "done" {
				done[it.ID] = true
			}
		}
		if len(done) == 0 {
			t.Fatal("no item was decided")
		}
		got := map[string]bool{}
		for _, h := range decided.wait(t, len(done)) {
			p := verified(t, wDecided.Secret, h)
			id, _ := p.Data["item_id"].(string)
			if p.Type != "item.decided" || !done[id] || got[id] {
				t.Fatalf("item.decided for %q (done %v, seen %v)", id, done, got)
			}
			got[id] = true
		}
	})
}

// TestWebhookManage: the fields are checked (422 naming them), only leads see and change
// webhooks, a change and a rotation take, and a deleted webhook is gone.
func TestWebhookManage(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	lead, _, ann, pid, _ := releaseProject(t, e)
	path := "/api/v1/projects/" + pid + "/webhooks"
	status, body := lead.do("POST", path, map[string]any{"url": "https://example.org/h", "events": []string{"release.completed", "release.exploded"}})
	if status != 422 || fieldError(t, body, "events[1]") != "unknown_event" {
		t.Fatalf("unknown event: %d %s", status, body)
	}
	for _, u := range []string{"ftp://example.org/h", "/relative", "https://user:pw@example.org/"} {
		status, body = lead.do("POST", path, map[string]any{"url": u, "events": []string{"item.decided"}})
		if status != 422 || fieldError(t, body, "url") != "invalid_url" {
			t.Fatalf("url %s: %d %s", u, status, body)
		}
	}
	if status, body := ann.do("POST", path, map[string]any{"url": "https://example.org/h", "events": []string{"item.decided"}}); status != 403 {
		t.Fatalf("an annotator made a webhook: %d %s", status, body)
	}
	w := lead.createWebhook(pid, "http://127.0.0.1:9/h", "item.decided")
	var changed webhookView
	lead.must("PATCH", path+"/"+w.ID, map[string]any{"enabled": false, "events": []string{"import.completed", "annotator.flagged"}}, 200, &changed)
	if changed.Enabled || len(changed.Events) != 2 || changed.Events[1] != "annotator.flagged" || changed.Secret != "" {
		t.Fatalf("changed: %+v", changed)
	}
	var rotated webhookView
	lead.must("POST", path+"/"+w.ID+"/rotate", nil, 200, &rotated)
	if !strings.HasPrefix(rotated.Secret, "whsec_") || rotated.Secret == w.Secret {
		t.Fatalf("rotated: %+v", rotated)
	}
	lead.must("DELETE", path+"/"+w.ID, nil, 204, nil)
	if status, _ := lead.do("GET", path+"/"+w.ID+"/deliveries", nil); status != 404 {
		t.Fatalf("deliveries of a deleted webhook: %d", status)
	}
}

// TestWebhookPrivateTargets: without --webhook-allow-private, targets on loopback, private
// networks, link-local (the cloud metadata address) and IPv6 loopback are refused when made,
// and a name that resolved to a public address when made and to loopback now is refused when
// dialled; with the flag, the same targets are taken.
func TestWebhookPrivateTargets(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) {
			o.jobs = true
			o.config = func(c *config.Config) { c.WebhookAllowPrivate = false }
		})
		lead, _, ann, pid, tpl := releaseProject(t, e)
		path := "/api/v1/projects/" + pid + "/webhooks"
		targets := []string{"http://127.0.0.1/h", "http://10.0.0.1/h", "http://169.254.169.254/latest/meta-data", "http://[::1]:8080/h", "http://100.64.0.1/h", "http://[fd00::1]/h", "http://localhost/h"}
		for _, u := range targets {
			status, body := lead.do("POST", path, map[string]any{"url": u, "events": []string{"release.completed"}})
			if status != 422 || fieldError(t, body, "url") != "private_address" {
				t.Fatalf("%s: %d %s", u, status, body)
			}
		}
		rec := newReceiver(t, 0)
		host := "rebind-" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")) + ".example"
		testHosts.Store(host, netip.MustParseAddr("93.184.215.14"))
		_, port, _ := net.SplitHostPort(rec.Listener.Addr().String())
		w := lead.createWebhook(pid, "http://"+host+":"+port+"/h", "release.completed")
		testHosts.Store(host, netip.MustParseAddr("127.0.0.1"))
		ann2 := e.newUser("ann2b@example.org", false)
		lead.member(pid, ann2, "annotator")
		labelReleaseProject(t, e, pid, tpl, []*client{ann, ann2})
		lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"}}))
		log := lead.waitDeliveries(pid, w.ID, func(d []deliveryView) bool { return len(d) == 1 && d[0].Attempts >= 1 })
		if log[0].Status == "delivered" || log[0].LastError == nil || !strings.Contains(*log[0].LastError, "private network") {
			t.Fatalf("a delivery to a name now resolving to loopback: %+v", log[0])
		}
		if n := len(rec.wait(t, 0)); n != 0 {
			t.Fatalf("the receiver on loopback got %d requests", n)
		}

		open2 := newEnv(t, open, func(o *options) { o.config = func(c *config.Config) { c.WebhookAllowPrivate = true } })
		lead2, _, _, pid2, _ := releaseProject(t, open2)
		for _, u := range targets {
			lead2.createWebhook(pid2, u, "release.completed")
		}
	})
}

// TestWebhookHotPathStatements: with the job queue and the webhook service wired, a claim +
// submit of a project without webhooks costs no more than TestHotPathStatements allows: the
// item.decided of the third submit costs no statement, since the replica knows the project has
// no webhook. On PostgreSQL, where the queue's workers have a pool of their own.
func TestWebhookHotPathStatements(t *testing.T) {
	driverName, counted := testenv.CountingDriver("pgx")
	dsn := testenv.PostgresURL(t)
	e := newEnv(t, func(tb testing.TB) *store.Store {
		return testenv.OpenPool(tb, dsn, store.Pool{MaxOpen: 4, Driver: driverName})
	}, func(o *options) { o.jobs = true })
	perUnit, claims, _, submits := hotPath(t, e, counted, map[string]any{"overlap": 3}, 3)
	t.Logf("with webhooks wired, none made: %.1f statements per claim + submit (claim %v, submit %v)", perUnit, claims, submits)
	if perUnit > hotPathBudget["postgres"] {
		t.Errorf("a claim + submit costs %.1f statements, more than the budget of %.1f", perUnit, hotPathBudget["postgres"])
	}
}
