package api_test

import (
	"context"
	"encoding/json"
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
	valid := func(*rand.Rand) tasks.Answers { return d3omniAnswers() }
	st, pid, acked := concurrentClaimers(t, map[string]any{"overlap": 3, "review": "cross", "adjudication": "never", "on_no_consensus": "drop"}, valid)
	checkQueueGuarantees(t, st, pid, concurrentItems, acked)
	if n := countMap(acked); n != 2*3*concurrentItems {
		t.Errorf("%d submits acknowledged, want %d labels and reviews", n, 2*3*concurrentItems)
	}
}

// TestConcurrentClaimersAdaptive: the same crowd on adaptive overlap {min 2, max 4} with cross
// review, each person flipping each of the 17 Yes/No answers with probability 0.03, so that some
// items are decided by two labels and others ask for one more, then another, while 100 people
// claim on two replicas and a tenth walk away holding a claim. Every item ends done or dropped
// with exactly the labels it asked for (2 + its extra labels, at most 4), nobody works an item
// twice, and every acknowledged submit is stored once.
func TestConcurrentClaimersAdaptive(t *testing.T) {
	if testing.Short() {
		t.Skip("long concurrency test skipped in -short mode")
	}
	flip := map[string]string{`"yes"`: `"no"`, `"no"`: `"yes"`}
	answers := func(rng *rand.Rand) tasks.Answers {
		out := tasks.Answers{}
		for k, v := range d3omniAnswers() {
			if f, ok := flip[string(v)]; ok && rng.Float64() < 0.03 {
				v = json.RawMessage(f)
			}
			out[k] = v
		}
		return out
	}
	st, pid, acked := concurrentClaimers(t, map[string]any{"adaptive_overlap": map[string]any{"min": 2, "max": 4, "confidence": 0.9},
		"review": "cross", "adjudication": "never", "on_no_consensus": "drop"}, answers)
	one := counter(t, st)
	checkOneWorkEach(t, one)
	checkAcked(t, one, acked)
	if n := one(`SELECT COUNT(*) FROM items WHERE project_id = $1 AND stage NOT IN ('done', 'dropped')`, pid); n != 0 {
		t.Errorf("%d items did not finish", n)
	}
	if n := one(`SELECT COUNT(*) FROM items i WHERE i.project_id = $1 AND (SELECT COUNT(*) FROM assignments a
  WHERE a.item_id = i.id AND a.stage = 'label' AND a.status = 'submitted') <> 2 + i.extra_labels`, pid); n != 0 {
		t.Errorf("%d items hold other than the labels they asked for", n)
	}
	if n := one(`SELECT COUNT(*) FROM items WHERE project_id = $1 AND extra_labels > 2`, pid); n != 0 {
		t.Errorf("%d items asked for more than max labels", n)
	}
	more := one(`SELECT COUNT(*) FROM items WHERE project_id = $1 AND extra_labels > 0`, pid)
	if more == 0 || more == concurrentItems {
		t.Errorf("%d of %d items took more than min labels: the test does not exercise adaptive overlap", more, concurrentItems)
	}
	t.Logf("%d assignments acknowledged; %d of %d items took more than two labels", countMap(acked), more, concurrentItems)
}

// concurrentItems and concurrentPeople are the size of the concurrency tests' crowd.
const concurrentItems, concurrentPeople = 40, 100

// d3omniAnswers are valid answers of the D3-Omni T2I form.
func d3omniAnswers() tasks.Answers {
	tpl, _ := tasks.LookupTemplate("d3omni-t2i")
	return tpl.Schema.ExampleAnswers()
}

// concurrentClaimers has 100 people (annotators and reviewers) work a D3-Omni T2I project of 40
// items with the workflow on two replicas of one PostgreSQL database, each claiming label or
// review work at random on either replica and submitting what answers gives (twice now and
// then, with one Idempotency-Key); in a first wave a tenth walk away holding a claim, whose
// leases are then expired, and a second wave finishes the project. It returns the store, the
// project and the acknowledged submits.
func concurrentClaimers(t *testing.T, workflow map[string]any, answers func(*rand.Rand) tasks.Answers) (*store.Store, string, *sync.Map) {
	dsn := testenv.PostgresURL(t)
	e := newEnv(t, func(tb testing.TB) *store.Store { return testenv.Open(tb, dsn) })
	second := replica(t, dsn)
	lead := e.admin
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "load", "template": "d3omni-t2i", "workflow": workflow}, 201, &p)
	lines := make([]string, concurrentItems)
	for i := range lines {
		lines[i] = fmt.Sprintf(`{"external_id":"load-%03d","inputs":{"prompt":"p%d","image":"media/apple.png","generator":"g"}}`, i, i)
	}
	if rep := lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", lines...); rep["imported"].(float64) != concurrentItems {
		t.Fatalf("import: %v", rep)
	}
	people := make([]*client, concurrentPeople)
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
	var acked sync.Map // assignment id → stage
	var abandoned atomic.Int64
	work := func(wave int) {
		var wg sync.WaitGroup
		for i, c := range people {
			wg.Add(1)
			go func(i int, c *client) {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(i), uint64(wave)))
				worker(t, c, []string{e.srv.URL, second.URL}, p.ID, answers, rng, wave == 0, &acked, &abandoned)
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
	t.Logf("%d claims abandoned", abandoned.Load())
	return e.store, p.ID, &acked
}

func worker(t *testing.T, c *client, servers []string, pid string, answers func(*rand.Rand) tasks.Answers, rng *rand.Rand, chaos bool, acked *sync.Map, abandoned *atomic.Int64) {
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
		body := map[string]any{"answers": answers(rng)}
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
	one := counter(t, st)
	if n := one(`SELECT COUNT(*) FROM (SELECT item_id FROM assignments WHERE stage = 'label' AND status = 'submitted' GROUP BY item_id HAVING COUNT(*) > 3) x`); n != 0 {
		t.Errorf("%d items have more than 3 labels", n)
	}
	checkOneWorkEach(t, one)
	if n := one(`SELECT COUNT(*) FROM items WHERE project_id = $1 AND stage <> 'done'`, pid); n != 0 {
		t.Errorf("%d items did not finish", n)
	}
	if n := one(`SELECT COUNT(*) FROM assignments WHERE stage = 'label' AND status = 'submitted'`); n != 3*nItems {
		t.Errorf("%d labels stored, want %d", n, 3*nItems)
	}
	checkAcked(t, one, acked)
}

// counter runs a counting query on the store's database.
func counter(t *testing.T, st *store.Store) func(q string, args ...any) int {
	return func(q string, args ...any) int {
		var n int
		if err := st.SQL().QueryRow(q, args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
}

// checkOneWorkEach: nobody worked an item twice in a stage, reviewed a label twice, worked an
// item in two stages or reviewed an item they labeled.
func checkOneWorkEach(t *testing.T, one func(q string, args ...any) int) {
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
}

// checkAcked: every acknowledged submit is stored once, as submitted.
func checkAcked(t *testing.T, one func(q string, args ...any) int, acked *sync.Map) {
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
