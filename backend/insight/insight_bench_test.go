package insight_test

import (
	"context"
	"flag"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
)

var (
	insight1M    = flag.Bool("insight1m", false, "run TestInsight1M: balance and judge figures of a generated project on PostgreSQL")
	insightItems = flag.Int("insight-items", 1_000_000, "decided items of the project TestInsight1M generates")
	insightKinds = flag.String("insight-kinds", "balance,judges", "figures TestInsight1M computes and answers, comma-separated")
)

// TestInsight1M generates a binary-checklist project on PostgreSQL whose items are all decided
// (one ground-truth revision each) with two models' predictions, computes the balance and the
// judge figures the way their jobs do (reporting each time), then answers each 200 times as
// GET .../balance and GET .../judges do and reports the latency of an answer from the kept
// figures (goal: under 100 ms). It runs only with -insight1m:
//
//	go test -tags no_ui ./backend/insight -run TestInsight1M -insight1m -v -timeout 90m
//
// -insight-kinds balance (or judges) computes only one of them.
func TestInsight1M(t *testing.T) {
	if !*insight1M {
		t.Skip("run with -insight1m")
	}
	ctx := context.Background()
	st, fl, pid, load := benchProject(t, "binary-checklist")
	n := *insightItems
	began := time.Now()
	answers := func(salt string) string {
		return `json_build_object('follows_prompt', CASE WHEN (i * 7 + ` + salt + `) % 5 = 0 THEN 'no' ELSE 'yes' END,
	   'subject_count', CASE WHEN (i + ` + salt + `) % 3 = 0 THEN 'no' ELSE 'yes' END,
	   'visible_artifacts', CASE WHEN (i + ` + salt + `) % 4 = 0 THEN 'yes' ELSE 'no' END,
	   'safe', CASE WHEN (i * 3 + ` + salt + `) % 11 = 0 THEN 'no' ELSE 'yes' END)::text`
	}
	exec(t, st, `INSERT INTO items (id, project_id, external_id, inputs, meta, stage, gt_revision, version, created_at, updated_at)
	 SELECT 'item-' || lpad(i::text, 8, '0'), $1, 'ext-' || lpad(i::text, 8, '0'), '{"prompt": "p"}',
	  json_build_object('source', 'corpus-' || (i % 8), 'generator', 'g' || (i % 5))::text, 'done', 1, 1, now(), now()
	 FROM generate_series(0, $2 - 1) AS i`, pid, n)
	exec(t, st, `INSERT INTO ground_truth_revisions (item_id, revision, answers, provenance, created_at)
	 SELECT 'item-' || lpad(i::text, 8, '0'), 1, `+answers("0")+`, 'constructed', now()
	 FROM generate_series(0, $1 - 1) AS i`, n)
	for m, salt := range map[string]string{"m1": "CASE WHEN i % 7 = 0 THEN 1 ELSE 0 END", "m2": "CASE WHEN i % 3 = 0 THEN 2 ELSE 0 END"} {
		exec(t, st, `INSERT INTO predictions (item_id, model, project_id, answers, created_at)
		 SELECT 'item-' || lpad(i::text, 8, '0'), $1, $2, `+answers(salt)+`, now()
		 FROM generate_series(0, $3 - 1) AS i`, m, pid, n)
	}
	p := load()
	t.Logf("generated %d decided items and %d predictions in %s", n, 2*n, time.Since(began).Round(time.Second))
	opts := insight.JudgeOptions{ClusterKey: "source"}
	for _, k := range []struct {
		kind   flow.FiguresKind
		params string
		answer func() (string, error)
	}{
		{flow.FiguresBalance, "", func() (string, error) {
			r, err := fl.Balance(ctx, p)
			if err == nil && r.Items != int64(n) {
				t.Fatalf("balance over %d items, want %d", r.Items, n)
			}
			return statusOf(r, err)
		}},
		{flow.FiguresJudges, opts.Params(), func() (string, error) {
			r, err := fl.Judges(ctx, p, opts)
			if err == nil && len(r.Groups) == 0 {
				t.Fatal("no judge groups")
			}
			return statusOf(r, err)
		}},
	} {
		if !slices.Contains(strings.Split(*insightKinds, ","), string(k.kind)) {
			continue
		}
		began = time.Now()
		if err := fl.RunFigures(ctx, p.ID, k.kind, k.params); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: computed the figures in %s", k.kind, time.Since(began).Round(100*time.Millisecond))
		checkKeptAnswers(t, string(k.kind), func() {
			status, err := k.answer()
			if err != nil {
				t.Fatal(err)
			}
			if status != insight.AgreementReady {
				t.Fatalf("%s not from the kept figures: %s", k.kind, status)
			}
		})
	}
}

func statusOf[T interface {
	*insight.BalanceReport | *insight.JudgeBoard
}](r T, err error) (string, error) {
	if err != nil {
		return "", err
	}
	switch v := any(r).(type) {
	case *insight.BalanceReport:
		return v.Status, nil
	case *insight.JudgeBoard:
		return v.Status, nil
	}
	return "", nil
}
