package agreement

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

type row struct{ unit, rater, value string }

// randomRows returns a random ratings table as rows.
func randomRows(rng *rand.Rand, units, raters, cats int, missing float64) []row {
	var rows []row
	for u := range units {
		truth := rng.IntN(cats) + 1
		for r := range raters {
			if rng.Float64() < missing {
				continue
			}
			v := truth
			if rng.Float64() < 0.4 {
				v = rng.IntN(cats) + 1
			}
			rows = append(rows, row{fmt.Sprint("u", u), fmt.Sprint("r", r), fmt.Sprint(v)})
		}
	}
	return rows
}

func buildRows(t testing.TB, level Level, rows []row) *Table {
	t.Helper()
	b := NewBuilder(level, len(rows))
	for _, r := range rows {
		b.Add(r.unit, r.rater, r.value)
	}
	tab, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// scalarMetrics returns the report's scalar metrics as a key → value map.
func scalarMetrics(t testing.TB, tab *Table) map[string]any {
	t.Helper()
	rep, err := Summarize(tab, ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep.Pairwise, rep.Notes = nil, nil
	data, _ := json.Marshal(rep)
	var m map[string]any
	json.Unmarshal(data, &m)
	return m
}

func TestPermutationInvariance(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		level := Level(seed % 4)
		rows := randomRows(rng, 30+rng.IntN(30), 2+rng.IntN(4), 2+rng.IntN(4), 0.2)
		base := scalarMetrics(t, buildRows(t, level, rows))

		shuffled := append([]row(nil), rows...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := scalarMetrics(t, buildRows(t, level, shuffled)); !treeNear(base, got) {
			t.Errorf("seed %d: row order changed metrics:\n%v\n%v", seed, base, got)
		}

		perm := rng.Perm(10)
		renamed := append([]row(nil), shuffled...)
		for i := range renamed {
			var r int
			fmt.Sscanf(renamed[i].rater, "r%d", &r)
			renamed[i].rater = fmt.Sprint("x", perm[r])
		}
		if got := scalarMetrics(t, buildRows(t, level, renamed)); !treeNear(base, got) {
			t.Errorf("seed %d: rater relabelling changed metrics:\n%v\n%v", seed, base, got)
		}
	}
}

func TestPerfectAgreement(t *testing.T) {
	rows := [][]string{{"a", "a", "a"}, {"b", "b", ""}, {"c", "c", "c"}, {"a", "", "a"}, {"b", "b", "b"}}
	tab := matrixTable(t, Nominal, rows)
	for name, f := range map[string]func(*Table) (float64, error){
		"percent": PercentAgreement, "alpha": Alpha, "fleiss": FleissKappa, "scott": ScottPi,
		"conger": CongerKappa, "ac1": GwetAC1, "bp": BrennanPrediger,
		"cohen": func(t *Table) (float64, error) { return CohenKappa(t, 0, 1, Unweighted) },
	} {
		if got, err := f(tab); err != nil || !near(got, 1, 1e-15) {
			t.Errorf("%s = %v, %v; want 1", name, got, err)
		}
	}
	num := matrixTable(t, Interval, [][]string{{"1", "1", "1"}, {"4", "4", "4"}, {"2", "2", "2"}})
	icc, err := ICC(num)
	if err != nil || !near(icc.ICC1, 1, 1e-15) || !near(icc.ICC3k, 1, 1e-15) {
		t.Errorf("icc = %+v, %v", icc, err)
	}
	if w, err := KendallW(num); err != nil || !near(w, 1, 1e-15) {
		t.Errorf("kendall w = %v, %v", w, err)
	}
}

func TestBounds(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 2))
		tab := buildRows(t, Interval, randomRows(rng, 20+rng.IntN(50), 2+rng.IntN(5), 2+rng.IntN(5), 0.3))
		for key, v := range scalarMetrics(t, tab) {
			x, ok := v.(float64)
			if !ok || strings.HasPrefix(key, "n_") || key == "mean_abs_diff" {
				continue
			}
			if x > 1+1e-12 || x < -1-1e-12 && key != "krippendorff_alpha" {
				t.Errorf("seed %d: %s = %v out of bounds", seed, key, x)
			}
		}
		if pa, _ := PercentAgreement(tab); pa < 0 || pa > 1 {
			t.Errorf("percent agreement %v", pa)
		}
		if w, err := KendallW(tab); err == nil && (w < 0 || w > 1+1e-12) {
			t.Errorf("kendall w %v", w)
		}
	}
}

// TestKendallTauBrute checks the O(n log n) tau-b against the O(n²) definition.
func TestKendallTauBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 50 {
		n := 2 + rng.IntN(40)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = float64(rng.IntN(5)), float64(rng.IntN(4))
		}
		var c, d, tx, ty float64
		for i := range n {
			for j := i + 1; j < n; j++ {
				s := (x[i] - x[j]) * (y[i] - y[j])
				switch {
				case s > 0:
					c++
				case s < 0:
					d++
				}
				if x[i] != x[j] {
					tx++
				}
				if y[i] != y[j] {
					ty++
				}
			}
		}
		got, err := KendallTauB(x, y)
		if tx == 0 || ty == 0 {
			if err == nil {
				t.Errorf("want error for constant input")
			}
			continue
		}
		if want := (c - d) / math.Sqrt(tx*ty); err != nil || !near(got, want, 1e-12) {
			t.Errorf("tau-b = %v (%v), want %v", got, err, want)
		}
	}
}

func TestBestTieThresholdBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	labels := []string{"a", "b", "tie"}
	for range 50 {
		n := 1 + rng.IntN(30)
		ref, d := make([]string, n), make([]float64, n)
		for i := range ref {
			ref[i], d[i] = labels[rng.IntN(3)], float64(rng.IntN(9)-4)/2
		}
		got, err := BestTieThreshold(ref, d, "a", "b", "tie")
		if err != nil {
			t.Fatal(err)
		}
		best := -1.0
		for _, th := range d {
			th = abs(th)
			pred := thresholdLabels(d, th)
			ok := 0
			for i := range ref {
				if ref[i] == pred[i] {
					ok++
				}
			}
			best = max(best, float64(ok)/float64(n))
		}
		if !near(got.Accuracy, best, 1e-15) {
			t.Errorf("best accuracy %v, brute force %v", got.Accuracy, best)
		}
	}
}
