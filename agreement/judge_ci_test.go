package agreement

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestBinaryCorrelationIsPearson: the phi coefficient from counts equals Pearson's r on the
// expanded 0/1 vectors, and is undefined for a constant variable.
func TestBinaryCorrelationIsPearson(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 50 {
		n := 2 + rng.IntN(200)
		x, y := make([]float64, n), make([]float64, n)
		var c [2][2]int64
		for i := range n {
			a, b := rng.IntN(2), rng.IntN(3)%2
			x[i], y[i] = float64(a), float64(b)
			c[a][b]++
		}
		got, err := BinaryCorrelation(c[1][1], c[1][0], c[0][1], c[0][0])
		want, werr := Pearson(x, y)
		if (err == nil) != (werr == nil) || (err == nil && math.Abs(got-want) > 1e-12) {
			t.Fatalf("trial %d: %v (%v), pearson %v (%v)", trial, got, err, want, werr)
		}
	}
	if _, err := BinaryCorrelation(3, 2, 0, 0); err == nil {
		t.Fatal("constant second variable: defined")
	}
}

// TestJudgeIntervals: the judge's own intervals are the percentile bootstrap of the headline
// metric over clusters within strata, reproducible with the seed, and contain the estimate
// on this data.
func TestJudgeIntervals(t *testing.T) {
	var ref, pred []JudgeRecord
	for i := range 60 {
		u := string(rune('a'+i%26)) + string(rune('a'+i/26))
		v := []string{"yes", "no"}[i%2]
		p := v
		if i%5 == 0 {
			p = []string{"no", "yes"}[i%2]
		}
		ref = append(ref, JudgeRecord{Unit: u, Value: v, Cluster: "c" + string(rune('0'+i%7)), Stratum: "s" + string(rune('0'+i%3))})
		pred = append(pred, JudgeRecord{Unit: u, Value: p})
	}
	r, _ := NewJudgeData(ref)
	p, _ := NewJudgeData(pred)
	opts := JudgeOptions{Kind: Binary, Seed: 3, Intervals: 500}
	a, err := EvaluateJudge(r, p, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := EvaluateJudge(r, p, nil, opts)
	ci := a.CI95["accuracy"]
	if ci == nil || *ci != *b.CI95["accuracy"] || ci.Lower > a.Accuracy.Value || ci.Upper < a.Accuracy.Value || ci.Replicates != 500 {
		t.Fatalf("accuracy %v interval %+v (again %+v)", a.Accuracy, ci, b.CI95["accuracy"])
	}
	if a.CI95["balanced_accuracy"] == nil {
		t.Fatal("no balanced accuracy interval")
	}
}

// TestNegativeGroupCodes: a negative group code is no group, as -1 is; the resampler does not
// index by it.
func TestNegativeGroupCodes(t *testing.T) {
	stat := func(idx []int32) (float64, error) { return float64(len(idx)), nil }
	for _, of := range [][]int32{{-2, 0, 0}, {-1, 0, 0}} {
		got, err := BootstrapIndex(3, []IndexStat{stat}, BootstrapOptions{Replicates: 10, Seed: 3,
			Clusters: UnitGroups{Of: of}, Strata: UnitGroups{Of: of}})
		if err != nil {
			t.Fatalf("%v: %v", of, err)
		}
		if len(got) != 1 || got[0].Lower != 3 || got[0].Upper != 3 || got[0].Replicates != 10 {
			t.Fatalf("%v: %+v", of, got)
		}
	}
}

// TestDifferenceOfMixedJudges: a pairwise judge answering with labels and one answering with
// scores are not compared; the report says why instead of a difference against nothing.
func TestDifferenceOfMixedJudges(t *testing.T) {
	var ref, lab, num []JudgeRecord
	refv := []string{"a", "b", "tie", "a", "b", "a", "tie", "b"}
	labv := []string{"a", "b", "a", "a", "tie", "a", "tie", "b"}
	numv := []string{"1", "-1", "0", "0.5", "-2", "1", "0", "-1"}
	for i := range refv {
		u := string(rune('A' + i))
		ref = append(ref, JudgeRecord{Unit: u, Value: refv[i]})
		lab = append(lab, JudgeRecord{Unit: u, Value: labv[i]})
		num = append(num, JudgeRecord{Unit: u, Value: numv[i]})
	}
	r, _ := NewJudgeData(ref)
	l, _ := NewJudgeData(lab)
	n, _ := NewJudgeData(num)
	for _, pair := range [][2]*JudgeData{{l, n}, {n, l}} {
		rep, err := EvaluateJudge(r, pair[0], pair[1], JudgeOptions{Kind: Pairwise, Bootstrap: 50, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Difference) != 0 || !slices.ContainsFunc(rep.Notes, func(s string) bool { return strings.Contains(s, "not compared") }) {
			t.Fatalf("difference %+v, notes %q", rep.Difference, rep.Notes)
		}
	}
	rep, err := EvaluateJudge(r, l, l, JudgeOptions{Kind: Pairwise, Bootstrap: 50, Seed: 1})
	if d, ok := rep.Difference["accuracy"]; err != nil || !ok || d.Estimate != 0 {
		t.Fatalf("two labelled judges: %+v %v", rep.Difference, err)
	}
}
