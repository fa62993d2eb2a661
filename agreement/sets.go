package agreement

import (
	"slices"
	"strings"
)

// SetMetric selects a distance between multi-select values.
type SetMetric int

// Set distances for multi-select values.
const (
	// Jaccard is 1 − |A∩B| / |A∪B|.
	Jaccard SetMetric = iota
	// MASI is Passonneau's (2006) measure, 1 − J·M with M = 1 (equal sets),
	// 0.67 (one contains the other), 0.33 (overlap) or 0 (disjoint), as in NLTK.
	MASI
)

// SetDistance returns a Distance over a table whose value labels are sets of
// options joined by sep (for example "a|c"), for AlphaDistance. Options are
// trimmed; order and repeats do not matter; the empty label is the empty set.
func SetDistance(t *Table, sep string, metric SetMetric) Distance {
	sets := make([][]string, len(t.values))
	for i, v := range t.values {
		sets[i] = splitSet(v, sep)
	}
	return func(a, b int) float64 {
		if a == b {
			return 0
		}
		return setDistance(sets[a], sets[b], metric)
	}
}

func splitSet(v, sep string) []string {
	var s []string
	for _, p := range strings.Split(v, sep) {
		if p = strings.TrimSpace(p); p != "" {
			s = append(s, p)
		}
	}
	slices.Sort(s)
	return slices.Compact(s)
}

// setDistance computes the distance of two sorted, duplicate-free sets.
func setDistance(a, b []string, metric SetMetric) float64 {
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			inter++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	jac := float64(inter) / float64(union)
	if metric == Jaccard {
		return 1 - jac
	}
	var m float64
	switch {
	case len(a) == len(b) && len(a) == inter:
		m = 1
	case inter == min(len(a), len(b)):
		m = 0.67
	case inter > 0:
		m = 0.33
	}
	return 1 - jac*m
}
