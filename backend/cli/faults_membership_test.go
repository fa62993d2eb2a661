//go:build faults

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// raceAck is one acknowledged submit: of an assignment, in a pass (its key, "" without
// passes), final when it submitted the whole label.
type raceAck struct {
	assignment, pass string
	final            bool
}

// raceClaim is what the racing annotators read of a claim.
type raceClaim struct {
	Assignment struct {
		ID string `json:"id"`
	} `json:"assignment"`
	Item struct {
		Schema tasks.Schema    `json:"schema"`
		Pass   *tasks.PassStep `json:"pass"`
	} `json:"item"`
}

// raceWork claims and submits label work until stop, whatever the lead does to the person's
// membership meanwhile: a refusal (403 while a viewer, 404 while removed, 409 once the lease
// was given back) is waited out. Every 200 is recorded, with the pass it submitted.
func raceWork(ctx context.Context, a *annotator, stop time.Time, acks chan<- raceAck, refused *atomic.Int64) {
	project := "/api/v1/projects/" + a.project
	for time.Now().Before(stop) && ctx.Err() == nil {
		var cl raceClaim
		st, err := a.api.do(ctx, "POST", project+"/queue/next", map[string]string{"stage": "label"}, &cl, nil, 200, 204)
		if err != nil || st == http.StatusNoContent {
			if st != 0 {
				refused.Add(1)
			}
			pause(ctx, 50*time.Millisecond)
			continue
		}
		pass, key := "", cl.Assignment.ID
		if cl.Item.Pass != nil {
			pass, key = cl.Item.Pass.Key, key+"/"+cl.Item.Pass.Key
		}
		var res struct {
			NextPass *tasks.PassStep `json:"next_pass"`
		}
		body := map[string]any{"answers": cl.Item.Schema.ExampleAnswers()}
		for try := 0; try < 5; try++ {
			st, err = a.api.do(context.WithoutCancel(ctx), "POST", project+"/assignments/"+cl.Assignment.ID+"/submit", body, &res, map[string]string{"Idempotency-Key": key}, 200)
			if st != 0 && st != http.StatusServiceUnavailable {
				break
			}
			pause(ctx, 100*time.Millisecond)
		}
		if err == nil {
			acks <- raceAck{assignment: cl.Assignment.ID, pass: pass, final: res.NextPass == nil}
		} else {
			refused.Add(1)
		}
	}
}

// passesSchema is the project's schema answered in two passes: the quality with the prompt
// and the output, then the comment with the output alone.
func passesSchema(t *testing.T, schema json.RawMessage) map[string]any {
	var s map[string]any
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	s["passes"] = []map[string]any{
		{"key": "q", "label": "Quality", "inputs": []string{"prompt", "output"}, "questions": []string{"quality"}},
		{"key": "c", "label": "Comment", "inputs": []string{"output"}, "questions": []string{"comment"}},
	}
	return s
}

// TestFaultMembershipRacesSubmits: while annotators claim and submit on two replicas over one
// PostgreSQL database, the lead, on the other replica than each annotator, changes their roles
// (annotator to viewer and back) at least 200 times, removes and re-adds them, and moves the
// form in and out of passes. Checked in the database afterwards: every acknowledged submit of a
// whole label is submitted exactly once (none expired by a role change that committed after
// it), every acknowledged pass is kept as a revision, and no item has more labels than its
// overlap.
func TestFaultMembershipRacesSubmits(t *testing.T) {
	dsn := testenv.PostgresURL(t)
	servers := []*replicaProcess{startReplica(t, dsn, ""), startReplica(t, dsn, "")}
	urls := []string{servers[0].url, servers[1].url}
	const overlap = 3 // note: createLoadProject's
	o, people, run := faultLoad(t, urls, 12, 2000)
	ctx := context.Background()
	db := openSQL(t, dsn)
	ids := make([]string, len(people))
	for i := range people {
		email := fmt.Sprintf("load-%s-%03d@loadtest.invalid", strings.ToLower(run), i)
		if err := db.QueryRow(`SELECT id FROM users WHERE email = $1`, email).Scan(&ids[i]); err != nil {
			t.Fatal(err)
		}
	}
	hc := &http.Client{Timeout: 15 * time.Second}
	leads := make([]*loadAPI, len(urls))
	for i, u := range urls {
		leads[i] = &loadAPI{http: hc, base: u}
		var err error
		if leads[i].token, err = loginAs(ctx, leads[i], faultAdminEmail, faultAdminPassword); err != nil {
			t.Fatal(err)
		}
	}
	var detail struct {
		Schema json.RawMessage `json:"schema"`
	}
	if _, err := leads[0].do(ctx, "GET", "/api/v1/projects/"+o.project, nil, &detail, nil, 200); err != nil {
		t.Fatal(err)
	}
	schemas := []any{passesSchema(t, detail.Schema), json.RawMessage(detail.Schema)}

	const load = 40 * time.Second
	stop := time.Now().Add(load)
	acks := make(chan raceAck, 1<<16)
	var refused atomic.Int64
	var wg sync.WaitGroup
	for _, p := range people {
		wg.Go(func() { raceWork(ctx, p, stop, acks, &refused) })
	}
	// the lead: on the replica the annotator does not use
	var roleChanges, removals, passChanges, leadErrors int
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	state := make([]string, len(people)) // "annotator", "viewer" or "" (removed)
	for i := range state {
		state[i] = "annotator"
	}
	lastPass := time.Now()
	for time.Now().Before(stop) {
		if time.Since(lastPass) > 3*time.Second {
			lastPass = time.Now()
			if _, err := leads[passChanges%2].do(ctx, "PATCH", "/api/v1/projects/"+o.project, map[string]any{"schema": schemas[passChanges%2]}, nil, nil, 200); err != nil {
				t.Fatalf("pass change %d: %v", passChanges, err)
			}
			passChanges++
			continue
		}
		i := rng.IntN(len(people))
		lead := leads[1-indexOf(urls, people[i].api.base)]
		next := map[string]string{"annotator": "viewer", "viewer": "annotator", "": "annotator"}[state[i]]
		if state[i] == "annotator" && rng.IntN(5) == 0 {
			next = ""
		}
		roles := []string{}
		if next != "" {
			roles = []string{next}
		}
		if _, err := lead.do(ctx, "PUT", "/api/v1/projects/"+o.project+"/members/"+ids[i], map[string]any{"roles": roles}, nil, nil, 200); err != nil {
			leadErrors++
			continue
		}
		switch {
		case next == "":
			removals++
		case state[i] != "":
			roleChanges++
		}
		state[i] = next
		pause(ctx, 20*time.Millisecond)
	}
	wg.Wait()
	close(acks)

	var finals []string
	passes := map[string][]string{}
	for a := range acks {
		if a.final {
			finals = append(finals, a.assignment)
		} else {
			passes[a.assignment] = append(passes[a.assignment], a.pass)
		}
	}
	t.Logf("%d role changes, %d removals, %d pass changes (%d refused), %d labels and %d passes acknowledged, %d refusals met by annotators",
		roleChanges, removals, passChanges, leadErrors, len(finals), len(passes), refused.Load())
	if roleChanges < 200 || len(finals) == 0 || len(passes) == 0 {
		t.Fatalf("too little raced: %d role changes, %d labels, %d passes", roleChanges, len(finals), len(passes))
	}
	var given, expired, over int
	db.QueryRow(`SELECT count(*) FROM audit_events WHERE project_id = $1 AND action = 'assignment.release_on_role_change'`, o.project).Scan(&given)
	if err := db.QueryRow(`SELECT count(*) FROM assignments WHERE id = ANY($1) AND status <> 'submitted'`, finals).Scan(&expired); err != nil {
		t.Fatal(err)
	}
	db.QueryRow(`SELECT count(*) FROM (SELECT item_id FROM assignments WHERE project_id = $1 AND stage = 'label' AND status = 'submitted'
GROUP BY item_id HAVING count(*) > $2) x`, o.project, overlap).Scan(&over)
	missingPasses := 0
	for aid, keys := range passes {
		for _, k := range keys {
			var n int
			db.QueryRow(`SELECT count(*) FROM assignment_revisions WHERE assignment_id = $1 AND kind = 'pass' AND pass = $2`, aid, k).Scan(&n)
			if n != 1 {
				missingPasses++
			}
		}
	}
	t.Logf("open work given back on role changes %d times; acknowledged labels not submitted: %d; passes not kept once: %d; items over their overlap of %d: %d",
		given, expired, missingPasses, overlap, over)
	if expired != 0 || missingPasses != 0 || over != 0 {
		t.Fatalf("acknowledged labels not submitted %d, acknowledged passes not kept %d, items over their overlap %d", expired, missingPasses, over)
	}
	verifyStored(t, dsn, o.project, run, finals)
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
