//go:build unix

package insight_test

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

var (
	agreement1M     = flag.Bool("agreement1m", false, "run TestAgreement1M: agreement of a generated project with -agreement-labels labels on PostgreSQL")
	agreementLabels = flag.Int("agreement-labels", 1_000_000, "labels of the project TestAgreement1M and TestAgreementAgainstCLI generate (4 per item)")
)

// TestAgreement1M generates a binary-checklist project on PostgreSQL with 4 labels per item
// from 20 annotators; in each of -agreement-rounds rounds it reads the labels as the job does
// (the time of the read alone) and computes the agreement figures the way the job does (its
// wall-clock and CPU time; goal: at most 30 s), then asks for them 200 times as GET
// .../agreement does and reports the latency of an answer from the kept figures (goal: under
// 100 ms). It runs only with -agreement1m:
//
//	go test -tags no_ui ./backend/insight -run TestAgreement1M -agreement1m -agreement-rounds 3 -v -timeout 60m
func TestAgreement1M(t *testing.T) {
	if !*agreement1M {
		t.Skip("run with -agreement1m")
	}
	ctx := context.Background()
	st, flow, p, items := agreementProject(t, *agreementLabels)
	load := testenv.LoadAverage()
	var read, wall, cpu []time.Duration
	for r := range *agreementRound {
		began, n := time.Now(), 0
		if err := st.EachProductionLabel(ctx, p.ID, false, func(*store.LabelRow) error { n++; return nil }); err != nil || n != 4*items {
			t.Fatalf("read %d labels: %v", n, err)
		}
		read = append(read, time.Since(began))
		w, c := runAgreementJob(t, flow, p)
		wall, cpu = append(wall, w), append(cpu, c)
		t.Logf("round %d: read the labels alone (the job's query, nothing done with them) in %s; computed the figures (%d bootstrap replicates) in %s wall, %s CPU of the process",
			r, read[r].Round(10*time.Millisecond), insight.AgreementReplicates, w.Round(10*time.Millisecond), c.Round(10*time.Millisecond))
	}
	t.Logf("%d rounds, load average before %s, after %s; min / median / max: read alone %s, job wall %s, job CPU %s",
		len(wall), load, testenv.LoadAverage(), spread(read, ms), spread(wall, ms), spread(cpu, ms))
	checkKeptAnswers(t, "agreement", func() {
		rep, err := flow.Agreement(ctx, p, "label", nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != insight.AgreementReady || rep.Labels != int64(4*items) {
			t.Fatalf("not from the kept figures: %s, %d labels", rep.Status, rep.Labels)
		}
	})
}

// agreementProject generates the benchmark project: labels/4 items of a binary checklist
// (four binary questions, one answered N/A a third of the time), each labeled by 4 of 20
// annotators, in PostgreSQL.
func agreementProject(t *testing.T, labels int) (*store.Store, *insight.Service, *workflow.Project, int) {
	st, flow, pid, load := benchProject(t, "binary-checklist")
	items := labels / 4
	began := time.Now()
	for k := range 20 {
		exec(t, st, `INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES ($1, $2, $3, 'x', now(), now())`,
			"ann-"+strconv.Itoa(k), fmt.Sprintf("ann%d@example.org", k), fmt.Sprintf("Annotator %d", k))
	}
	exec(t, st, `INSERT INTO items (id, project_id, external_id, inputs, stage, gt_revision, version, created_at, updated_at)
	 SELECT 'item-' || lpad(i::text, 8, '0'), $1, 'ext-' || i, '{"prompt": "p"}', 'label', 0, 1, now(), now()
	 FROM generate_series(0, $2 - 1) AS i`, pid, items)
	exec(t, st, `INSERT INTO assignments (id, project_id, item_id, user_id, stage, status, schema_version, seed, lease_expires_at, version,
	  answers, review_status, time_spent_ms, created_at, submitted_at)
	 SELECT 'lab-' || lpad(i::text, 8, '0') || '-' || k, $1, 'item-' || lpad(i::text, 8, '0'), 'ann-' || ((i + k * 5) % 20),
	  'label', 'submitted', 1, 0, now(), 1,
	  json_build_object('follows_prompt', CASE WHEN (i * 7 + k) % 5 = 0 THEN 'no' ELSE 'yes' END,
	   'subject_count', (ARRAY['yes', 'no', 'na'])[1 + (i + k * k) % 3],
	   'visible_artifacts', CASE WHEN (i + k) % 4 = 0 THEN 'yes' ELSE 'no' END,
	   'safe', CASE WHEN (i * 3 + k) % 11 = 0 THEN 'no' ELSE 'yes' END)::text,
	  'none', 4000, now(), now() + (i || ' microseconds')::interval
	 FROM generate_series(0, $2 - 1) AS i, generate_series(0, 3) AS k`, pid, items)
	p := load()
	t.Logf("generated %d items, %d labels in %s", items, 4*items, time.Since(began).Round(time.Second))
	return st, flow, p, items
}

// runAgreementJob runs the agreement job's work once and returns its wall-clock time and the
// CPU time of the process meanwhile.
func runAgreementJob(t *testing.T, flow *insight.Service, p *workflow.Project) (wall, cpu time.Duration) {
	t.Helper()
	cpu0, began := processCPU(t), time.Now()
	if err := flow.RunAgreement(context.Background(), p.ID, "label"); err != nil {
		t.Fatal(err)
	}
	return time.Since(began), processCPU(t) - cpu0
}

func exec(t *testing.T, st *store.Store, q string, args ...any) {
	t.Helper()
	if _, err := st.SQL().ExecContext(context.Background(), q, args...); err != nil {
		t.Fatal(err)
	}
}
