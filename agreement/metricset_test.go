package agreement

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseMetrics(t *testing.T) {
	tests := []struct {
		in   string
		want []string // nil: every metric
	}{
		{"alpha", []string{"krippendorff_alpha"}},
		{" Alpha , fleiss,,", []string{"fleiss_kappa", "krippendorff_alpha"}},
		{"gwet", []string{"gwet_ac1", "gwet_ac2"}},
		{"gwet_ac2,within_one", []string{"gwet_ac2", "within_one"}},
		{"cohen,pairwise", []string{"cohen_kappa", "cohen_kappa_linear", "cohen_kappa_quadratic", "pairwise"}},
		{"bp,percent,scott,conger,kendall_w,icc", []string{"brennan_prediger", "conger_kappa", "icc", "kendall_w", "percent_agreement", "scott_pi"}},
		{"alpha,all", nil},
	}
	for _, tc := range tests {
		got, err := ParseMetrics(tc.in)
		if err != nil {
			t.Errorf("ParseMetrics(%q): %v", tc.in, err)
			continue
		}
		if tc.want == nil {
			if got != nil {
				t.Errorf("ParseMetrics(%q) = %v, want every metric (nil)", tc.in, got)
			}
			continue
		}
		var keys []string
		for k := range got {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, tc.want) {
			t.Errorf("ParseMetrics(%q) = %v, want %v", tc.in, keys, tc.want)
		}
	}
	for _, bad := range []string{"alpha,kappa", "", " , "} {
		_, err := ParseMetrics(bad)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "alpha, percent, fleiss") {
			t.Errorf("ParseMetrics(%q) error = %v, want one naming the valid metrics", bad, err)
		}
	}
	if _, err := ParseMetrics("alpha,kappa"); !strings.Contains(err.Error(), `"kappa"`) {
		t.Errorf("error %v does not name the unknown metric", err)
	}
}

// reportMap returns a report as decoded JSON.
func reportMap(t *testing.T, rep *Report) map[string]any {
	t.Helper()
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSummarizeSubsetEqualsFull checks, for every test data set at every
// level it allows and for every metric name, that a report of that metric
// alone holds exactly the keys of the full report the name stands for, with
// bit-identical values, and nothing else.
func TestSummarizeSubsetEqualsFull(t *testing.T) {
	header := []string{"level", "n_ratings", "n_units", "n_raters", "n_categories", "n_pairable_units", "notes"}
	files := []string{"ref_krippendorff2011.csv", "ref_nominal_complete.csv", "ref_nominal_missing.csv",
		"ref_ordinal_missing.csv", "ref_two_raters_ordinal.csv", "ref_interval_complete.csv"}
	for _, file := range files {
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			if file == "ref_nominal_missing.csv" && level > Ordinal {
				continue // text categories
			}
			tab := readTestdata(t, file, level)
			full := reportMap(t, mustSummarize(t, tab, nil))
			for _, name := range append(metricNames(), "gwet_ac2", "within_one") {
				set, err := ParseMetrics(name)
				if err != nil {
					t.Fatal(err)
				}
				sub := reportMap(t, mustSummarize(t, tab, set))
				for k, v := range sub {
					if k == "notes" {
						continue
					}
					if !set.Has(k) && !slices.Contains(header, k) {
						t.Errorf("%s %s --metrics %s: unexpected key %q", file, level, name, k)
					}
					if w, _ := json.Marshal(full[k]); string(w) != mustJSON(t, v) {
						t.Errorf("%s %s --metrics %s: %s = %s, full report %s", file, level, name, k, mustJSON(t, v), w)
					}
				}
				for k := range set {
					if hasKey(full, k) != hasKey(sub, k) {
						t.Errorf("%s %s --metrics %s: key %q in full report %v, alone %v", file, level, name, k, hasKey(full, k), hasKey(sub, k))
					}
				}
			}
		}
	}
}

func mustSummarize(t *testing.T, tab *Table, set MetricSet) *Report {
	t.Helper()
	tab.memo = &memo{} // each report computes from scratch
	rep, err := Summarize(tab, ReportOptions{Metrics: set})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSummarizeSubsetNotesAndBootstrap(t *testing.T) {
	tab := readTestdata(t, "ref_krippendorff2011.csv", Nominal)
	set, _ := ParseMetrics("alpha,icc,cohen")
	rep, err := Summarize(tab, ReportOptions{Metrics: set, Bootstrap: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.CI95) != 1 || rep.CI95["krippendorff_alpha"] == nil {
		t.Errorf("ci95 = %v, want the asked metric only", rep.CI95)
	}
	want := []string{
		"cohen_kappa, cohen_kappa_linear, cohen_kappa_quadratic: only with exactly two raters (pairwise has every pair)",
		"icc: only with numbers (level interval or ratio)",
	}
	if !slices.Equal(rep.Notes, want) {
		t.Errorf("notes = %q, want %q", rep.Notes, want)
	}
	if rep.Pairwise != nil || rep.ICC != nil || rep.FleissKappa != nil {
		t.Error("metrics that were not asked for were computed")
	}
	all, err := Summarize(tab, ReportOptions{Bootstrap: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if *all.CI95["krippendorff_alpha"] != *rep.CI95["krippendorff_alpha"] {
		t.Errorf("alpha interval %v alone, %v in the full report", rep.CI95["krippendorff_alpha"], all.CI95["krippendorff_alpha"])
	}
	if len(all.Notes) != 0 {
		t.Errorf("the default report notes metrics that do not apply: %q", all.Notes)
	}
}
