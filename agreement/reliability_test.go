package agreement

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// reliabilityReference is testdata/reliability_reference.json, written by
// testdata/reliability_reference.py with crowd-kit's DawidSkene.
type reliabilityReference struct {
	Sets map[string]struct {
		File       string                 `json:"file"`
		Gold       string                 `json:"gold"`
		Classes    []string               `json:"classes"`
		Iterations int                    `json:"iterations"`
		Prior      []float64              `json:"prior"`
		Confusion  map[string][][]float64 `json:"confusion"`
		Posterior  map[string][]float64   `json:"posterior"`
		Accuracy   map[string]struct {
			Ratings  int     `json:"ratings"`
			Accuracy float64 `json:"accuracy"`
		} `json:"accuracy"`
	} `json:"sets"`
}

func readGold(t *testing.T, name string) map[string]string {
	t.Helper()
	if name == "" {
		return nil
	}
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	gold := map[string]string{}
	for _, r := range rows[1:] {
		gold[r[0]] = r[1]
	}
	return gold
}

// TestReliabilityAgainstCrowdKit fits the model on simulated raters and compares every figure
// with crowd-kit's DawidSkene on the same ratings and gold.
func TestReliabilityAgainstCrowdKit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "reliability_reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref reliabilityReference
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Sets) < 3 {
		t.Fatalf("reference holds %d sets, want 3", len(ref.Sets))
	}
	const tol = 1e-6
	for name, want := range ref.Sets {
		t.Run(name, func(t *testing.T) {
			tab := readTestdata(t, want.File, Nominal)
			gold := readGold(t, want.Gold)
			got, err := EstimateReliability(tab, ReliabilityOptions{Gold: gold})
			if err != nil {
				t.Fatal(err)
			}
			if !got.Converged || got.Iterations != want.Iterations {
				t.Errorf("iterations %d (converged %v), reference %d", got.Iterations, got.Converged, want.Iterations)
			}
			values := make([]string, tab.NumValues())
			for v := range values {
				values[v] = tab.Value(v)
			}
			if !slices.Equal(values, want.Classes) {
				t.Fatalf("values %v, reference %v", values, want.Classes)
			}
			var worst float64
			check := func(what string, g, w float64) {
				if d := math.Abs(g - w); d > worst {
					worst = d
				}
				if math.Abs(g-w) > tol {
					t.Errorf("%s = %.12g, reference %.12g", what, g, w)
				}
			}
			for k := range want.Prior {
				check("prior["+want.Classes[k]+"]", got.Prior[k], want.Prior[k])
			}
			for r := 0; r < tab.NumRaters(); r++ {
				rater := tab.Rater(r)
				wc, ok := want.Confusion[rater]
				if !ok {
					t.Fatalf("rater %s missing from the reference", rater)
				}
				for k := range wc {
					for l := range wc[k] {
						check(rater+" confusion["+want.Classes[k]+"]["+want.Classes[l]+"]", got.Confusion[r][k][l], wc[k][l])
					}
				}
				wa := want.Accuracy[rater]
				if got.Raters[r].Ratings != wa.Ratings {
					t.Errorf("%s: %d ratings, reference %d", rater, got.Raters[r].Ratings, wa.Ratings)
				}
				check(rater+" accuracy", got.Raters[r].Accuracy, wa.Accuracy)
				if lo, hi := got.Raters[r].Low, got.Raters[r].High; !(lo <= got.Raters[r].Accuracy && got.Raters[r].Accuracy <= hi) {
					t.Errorf("%s: interval [%g, %g] does not hold %g", rater, lo, hi, got.Raters[r].Accuracy)
				}
			}
			if len(want.Posterior) != tab.NumUnits() {
				t.Fatalf("%d units, reference %d", tab.NumUnits(), len(want.Posterior))
			}
			for u := 0; u < tab.NumUnits(); u++ {
				wp := want.Posterior[tab.Unit(u)]
				for k := range wp {
					check("posterior "+tab.Unit(u), got.Posterior[u][k], wp[k])
				}
			}
			t.Logf("%d units, %d raters, %d iterations, largest difference %.3g", tab.NumUnits(), tab.NumRaters(), got.Iterations, worst)
		})
	}
}

// TestReliabilityRanksSpammersLast: with two raters answering at random among eight, the two
// come last by estimated accuracy, and the posterior's answer is more often right than the
// majority's (three labels an item, against the simulated truth).
func TestReliabilityRanksSpammersLast(t *testing.T) {
	tab := readTestdata(t, "rel_spammers.csv", Nominal)
	got, err := EstimateReliability(tab, ReliabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	order := make([]int, tab.NumRaters())
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Compare(got.Raters[b].Accuracy, got.Raters[a].Accuracy)
	})
	last := []string{tab.Rater(order[len(order)-2]), tab.Rater(order[len(order)-1])}
	slices.Sort(last)
	if !slices.Equal(last, []string{"r6", "r7"}) {
		t.Errorf("lowest estimated accuracy: %v, want the spammers r6 and r7", last)
	}
	truth := readGold(t, "rel_spammers_truth.csv")
	var byPosterior, byMajority int
	for u := 0; u < tab.NumUnits(); u++ {
		want := truth[tab.Unit(u)]
		best := 0
		for k, p := range got.Posterior[u] {
			if p > got.Posterior[u][best] {
				best = k
			}
		}
		if tab.Value(best) == want {
			byPosterior++
		}
		votes := make([]int, tab.NumValues())
		_, vs := tab.UnitRatings(u)
		for _, v := range vs {
			votes[v]++
		}
		if tab.Value(slices.Index(votes, slices.Max(votes))) == want {
			byMajority++
		}
	}
	t.Logf("of %d units: %d right by the posterior, %d by the majority", tab.NumUnits(), byPosterior, byMajority)
	if byPosterior <= byMajority {
		t.Errorf("the posterior's answer is right on %d units, the majority's on %d: want more", byPosterior, byMajority)
	}
}

func TestWilsonInterval(t *testing.T) {
	// 8 of 10: Wilson's 95 % interval is [0.4902, 0.9433] (e.g. R's prop.test without
	// continuity correction, binom::binom.wilson).
	p, lo, hi := WilsonInterval(8, 10)
	if p != 0.8 || math.Abs(lo-0.4901625) > 1e-6 || math.Abs(hi-0.9433178) > 1e-6 {
		t.Errorf("Wilson(8, 10) = %g [%g, %g]", p, lo, hi)
	}
	if p, lo, hi := WilsonInterval(0, 0); !math.IsNaN(p) || !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("Wilson(0, 0) = %g [%g, %g], want NaN", p, lo, hi)
	}
}

// TestModelPosterior: the posterior of a unit from the kept model equals an E-step of the fit
// with its final prior and confusion cells, and a rater the model does not know counts with the
// fallback accuracy.
func TestModelPosterior(t *testing.T) {
	tab := readTestdata(t, "rel_fourclass.csv", Nominal)
	fit, err := EstimateReliability(tab, ReliabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := fit.Model(tab)
	want := make([][]float64, len(fit.Posterior))
	for u := range want {
		want[u] = make([]float64, tab.NumValues())
	}
	relExpect(tab, fit.Prior, fit.Confusion, want)
	for u := 0; u < tab.NumUnits(); u++ {
		rs, vs := tab.UnitRatings(u)
		var ratings []Rating
		for i := range rs {
			ratings = append(ratings, Rating{tab.Rater(int(rs[i])), tab.Value(int(vs[i]))})
		}
		got := m.Posterior(ratings, 0.8, 0)
		for k := range got {
			if math.Abs(got[k]-want[u][k]) > 1e-12 {
				t.Fatalf("unit %s: posterior %v, the fit's %v", tab.Unit(u), got, want[u])
			}
		}
	}
	two := &ReliabilityModel{Values: []string{"no", "yes"}, Prior: []float64{0.5, 0.5},
		Confusion: map[string][][]float64{"k": {{0.5, 0.5}, {0.5, 0.5}}}, Weight: map[string][]float64{"k": {2, 6}}}
	got := two.Posterior([]Rating{{"x", "yes"}, {"y", "yes"}, {"z", "maybe"}}, 0.8, 4)
	if want := 0.8 * 0.8 / (0.8*0.8 + 0.2*0.2); math.Abs(got[1]-want) > 1e-12 {
		t.Errorf("two unknown raters at 0.8 saying yes: %v, want yes at %g", got, want)
	}
	// a known rater at chance, seen 2 and 6 times, shrunk by 4 towards 0.8: P(yes|no) =
	// (2·0.5 + 4·0.2)/6, P(yes|yes) = (6·0.5 + 4·0.8)/10
	got = two.Posterior([]Rating{{"k", "yes"}}, 0.8, 4)
	no, yes := (2*0.5+4*0.2)/6, (6*0.5+4*0.8)/10
	if want := yes / (no + yes); math.Abs(got[1]-want) > 1e-12 {
		t.Errorf("a known rater shrunk: %v, want yes at %g", got, want)
	}
	if m.Weight[tab.Rater(0)] == nil || math.Abs(sumFloats(m.Weight[tab.Rater(0)])-float64(fit.Raters[0].Ratings)) > 1e-9 {
		t.Errorf("weights %v of %d ratings", m.Weight[tab.Rater(0)], fit.Raters[0].Ratings)
	}
}
