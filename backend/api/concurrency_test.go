package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/api"
	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/config"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestConcurrentClaimersTwoReplicas runs 100 people against two server instances that share
// one PostgreSQL database, on a project with overlap 3 and cross-review, with retried submits
// and abandoned claims, and then checks the queue's guarantees in the database.
func TestConcurrentClaimersTwoReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("long concurrency test skipped in -short mode")
	}
	dsn := testenv.PostgresURL(t)
	e := newEnv(t, func(tb testing.TB) *store.Store { return testenv.Open(tb, dsn) })
	second := replica(t, dsn)
	lead := e.admin
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "load", "template": "d3omni-t2i",
		"workflow": map[string]any{"overlap": 3, "review": "cross", "adjudication": "never", "on_no_consensus": "drop"}}, 201, &p)
	const nItems, nPeople = 40, 100
	tpl, _ := tasks.LookupTemplate("d3omni-t2i")
	lines := make([]string, nItems)
	for i := range lines {
		lines[i] = fmt.Sprintf(`{"external_id":"load-%03d","inputs":{"prompt":"p%d","image":"media/apple.png","generator":"g"}}`, i, i)
	}
	if rep := lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", lines...); rep["imported"].(float64) != nItems {
		t.Fatalf("import: %v", rep)
	}
	people := make([]*client, nPeople)
	issuer := auth.NewIssuer(jwtKey, time.Hour)
	for i := range people {
		u := &store.User{Email: fmt.Sprintf("p%03d@example.org", i), Name: fmt.Sprintf("P%03d", i), PasswordHash: "x"}
		if err := e.store.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		tok, _ := issuer.Sign(auth.Subject{UserID: u.ID})
		people[i] = &client{e: e, user: u, token: tok}
		if err := e.store.SetMember(context.Background(), p.ID, u.ID, store.RoleSet{store.RoleAnnotator, store.RoleReviewer}); err != nil {
			t.Fatal(err)
		}
	}
	valid := tpl.Schema.ExampleAnswers()
	var acked sync.Map // assignment id → stage
	var abandoned atomic.Int64
	work := func(wave int) {
		var wg sync.WaitGroup
		for i, c := range people {
			wg.Add(1)
			go func(i int, c *client) {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(i), uint64(wave)))
				worker(t, c, []string{e.srv.URL, second.URL}, p.ID, valid, rng, wave == 0, &acked, &abandoned)
			}(i, c)
		}
		wg.Wait()
	}
	work(0)
	// Leases of abandoned claims run out; the second wave must finish the job.
	if _, err := e.store.SQL().Exec("UPDATE assignments SET lease_expires_at = $1 WHERE status = 'active'", time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	work(1)
	checkQueueGuarantees(t, e.store, p.ID, nItems, &acked)
	if n := countMap(&acked); n != 2*3*nItems {
		t.Errorf("%d submits acknowledged, want %d labels and reviews", n, 2*3*nItems)
	}
	t.Logf("%d assignments acknowledged, %d claims abandoned", countMap(&acked), abandoned.Load())
}

// worker claims and submits until both queues are empty for it. In the first wave it abandons
// some claims and retries some submits with the same idempotency key.
func worker(t *testing.T, c *client, servers []string, pid string, answers tasks.Answers, rng *rand.Rand, chaos bool, acked *sync.Map, abandoned *atomic.Int64) {
	empty := 0
	for empty < 2 {
		stage := []string{"label", "review"}[rng.IntN(2)]
		claim := nextOn(t, c.on(servers[rng.IntN(2)]), pid, stage)
		if claim == "" {
			empty++
			continue
		}
		empty = 0
		if chaos && rng.IntN(10) == 0 {
			abandoned.Add(1)
			return // note: this person walks away holding a lease
		}
		body := map[string]any{"answers": answers}
		if stage == "review" {
			body = map[string]any{"verdict": "approve"}
		}
		key := fmt.Sprintf("%s-%d", claim, rng.Int64())
		tries := 1 + rng.IntN(2)
		for k := 0; k < tries; k++ {
			status, out := c.on(servers[rng.IntN(2)]).do("POST", "/api/v1/projects/"+pid+"/assignments/"+claim+"/submit", body, "Idempotency-Key", key)
			if status != 200 {
				t.Errorf("submit %s: %d %s", claim, status, out)
				return
			}
			acked.Store(claim, stage)
		}
	}
}

func nextOn(t *testing.T, c *client, pid, stage string) string {
	status, body := c.do("POST", "/api/v1/projects/"+pid+"/queue/next", map[string]string{"stage": stage})
	if status == 204 {
		return ""
	}
	if status != 200 {
		t.Errorf("next %s: %d %s", stage, status, body)
		return ""
	}
	var cr claimResp
	if err := jsonUnmarshal(body, &cr); err != nil {
		t.Error(err)
		return ""
	}
	return cr.Assignment.ID
}

func replica(t *testing.T, dsn string) *httptest.Server {
	st := testenv.Open(t, dsn)
	cfg := config.Defaults()
	sessions := auth.NewSessions(st, auth.NewIssuer(jwtKey, time.Hour), time.Hour, auth.DefaultLimits)
	s := api.New(serverDeps(t, cfg, st, testenv.LocalBlobs(t), sessions, false))
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv
}

// checkQueueGuarantees asserts the promises of the queue on what the database holds.
func checkQueueGuarantees(t *testing.T, st *store.Store, pid string, nItems int, acked *sync.Map) {
	db := st.SQL()
	one := func(q string, args ...any) int {
		var n int
		if err := db.QueryRow(q, args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	if n := one(`SELECT COUNT(*) FROM (SELECT item_id FROM assignments WHERE stage = 'label' AND status = 'submitted' GROUP BY item_id HAVING COUNT(*) > 3) x`); n != 0 {
		t.Errorf("%d items have more than 3 labels", n)
	}
	// note: one reviewer may review every label of an item, once each
	if n := one(`SELECT COUNT(*) FROM (SELECT item_id, user_id, stage FROM assignments WHERE stage <> 'review' GROUP BY item_id, user_id, stage HAVING COUNT(*) > 1) x`); n != 0 {
		t.Errorf("%d duplicate assignments", n)
	}
	if n := one(`SELECT COUNT(*) FROM (SELECT target_id, user_id FROM assignments WHERE stage = 'review' GROUP BY target_id, user_id HAVING COUNT(*) > 1) x`); n != 0 {
		t.Errorf("%d labels reviewed twice by one person", n)
	}
	if n := one(`SELECT COUNT(*) FROM (SELECT item_id, user_id FROM assignments GROUP BY item_id, user_id HAVING COUNT(DISTINCT stage) > 1) x`); n != 0 {
		t.Errorf("%d items worked by one person in two stages", n)
	}
	if n := one(`SELECT COUNT(*) FROM assignments r JOIN assignments l ON l.item_id = r.item_id AND l.user_id = r.user_id AND l.stage = 'label' WHERE r.stage = 'review'`); n != 0 {
		t.Errorf("%d reviews of an item by someone who labeled it", n)
	}
	if n := one(`SELECT COUNT(*) FROM items WHERE project_id = $1 AND stage <> 'done'`, pid); n != 0 {
		t.Errorf("%d items did not finish", n)
	}
	if n := one(`SELECT COUNT(*) FROM assignments WHERE stage = 'label' AND status = 'submitted'`); n != 3*nItems {
		t.Errorf("%d labels stored, want %d", n, 3*nItems)
	}
	acked.Range(func(k, _ any) bool {
		if n := one(`SELECT COUNT(*) FROM assignment_revisions WHERE assignment_id = $1 AND kind = 'submit'`, k); n != 1 {
			t.Errorf("acknowledged submit %s stored %d times", k, n)
		}
		if n := one(`SELECT COUNT(*) FROM assignments WHERE id = $1 AND status = 'submitted'`, k); n != 1 {
			t.Errorf("acknowledged submit %s is not stored as submitted", k)
		}
		return true
	})
}

func countMap(m *sync.Map) int {
	n := 0
	m.Range(func(any, any) bool { n++; return true })
	return n
}
