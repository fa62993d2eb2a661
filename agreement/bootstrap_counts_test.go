package agreement

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// countMetrics are the metrics BootstrapCounts takes, at a table's level.
func countMetrics(tab *Table) []func(*Table) (float64, error) {
	ms := []func(*Table) (float64, error){Alpha, PercentAgreement, FleissKappa, GwetAC1, BrennanPrediger,
		func(t *Table) (float64, error) { return AlphaLevel(t, Nominal) },
		func(t *Table) (float64, error) { return AlphaLevel(t, Ordinal) },
	}
	if tab.Numeric() {
		w := QuadraticWeights(tab.scores())
		ms = append(ms,
			func(t *Table) (float64, error) { return AlphaLevel(t, Interval) },
			func(t *Table) (float64, error) { return AlphaLevel(t, Ratio) },
			func(t *Table) (float64, error) { return FleissKappaWeighted(t, w) },
			func(t *Table) (float64, error) { return GwetAC2(t, w) },
			func(t *Table) (float64, error) { return BrennanPredigerWeighted(t, w) })
	}
	return ms
}

// randomGroups gives n units codes 0..k-1 (some -1, no group).
func randomGroups(rng *rand.Rand, n, k int) UnitGroups {
	g := UnitGroups{Of: make([]int32, n)}
	for i := range g.Of {
		g.Of[i] = int32(rng.IntN(k+1)) - 1
	}
	return g
}

// TestBootstrapCountsIsBootstrap compares the counts bootstrap with the one that builds every
// resampled table, on random tables at every level, with and without clusters and strata, a few
// values and many (past the 16 of the fixed-array pass), and units of one rating.
func TestBootstrapCountsIsBootstrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := range 40 {
		level := Level(trial % 4)
		units, raters := 5+rng.IntN(60), 2+rng.IntN(6)
		cats := []int{2, 3, 5, 24}[trial%4]
		if trial%5 == 4 {
			cats = 1 // no variation: undefined in every replicate
		}
		tab := buildRows(t, level, randomRows(rng, units, raters, cats, 0.35))
		opts := BootstrapOptions{Replicates: 150, Seed: uint64(trial)}
		if trial%3 != 0 {
			opts.Clusters = randomGroups(rng, tab.NumUnits(), 1+rng.IntN(8))
		}
		if trial%2 == 1 {
			opts.Strata = randomGroups(rng, tab.NumUnits(), 3)
		}
		name := fmt.Sprintf("trial %d: %s, %d units, %d values", trial, level, tab.NumUnits(), tab.NumValues())
		ms := countMetrics(tab)
		want, err := Bootstrap(tab, ms, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := BootstrapCounts(tab, ms, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range want {
			w, g := want[i], got[i]
			if w.Replicates != g.Replicates || w.Failed != g.Failed || !sameFloat(w.Lower, g.Lower) || !sameFloat(w.Upper, g.Upper) {
				t.Errorf("%s, metric %d: counts %+v, tables %+v", name, i, g, w)
			}
		}
	}
}

// sameFloat is equality to 1e-12, NaN equal to NaN.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12
}

// TestBootstrapCountsSets takes alpha with a set distance, and a table too wide for dense
// coincidences (which goes through Bootstrap), to the same intervals as Bootstrap.
func TestBootstrapCountsSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	options := []string{"a", "b", "c", "d"}
	b := NewBuilder(Nominal, 0)
	for u := range 80 {
		for r := range 4 {
			if rng.IntN(5) == 0 {
				continue
			}
			var set []string
			for _, o := range options {
				if rng.IntN(2) == 0 {
					set = append(set, o)
				}
			}
			b.Add(fmt.Sprint("u", u), fmt.Sprint("r", r), fmt.Sprint(set))
		}
	}
	sets, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	wide := buildRows(t, Interval, randomRows(rng, 400, 3, 300, 0.2))
	if wide.stats().coin != nil {
		t.Fatalf("%d values: want a table without dense coincidences", wide.NumValues())
	}
	// more than 256 patterns: each unit's counts differ
	many := buildRows(t, Interval, randomRows(rng, 3000, 4, 40, 0.1))
	if n := len(newCountPatterns(many, newCountLayout(many), newResampler(many.NumUnits(), BootstrapOptions{})).off) - 1; n <= 256 {
		t.Fatalf("%d patterns, want more than 256", n)
	}
	for _, tab := range []*Table{sets, wide, many} {
		masi := func(t *Table) (float64, error) { return AlphaDistance(t, SetDistance(t, " ", MASI)) }
		ms := []func(*Table) (float64, error){masi, Alpha, PercentAgreement}
		opts := BootstrapOptions{Replicates: 200, Seed: 3, Clusters: randomGroups(rng, tab.NumUnits(), 20)}
		want, err := Bootstrap(tab, ms, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := BootstrapCounts(tab, ms, opts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if w, g := want[i], got[i]; w.Replicates != g.Replicates || !sameFloat(w.Lower, g.Lower) || !sameFloat(w.Upper, g.Upper) {
				t.Errorf("%d values, metric %d: counts %+v, tables %+v", tab.NumValues(), i, g, w)
			}
		}
	}
}

// TestBootstrapCountsEach bootstraps several tables at once, some with as many units (which
// share the draws), one with another number and one too wide for the counts, each to
// Bootstrap's intervals of that table alone.
func TestBootstrapCountsEach(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var tabs []*Table
	for k := range 4 {
		tabs = append(tabs, buildRows(t, Level(k), randomRows(rng, 90, 4, 3+k, 0)))
	}
	tabs = append(tabs, buildRows(t, Nominal, randomRows(rng, 50, 3, 2, 0.3)),
		buildRows(t, Interval, randomRows(rng, 400, 3, 300, 0.2)))
	if tabs[0].NumUnits() != tabs[3].NumUnits() || tabs[0].NumUnits() == tabs[4].NumUnits() {
		t.Fatalf("units %d, %d, %d: want the first four alike and the fifth apart", tabs[0].NumUnits(), tabs[3].NumUnits(), tabs[4].NumUnits())
	}
	for _, opts := range []BootstrapOptions{{Replicates: 120, Seed: 4}, {Replicates: 80, Seed: 5, Strata: randomGroups(rng, 90, 2)}} {
		ms := make([][]func(*Table) (float64, error), len(tabs))
		for i, tab := range tabs {
			ms[i] = countMetrics(tab)
		}
		got, errs := BootstrapCountsEach(tabs, ms, opts)
		for i, tab := range tabs {
			want, err := Bootstrap(tab, ms[i], opts)
			if err != nil || errs[i] != nil {
				t.Fatalf("table %d: %v, %v", i, err, errs[i])
			}
			for m := range want {
				if w, g := want[m], got[i][m]; w.Replicates != g.Replicates || w.Failed != g.Failed || !sameFloat(w.Lower, g.Lower) || !sameFloat(w.Upper, g.Upper) {
					t.Errorf("table %d, metric %d: counts %+v, tables %+v", i, m, g, w)
				}
			}
		}
	}
}
