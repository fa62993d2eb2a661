package agreement

import (
	"fmt"
	"strings"
)

// MetricSet selects the metrics of a Report by their report keys
// (krippendorff_alpha, fleiss_kappa, pairwise, ...). The nil set selects
// every metric.
type MetricSet map[string]bool

// metricGroups are the short names ParseMetrics accepts, each standing for
// the report keys it expands to. Every report key is also a name of its own.
var metricGroups = []struct {
	name string
	keys []string
}{
	{"alpha", []string{"krippendorff_alpha"}},
	{"percent", []string{"percent_agreement"}},
	{"fleiss", []string{"fleiss_kappa"}},
	{"scott", []string{"scott_pi"}},
	{"conger", []string{"conger_kappa"}},
	{"gwet", []string{"gwet_ac1", "gwet_ac2"}},
	{"bp", []string{"brennan_prediger"}},
	{"cohen", []string{"cohen_kappa", "cohen_kappa_linear", "cohen_kappa_quadratic"}},
	{"ordinal", []string{"exact_agreement", "within_one", "mean_abs_diff"}},
	{"kendall_w", []string{"kendall_w"}},
	{"icc", []string{"icc"}},
	{"pairwise", []string{"pairwise"}},
}

// ParseMetrics parses a comma-separated list of metric names: the short
// names alpha, percent, fleiss, scott, conger, gwet, bp, cohen, ordinal,
// kendall_w, icc and pairwise, any report key (gwet_ac2, within_one, ...),
// or all. Names are case-insensitive.
func ParseMetrics(list string) (MetricSet, error) {
	set := MetricSet{}
	for _, item := range strings.Split(list, ",") {
		name := strings.ToLower(strings.TrimSpace(item))
		if name == "" {
			continue
		}
		if name == "all" {
			return nil, nil
		}
		keys := metricKeys(name)
		if keys == nil {
			return nil, fmt.Errorf("%w: unknown metric %q (valid: %s, all; or a report key: %s)",
				ErrInput, item, strings.Join(metricNames(), ", "), strings.Join(reportKeys(), ", "))
		}
		for _, k := range keys {
			set[k] = true
		}
	}
	if len(set) == 0 {
		return nil, fmt.Errorf("%w: no metric named (valid: %s, all)", ErrInput, strings.Join(metricNames(), ", "))
	}
	return set, nil
}

// Has reports whether the set selects the report key.
func (s MetricSet) Has(key string) bool { return s == nil || s[key] }

// metricKeys returns the report keys a name stands for, or nil.
func metricKeys(name string) []string {
	for _, g := range metricGroups {
		if g.name == name {
			return g.keys
		}
		for _, k := range g.keys {
			if k == name {
				return []string{k}
			}
		}
	}
	return nil
}

func metricNames() []string {
	names := make([]string, len(metricGroups))
	for i, g := range metricGroups {
		names[i] = g.name
	}
	return names
}

func reportKeys() []string {
	var keys []string
	for _, g := range metricGroups {
		keys = append(keys, g.keys...)
	}
	return keys
}
