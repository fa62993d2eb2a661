package agreement

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the report golden files in testdata/")

// goldenTol is the agreement required with the reference implementations.
const goldenTol = 1e-12

type referenceFile struct {
	Ratings map[string]struct {
		File     string             `json:"file"`
		Level    string             `json:"level"`
		Metrics  map[string]float64 `json:"metrics"`
		Pairwise []struct {
			A, B             string
			N                int64
			PercentAgreement float64 `json:"percent_agreement"`
			CohenKappa       float64 `json:"cohen_kappa"`
		} `json:"pairwise"`
	} `json:"ratings"`
	Multiselect struct {
		File    string             `json:"file"`
		Metrics map[string]float64 `json:"metrics"`
	} `json:"multiselect"`
	Judge map[string]map[string]json.RawMessage `json:"judge"`
}

func loadReference(t *testing.T) referenceFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref referenceFile
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

func readTestdata(t *testing.T, name string, level Level) *Table {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := ParseRatings(data, ReadOptions{Format: FormatFromName(name), Level: level})
	if err != nil {
		t.Fatal(err)
	}
	return ds.Table
}

// goldenMetrics maps reference.json metric names to Go computations.
var goldenMetrics = map[string]func(*Table) (float64, error){
	"percent_agreement":  PercentAgreement,
	"krippendorff_alpha": Alpha,
	"fleiss_kappa":       FleissKappa,
	"scott_pi":           ScottPi,
	"conger_kappa":       CongerKappa,
	"gwet_ac1":           GwetAC1,
	"brennan_prediger":   BrennanPrediger,
	"kendall_w":          KendallW,
	"alpha_nominal":      func(t *Table) (float64, error) { return AlphaLevel(t, Nominal) },
	"alpha_ordinal":      func(t *Table) (float64, error) { return AlphaLevel(t, Ordinal) },
	"alpha_interval":     func(t *Table) (float64, error) { return AlphaLevel(t, Interval) },
	"alpha_ratio":        func(t *Table) (float64, error) { return AlphaLevel(t, Ratio) },
	"gwet_ac2":           func(t *Table) (float64, error) { return GwetAC2(t, QuadraticWeights(t.scores())) },
	"fleiss_kappa_quadratic": func(t *Table) (float64, error) {
		return FleissKappaWeighted(t, QuadraticWeights(t.scores()))
	},
	"brennan_prediger_quadratic": func(t *Table) (float64, error) {
		return BrennanPredigerWeighted(t, QuadraticWeights(t.scores()))
	},
	"conger_kappa_quadratic": func(t *Table) (float64, error) {
		return CongerKappaWeighted(t, QuadraticWeights(t.scores()))
	},
	"cohen_kappa":           func(t *Table) (float64, error) { return CohenKappa(t, 0, 1, Unweighted) },
	"cohen_kappa_linear":    func(t *Table) (float64, error) { return CohenKappa(t, 0, 1, LinearWeighted) },
	"cohen_kappa_quadratic": func(t *Table) (float64, error) { return CohenKappa(t, 0, 1, QuadraticWeighted) },
	"exact_agreement":       func(t *Table) (float64, error) { o, err := OrdinalAgreement(t); return o.Exact, err },
	"within_one":            func(t *Table) (float64, error) { o, err := OrdinalAgreement(t); return o.WithinOne, err },
	"mean_abs_diff":         func(t *Table) (float64, error) { o, err := OrdinalAgreement(t); return o.MeanAbsDiff, err },
	"icc1":                  iccForm(func(r ICCResult) float64 { return r.ICC1 }),
	"icc2":                  iccForm(func(r ICCResult) float64 { return r.ICC2 }),
	"icc3":                  iccForm(func(r ICCResult) float64 { return r.ICC3 }),
	"icc1k":                 iccForm(func(r ICCResult) float64 { return r.ICC1k }),
	"icc2k":                 iccForm(func(r ICCResult) float64 { return r.ICC2k }),
	"icc3k":                 iccForm(func(r ICCResult) float64 { return r.ICC3k }),
}

func iccForm(pick func(ICCResult) float64) func(*Table) (float64, error) {
	return func(t *Table) (float64, error) {
		r, err := ICC(t)
		return pick(r), err
	}
}

func TestReferenceRatings(t *testing.T) {
	ref := loadReference(t)
	for name, set := range ref.Ratings {
		level, err := ParseLevel(set.Level)
		if err != nil {
			t.Fatal(err)
		}
		tab := readTestdata(t, set.File, level)
		for metric, want := range set.Metrics {
			t.Run(name+"/"+metric, func(t *testing.T) {
				f, ok := goldenMetrics[metric]
				if !ok {
					t.Fatalf("no Go computation for %q", metric)
				}
				got, err := f(tab)
				if err != nil {
					t.Fatal(err)
				}
				if !near(got, want, goldenTol) {
					t.Errorf("got %.17g, want %.17g (diff %.3g)", got, want, got-want)
				}
			})
		}
		checkPairwise(t, name, tab, set.Pairwise)
	}
}

func checkPairwise(t *testing.T, name string, tab *Table, want []struct {
	A, B             string
	N                int64
	PercentAgreement float64 `json:"percent_agreement"`
	CohenKappa       float64 `json:"cohen_kappa"`
}) {
	if len(want) == 0 {
		return
	}
	rep, err := Summarize(tab, ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Pairwise) != len(want) {
		t.Fatalf("%s: %d pairs, want %d", name, len(rep.Pairwise), len(want))
	}
	for i, w := range want {
		g := rep.Pairwise[i]
		if g.A != w.A || g.B != w.B || g.N != w.N ||
			!near(g.PercentAgreement.Value, w.PercentAgreement, goldenTol) || !near(g.CohenKappa.Value, w.CohenKappa, goldenTol) {
			t.Errorf("%s: pair %d = %+v, want %+v", name, i, g, w)
		}
	}
}

func TestReferenceMultiselect(t *testing.T) {
	ref := loadReference(t)
	tab := readTestdata(t, ref.Multiselect.File, Nominal)
	for metric, sm := range map[string]SetMetric{"alpha_masi": MASI, "alpha_jaccard": Jaccard} {
		got, err := AlphaDistance(tab, SetDistance(tab, "|", sm))
		if err != nil {
			t.Fatal(err)
		}
		if want := ref.Multiselect.Metrics[metric]; !near(got, want, goldenTol) {
			t.Errorf("%s = %.17g, want %.17g", metric, got, want)
		}
	}
}

// TestReportGolden pins the full agreement report for each reference data
// set; run `go test ./agreement -run TestReportGolden -update` after an
// intended change.
func TestReportGolden(t *testing.T) {
	ref := loadReference(t)
	for name, set := range ref.Ratings {
		t.Run(name, func(t *testing.T) {
			level, _ := ParseLevel(set.Level)
			tab := readTestdata(t, set.File, level)
			rep, err := Summarize(tab, ReportOptions{Bootstrap: 200, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.MarshalIndent(rep, "", "  ")
			path := filepath.Join("testdata", "report_"+name+".golden.json")
			if *update {
				if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if !bytes.Equal(bytes.TrimSpace(want), got) && !jsonNear(t, want, got) {
				t.Errorf("report differs from %s:\n%s", path, firstDiff(string(want), string(got)))
			}
		})
	}
}

// jsonNear compares two JSON documents with numbers equal to goldenTol, so
// that golden files survive last-bit differences between platforms (FMA).
func jsonNear(t *testing.T, a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return treeNear(x, y)
}

func treeNear(x, y any) bool {
	switch xv := x.(type) {
	case float64:
		yv, ok := y.(float64)
		return ok && near(xv, yv, goldenTol)
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for i := range xv {
			if !treeNear(xv[i], yv[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for k := range xv {
			if !treeNear(xv[k], yv[k]) {
				return false
			}
		}
		return true
	}
	return x == y
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + al[i] + "\n got " + bl[i]
		}
	}
	return "length differs"
}

func TestReferenceJudge(t *testing.T) {
	ref := loadReference(t)
	var labels = func(raw json.RawMessage) []string {
		var s []string
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	num := func(raw json.RawMessage) float64 {
		var x float64
		if err := json.Unmarshal(raw, &x); err != nil {
			t.Fatal(err)
		}
		return x
	}
	b := ref.Judge["binary"]
	c, err := Classify(labels(b["reference"]), labels(b["prediction"]), "")
	if err != nil {
		t.Fatal(err)
	}
	p := ref.Judge["pairwise"]
	pc, err := Classify(labels(p["reference"]), labels(p["prediction"]), "tie")
	if err != nil {
		t.Fatal(err)
	}
	s := ref.Judge["score"]
	var x, y []float64
	json.Unmarshal(s["reference"], &x)
	json.Unmarshal(s["prediction"], &y)
	sc, err := CompareScores(x, y)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"binary accuracy", c.Accuracy, num(b["accuracy"])},
		{"binary balanced", c.BalancedAccuracy, num(b["balanced_accuracy"])},
		{"binary mcc", c.MCC.Value, num(b["mcc"])},
		{"binary recall yes", c.Recall["yes"], num(b["recall_yes"])},
		{"binary recall no", c.Recall["no"], num(b["recall_no"])},
		{"pairwise accuracy", pc.Accuracy, num(p["accuracy"])},
		{"pairwise without ties", pc.AccuracyNoTies.Value, num(p["accuracy_without_ties"])},
		{"pairwise balanced", pc.BalancedAccuracy, num(p["balanced_accuracy"])},
		{"pairwise mcc", pc.MCC.Value, num(p["mcc"])},
		{"pearson", sc.Pearson.Value, num(s["pearson"])},
		{"spearman", sc.Spearman.Value, num(s["spearman"])},
		{"kendall tau-b", sc.KendallTauB.Value, num(s["kendall_tau_b"])},
		{"mse", sc.MSE, num(s["mse"])},
		{"mae", sc.MAE, num(s["mae"])},
	}
	for _, tc := range tests {
		if !near(tc.got, tc.want, goldenTol) {
			t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
		}
	}
}
