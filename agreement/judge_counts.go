package agreement

import (
	"errors"
	"slices"
)

// labelCodes numbers the sorted union of the labels of ref and each of preds and returns
// every label's number.
func labelCodes(ref []string, preds ...[]string) (classes []string, refC []int32, predC [][]int32) {
	idx := map[string]int32{}
	note := func(xs []string) {
		for _, x := range xs {
			if _, ok := idx[x]; !ok {
				idx[x] = 0
				classes = append(classes, x)
			}
		}
	}
	note(ref)
	for _, p := range preds {
		note(p)
	}
	slices.Sort(classes)
	for i, c := range classes {
		idx[c] = int32(i)
	}
	code := func(xs []string) []int32 {
		out := make([]int32, len(xs))
		for i, x := range xs {
			out[i] = idx[x]
		}
		return out
	}
	refC = code(ref)
	for _, p := range preds {
		predC = append(predC, code(p))
	}
	return classes, refC, predC
}

// countMetric is a headline metric of a q×q confusion matrix of counts, row-major (rows:
// reference, columns: judge), over the labels of labelCodes. It equals the same metric of
// Classify on the records counted: classes absent from the records have empty rows and
// columns, which no metric reads.
type countMetric func(conf []int64) (float64, error)

// countAccuracy is Classification.Accuracy.
func countAccuracy(q int) countMetric {
	return func(conf []int64) (float64, error) {
		var n, correct int64
		for k := range q {
			for j := range q {
				n += conf[k*q+j]
			}
			correct += conf[k*q+k]
		}
		if n == 0 {
			return 0, ErrNoData
		}
		return float64(correct) / float64(n), nil
	}
}

// countBalancedAccuracy is Classification.BalancedAccuracy: the mean recall over the
// reference classes present, summed in class order as recalls does.
func countBalancedAccuracy(q int) countMetric {
	return func(conf []int64) (float64, error) {
		var sum float64
		n := 0
		for k := range q {
			var total int64
			for j := range q {
				total += conf[k*q+j]
			}
			if total == 0 {
				continue
			}
			sum += float64(conf[k*q+k]) / float64(total)
			n++
		}
		if n == 0 {
			return 0, ErrNoData
		}
		return sum / float64(n), nil
	}
}

// countAccuracyNoTies is Classification.AccuracyNoTies with tie the tie label's number (−1
// when no record uses it: every reference is decided).
func countAccuracyNoTies(q, tie int) countMetric {
	return func(conf []int64) (float64, error) {
		var decided, ok int64
		for k := range q {
			if k == tie {
				continue
			}
			for j := range q {
				decided += conf[k*q+j]
			}
			ok += conf[k*q+k]
		}
		if decided == 0 {
			return 0, errNoDecided
		}
		return float64(ok) / float64(decided), nil
	}
}

var errNoDecided = errors.New("no decided reference")

// countHeadline returns the headline metrics of a labelled (not scalar, not score) view from
// confusion counts over classes, the same names and values as headline.
func countHeadline(v *judgeView, classes []string) map[string]countMetric {
	q := len(classes)
	if v.kind == Pairwise {
		return map[string]countMetric{
			"accuracy":              countAccuracy(q),
			"accuracy_without_ties": countAccuracyNoTies(q, slices.Index(classes, "tie")),
		}
	}
	return map[string]countMetric{
		"accuracy":          countAccuracy(q),
		"balanced_accuracy": countBalancedAccuracy(q),
	}
}

// labelled reports whether the view's headline metrics are functions of its confusion counts.
func (v *judgeView) labelled() bool {
	return v.kind != Score && !v.scalar
}
