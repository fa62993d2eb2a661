package agreement

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// referenceIntervals and referenceDifferences are the straightforward bootstrap of the
// headline metrics: every replicate copies the resampled records and classifies them.
func referenceIntervals(v *judgeView, opts JudgeOptions) map[string]*CI {
	bo := BootstrapOptions{Replicates: opts.Intervals, Seed: opts.Seed, Clusters: itemClusters(v), Strata: itemStrata(v)}
	out := map[string]*CI{}
	for name, f := range headline(v) {
		stat := func(idx []int32) (float64, error) { return f(copyView(v, idx)) }
		cis, err := BootstrapIndex(len(v.recs), []IndexStat{stat}, bo)
		if err == nil && cis[0].Replicates > 0 {
			out[name] = &cis[0]
		}
	}
	return out
}

func referenceDifferences(va, vb *judgeView, opts JudgeOptions) map[string]DifferenceReport {
	bo := BootstrapOptions{Replicates: opts.Bootstrap, Seed: opts.Seed, Clusters: itemClusters(va)}
	out := map[string]DifferenceReport{}
	for name, f := range headline(va) {
		statA := func(idx []int32) (float64, error) { return f(copyView(va, idx)) }
		statB := func(idx []int32) (float64, error) { return f(copyView(vb, idx)) }
		if d, err := PairedBootstrap(len(va.recs), statA, statB, bo); err == nil {
			out[name] = DifferenceReport{Estimate: d.Estimate, CI95: d.Interval, PValue: Estimate{d.PValue, d.PValue == d.PValue}}
		}
	}
	return out
}

// copyView is the resampled view built record by record, as a fresh copy.
func copyView(v *judgeView, idx []int32) *judgeView {
	s := &judgeView{kind: v.kind, scalar: v.scalar, hasQuestions: v.hasQuestions}
	for _, i := range idx {
		if v.ref != nil {
			s.ref, s.pred = append(s.ref, v.ref[i]), append(s.pred, v.pred[i])
		}
		if v.refX != nil {
			s.refX = append(s.refX, v.refX[i])
		}
		if v.predX != nil {
			s.predX = append(s.predX, v.predX[i])
		}
	}
	return s
}

// randomJudges draws a reference and two judges: labels from values (a judge sometimes
// answers a label the reference never uses), optional questions, clusters and strata.
func randomJudges(rng *rand.Rand, values []string, questions, clusters, strata bool) (ref, a, b *JudgeData) {
	n := 1 + rng.IntN(60)
	nq := 1
	if questions {
		nq = 1 + rng.IntN(4)
	}
	var rr, ra, rb []JudgeRecord
	for u := range n {
		for q := range nq {
			r := JudgeRecord{Unit: fmt.Sprint("u", u), Value: values[rng.IntN(len(values))]}
			if questions {
				r.Question = fmt.Sprint("q", q)
			}
			if clusters {
				r.Cluster = fmt.Sprint("c", rng.IntN(1+n/4))
			}
			if strata {
				r.Stratum = fmt.Sprint("s", u%3)
			}
			pa, pb := r, r
			pa.Cluster, pa.Stratum, pb.Cluster, pb.Stratum = "", "", "", ""
			if rng.IntN(3) == 0 {
				pa.Value = values[rng.IntN(len(values))]
			}
			if rng.IntN(2) == 0 {
				pb.Value = values[rng.IntN(len(values))]
			}
			if rng.IntN(40) == 0 {
				pb.Value = "unsure"
			}
			rr, ra, rb = append(rr, r), append(ra, pa), append(rb, pb)
		}
	}
	ref, _ = NewJudgeData(rr)
	a, _ = NewJudgeData(ra)
	b, _ = NewJudgeData(rb)
	return ref, a, b
}

// TestJudgeBootstrapFromCounts: the judge's own intervals and the paired differences, now
// built from per-cluster confusion counts, equal the straightforward bootstrap that
// classifies a copy of the resampled records, on the same draws, for Yes/No and pairwise
// judges with and without clusters, questions and strata.
func TestJudgeBootstrapFromCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	intervals, differences := 0, 0
	kinds := []struct {
		kind   JudgeKind
		values []string
	}{{Binary, []string{"yes", "no"}}, {Binary, []string{"yes"}}, {Pairwise, []string{"a", "b", "tie"}}, {Pairwise, []string{"tie", "a"}}}
	for trial := range 200 {
		k := kinds[trial%len(kinds)]
		ref, a, b := randomJudges(rng, k.values, trial%3 == 0, trial%2 == 0, trial%5 < 2)
		opts := JudgeOptions{Kind: k.kind, Bootstrap: 100, Intervals: 100, Seed: uint64(trial)}
		got, err := EvaluateJudge(ref, a, b, opts)
		if err != nil {
			t.Fatal(err)
		}
		items, _ := matchItems(ref, a, b)
		va, _ := newJudgeView(ref, a, items, k.kind)
		vb, _ := newJudgeView(ref, b, items, k.kind)
		if want := referenceIntervals(va, opts); !reflect.DeepEqual(got.CI95, want) {
			t.Fatalf("trial %d: intervals %v, straightforward %v", trial, got.CI95, want)
		}
		if want := referenceDifferences(va, vb, opts); !reflect.DeepEqual(got.Difference, want) {
			t.Fatalf("trial %d: differences %v, straightforward %v", trial, got.Difference, want)
		}
		intervals, differences = intervals+len(got.CI95), differences+len(got.Difference)
	}
	if intervals < 300 || differences < 300 {
		t.Fatalf("only %d intervals and %d differences compared", intervals, differences)
	}
}

// TestJudgeDifferenceAlone: JudgeDifference is the Difference of the full report.
func TestJudgeDifferenceAlone(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		ref, a, b := randomJudges(rng, []string{"yes", "no"}, trial%2 == 0, true, false)
		opts := JudgeOptions{Kind: Binary, Bootstrap: 100, Intervals: 100, Seed: 4}
		full, err := EvaluateJudge(ref, a, b, opts)
		if err != nil {
			t.Fatal(err)
		}
		d, err := JudgeDifference(ref, a, b, opts)
		if err != nil || !reflect.DeepEqual(d, full.Difference) || len(d) != 2 {
			t.Fatalf("trial %d: %v (%v), report %v", trial, d, err, full.Difference)
		}
	}
}
