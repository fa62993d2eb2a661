package agreement

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseFormats(t *testing.T) {
	tests := []struct {
		name    string
		format  Format
		input   string
		ratings int
		err     error
	}{
		{"csv", CSV, "unit,rater,value\nu1,a,1\nu1,b,2\nu2,a,1\n", 3, nil},
		{"csv crlf bom quoted", CSV, "\xef\xbb\xbfUnit,Rater,Value\r\n\"u,1\",a,\"x \"\"y\"\"\"\r\nu2,a,\r\n", 1, nil},
		{"csv blank and short lines", CSV, "unit,rater,value\n\nu1,a,1\r\n\r\nu2,b\nu3,a,2", 2, nil},
		{"csv extra columns", CSV, "id,unit,rater,value\n1,u1,a,1\n", 1, nil},
		{"csv missing column", CSV, "unit,value\nu1,1\n", 0, ErrInput},
		{"csv unterminated quote", CSV, "unit,rater,value\n\"u1,a,1\n", 0, ErrInput},
		{"jsonl", JSONL, `{"unit": "u1", "rater": "a", "value": 3}` + "\n" + `{"unit":1,"rater":"b","value":"3"}`, 2, nil},
		{"jsonl null and escapes", JSONL, `{"unit":"u\"1","rater":"a","value":null}` + "\n" + `{"unit":"u\u0031","rater":"a","value":"x","extra":{"k":[1]}}`, 1, nil},
		{"jsonl array", JSONL, `{"unit":"u1","rater":"a","value":["b","a"]}`, 1, nil},
		{"jsonl broken", JSONL, `{"unit":"u1",`, 0, ErrInput},
		{"duplicate", CSV, "unit,rater,value\nu1,a,1\nu1,a,2\n", 0, ErrDuplicateRating},
		{"empty", CSV, "unit,rater,value\n", 0, ErrNoData},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ParseRatings([]byte(tc.input), ReadOptions{Format: tc.format})
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ds.Table.NumRatings() != tc.ratings {
				t.Errorf("ratings = %d, want %d", ds.Table.NumRatings(), tc.ratings)
			}
		})
	}
}

func TestParseValuesAndGroups(t *testing.T) {
	in := "unit,rater,value,site,batch\nu1,a,x \"\"q\"\",s1,b1\nu1,b,y,s1,b1\nu2,a,x,s2,b1\n"
	in = strings.ReplaceAll(in, `x ""q""`, `"x ""q"""`)
	ds, err := ParseRatings([]byte(in), ReadOptions{Format: CSV, ClusterKey: "site", StrataKey: "batch"})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.Table.Value(1); got != `x "q"` {
		t.Errorf("value 0 = %q", got)
	}
	if len(ds.Clusters.Names) != 2 || ds.Clusters.Of[1] != 1 || len(ds.Strata.Names) != 1 {
		t.Errorf("groups = %+v %+v", ds.Clusters, ds.Strata)
	}
	scattered := "unit,rater,value,site\nu1,a,1,s1\nu2,a,1,s2\nu3,a,2,s3\nu2,b,1,s2\nu1,b,2,s1\nu4,a,1,s2\n"
	ds, err = ParseRatings([]byte(scattered), ReadOptions{Format: CSV, ClusterKey: "site"})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Table.NumUnits() != 4 || ds.Table.PairableUnits() != 2 || ds.Table.Unit(3) != "u4" {
		t.Errorf("scattered units: %v", ds.Table.units)
	}
	if got := ds.Clusters.Of; len(got) != 4 || got[0] != 0 || got[1] != 1 || got[2] != 2 || got[3] != 1 {
		t.Errorf("scattered clusters = %v", got)
	}
	js := `{"unit":"u1","rater":"a","value":["b","a"]}` + "\n" + `{"unit":"u1","rater":"b","value":"a|b"}`
	ds, err = ParseRatings([]byte(js), ReadOptions{Format: JSONL})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Table.NumValues() != 1 || ds.Table.Value(0) != "a|b" {
		t.Errorf("set values = %v", ds.Table.values)
	}
}

func TestLevelValidation(t *testing.T) {
	if _, err := ParseRatings([]byte("unit,rater,value\nu,a,x\n"), ReadOptions{Level: Interval}); !errors.Is(err, ErrNotNumeric) {
		t.Errorf("interval with text: %v", err)
	}
	if _, err := ParseRatings([]byte("unit,rater,value\nu,a,-1\n"), ReadOptions{Level: Ratio}); !errors.Is(err, ErrInput) {
		t.Errorf("ratio with negative: %v", err)
	}
	if _, err := ParseLevel("loud"); err == nil {
		t.Error("ParseLevel accepted junk")
	}
}

func TestBootstrapDeterministic(t *testing.T) {
	tab := matrixTable(t, Nominal, krippendorff2011)
	groups := UnitGroups{Names: []string{"x", "y"}, Of: []int32{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, -1}}
	opts := BootstrapOptions{Replicates: 300, Seed: 11, Clusters: groups, Strata: UnitGroups{Of: []int32{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}}}
	a, err := Bootstrap(tab, []func(*Table) (float64, error){Alpha, PercentAgreement}, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Bootstrap(tab, []func(*Table) (float64, error){Alpha, PercentAgreement}, opts)
	if a[0] != b[0] || a[1] != b[1] {
		t.Errorf("same seed, different intervals: %+v %+v", a, b)
	}
	alpha, _ := Alpha(tab)
	if !(a[0].Lower <= alpha && alpha <= a[0].Upper) || a[0].Replicates+a[0].Failed != 300 {
		t.Errorf("interval %+v does not cover %v", a[0], alpha)
	}
	opts.Clusters, opts.Strata = UnitGroups{}, UnitGroups{}
	c1, _ := Bootstrap(tab, []func(*Table) (float64, error){Alpha}, opts)
	opts.Seed = 12
	if c, _ := Bootstrap(tab, []func(*Table) (float64, error){Alpha}, opts); c[0] == c1[0] {
		t.Errorf("different seeds gave identical intervals")
	}
}

func TestPairedBootstrap(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	mean := func(bias float64) IndexStat {
		return func(idx []int32) (float64, error) {
			var s float64
			for _, i := range idx {
				s += x[i] + bias
			}
			return s / float64(len(idx)), nil
		}
	}
	d, err := PairedBootstrap(len(x), mean(1), mean(0), BootstrapOptions{Replicates: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !near(d.Estimate, 1, 1e-12) || !near(d.Interval.Lower, 1, 1e-12) || !near(d.Interval.Upper, 1, 1e-12) || d.PValue != 0 {
		t.Errorf("paired difference = %+v", d)
	}
}

func TestQuantileType7(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	for _, tc := range []struct{ p, want float64 }{{0, 1}, {1, 4}, {0.5, 2.5}, {0.025, 1.075}} {
		if got := quantile(xs, tc.p); !near(got, tc.want, 1e-15) {
			t.Errorf("quantile(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

func TestDawidSkene(t *testing.T) {
	// Three reliable raters and one who always answers "b".
	var rows [][]string
	for i := range 40 {
		v := []string{"a", "b"}[i%2]
		rows = append(rows, []string{v, v, v, "b"})
	}
	rows[0][1] = "b"
	tab := matrixTable(t, Nominal, rows)
	res, err := DawidSkene(tab, DawidSkeneOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged || math.Abs(res.Prior[0]-0.5) > 0.05 {
		t.Errorf("prior = %v converged=%v", res.Prior, res.Converged)
	}
	if res.Posterior[0][0] < 0.9 {
		t.Errorf("unit 0 posterior = %v, want mostly a", res.Posterior[0])
	}
	if res.Confusion[3][0][1] < 0.9 {
		t.Errorf("spammer confusion = %v", res.Confusion[3])
	}
	again, _ := DawidSkene(tab, DawidSkeneOptions{Seed: 1, RandomInit: true})
	again2, _ := DawidSkene(tab, DawidSkeneOptions{Seed: 1, RandomInit: true})
	if again.LogLikelihood != again2.LogLikelihood {
		t.Error("seeded random init is not deterministic")
	}
}

func TestElo(t *testing.T) {
	got, err := Elo([]Match{{"x", "y", 1}}, EloOptions{K: 32})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Player != "x" || !near(got[0].Rating, 1016, 1e-12) || !near(got[1].Rating, 984, 1e-12) {
		t.Errorf("elo = %+v", got)
	}
	tie, _ := Elo([]Match{{"x", "y", 0.5}}, EloOptions{})
	if !near(tie[0].Rating, 1000, 1e-12) {
		t.Errorf("tie between equals moved ratings: %+v", tie)
	}
	if _, err := Elo([]Match{{"x", "x", 1}}, EloOptions{}); !errors.Is(err, ErrInput) {
		t.Errorf("self match: %v", err)
	}
}

func TestVectors(t *testing.T) {
	ref := []AnswerVector{{"q1": true, "q2": false}, {"q1": true, "q2": true}}
	pred := []AnswerVector{{"q1": true, "q2": true}, {"q1": true, "q2": true}}
	v, err := CompareVectors(ref, pred)
	if err != nil {
		t.Fatal(err)
	}
	if v.ExactMatch != 0.5 || v.MeanAbsDev != 0.5 || v.MeanDev != 0.5 || len(v.Segments) != 2 || v.Segments[0].Accuracy != 0.5 {
		t.Errorf("vectors = %+v", v)
	}
}

// TestDenseAndScanPathsAgree checks the coincidence-table fast paths against
// the per-unit scans used when there are too many categories.
func TestDenseAndScanPathsAgree(t *testing.T) {
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 9))
		tab := buildRows(t, Interval, randomRows(rng, 40, 2+rng.IntN(5), 2+rng.IntN(6), 0.3))
		st := tab.stats()
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			d, _ := levelDistance(tab.numbers, level, st.pooled)
			dense, ok := st.observed(tab.NumValues(), d)
			if scan := tab.observedSum(d); !ok || !near(dense, scan, 1e-12) {
				t.Errorf("seed %d %s: dense %v, scan %v", seed, level, dense, scan)
			}
		}
		op, ok, _ := st.ordinalPairs(tab.scores())
		if scan, _ := ordinalAgreement(tab); !ok || op.Pairs != scan.Pairs || !near(op.Exact, scan.Exact, 1e-12) ||
			!near(op.WithinOne, scan.WithinOne, 1e-12) || !near(op.MeanAbsDiff, scan.MeanAbsDiff, 1e-12) {
			t.Errorf("seed %d: ordinal pairs dense %+v, scan %+v", seed, op, scan)
		}
		w := QuadraticWeights(tab.scores())
		dense, err := weightedAgreement(tab, w)
		saved := st.coin
		st.coin = nil
		scan, err2 := weightedAgreement(tab, w)
		st.coin = saved
		if err != nil || err2 != nil || !near(dense, scan, 1e-12) {
			t.Errorf("seed %d: weighted agreement dense %v, scan %v (%v, %v)", seed, dense, scan, err, err2)
		}
	}
}
