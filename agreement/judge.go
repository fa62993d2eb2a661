package agreement

import (
	"fmt"
	"math"
	"slices"
)

// Classification holds a judge's labels scored against reference labels.
type Classification struct {
	N              int
	Accuracy       float64
	AccuracyNoTies Estimate // over units whose reference is not the tie label
	// Recall maps each reference class to the share of its units the judge
	// labelled correctly (for Yes/No: Yes-accuracy and No-accuracy).
	Recall           map[string]float64
	BalancedAccuracy float64  // mean per-class recall over reference classes
	MCC              Estimate // multiclass Matthews correlation (Gorodkin's R_K)
}

// Classify scores predicted labels against reference labels, unit by unit.
// tie names the tie label for AccuracyNoTies ("" for none); a judge's tie on
// a unit with a decided reference counts as wrong.
func Classify(ref, pred []string, tie string) (Classification, error) {
	if len(ref) != len(pred) {
		return Classification{}, fmt.Errorf("%w: %d references, %d predictions", ErrMismatch, len(ref), len(pred))
	}
	if len(ref) == 0 {
		return Classification{}, ErrNoData
	}
	classes, conf := confusionOf(ref, pred)
	return classifyConf(classes, conf, len(ref), tie), nil
}

// classify is Classify(v.ref, v.pred, tie), from the view's label numbers when it has them.
func (v *judgeView) classify(tie string) (Classification, error) {
	if v.predL == nil {
		return Classify(v.ref, v.pred, tie)
	}
	classes, of := viewClasses(v)
	q, m := len(classes), of[0]
	flat := make([]int, q*q)
	for i, r := range v.refL {
		flat[int(m[r])*q+int(m[v.predL[i]])]++
	}
	conf := make([][]int, q)
	for k := range conf {
		conf[k] = flat[k*q : (k+1)*q]
	}
	return classifyConf(classes, conf, len(v.refL), tie), nil
}

// classifyConf is Classify from the confusion matrix of n items over classes: the same
// counts, so the same figures.
func classifyConf(classes []string, conf [][]int, n int, tie string) Classification {
	c := Classification{N: n, Recall: map[string]float64{}}
	var correct, decided, decidedOK int
	for k, row := range conf {
		correct += row[k]
		if tie != "" && classes[k] != tie {
			for _, x := range row {
				decided += x
			}
			decidedOK += row[k]
		}
	}
	c.Accuracy = float64(correct) / float64(n)
	if decided > 0 {
		c.AccuracyNoTies = Estimate{float64(decidedOK) / float64(decided), true}
	}
	c.BalancedAccuracy = recalls(classes, conf, c.Recall)
	if v, ok := mccOf(conf); ok {
		c.MCC = Estimate{v, true}
	}
	return c
}

// confusionOf tabulates reference (rows) against prediction (columns) over
// the sorted union of labels.
func confusionOf(ref, pred []string) ([]string, [][]int) {
	classes, refC, predC := labelCodes(ref, pred)
	conf := make([][]int, len(classes))
	for i := range conf {
		conf[i] = make([]int, len(classes))
	}
	for i := range refC {
		conf[refC[i]][predC[0][i]]++
	}
	return classes, conf
}

func recalls(classes []string, conf [][]int, out map[string]float64) float64 {
	var sum float64
	n := 0
	for k, row := range conf {
		total := 0
		for _, x := range row {
			total += x
		}
		if total == 0 {
			continue
		}
		r := float64(row[k]) / float64(total)
		out[classes[k]] = r
		sum += r
		n++
	}
	return sum / float64(n)
}

// mccOf is scikit-learn's matthews_corrcoef over a confusion matrix; ok is
// false when a marginal is constant and the coefficient is undefined.
func mccOf(conf [][]int) (float64, bool) {
	var s, c float64
	q := len(conf)
	t, p := make([]float64, q), make([]float64, q)
	for i, row := range conf {
		for j, x := range row {
			t[i] += float64(x)
			p[j] += float64(x)
			s += float64(x)
		}
		c += float64(row[i])
	}
	var pt, pp, tt float64
	for k := range q {
		pt += p[k] * t[k]
		pp += p[k] * p[k]
		tt += t[k] * t[k]
	}
	den := (s*s - pp) * (s*s - tt)
	if den <= 0 {
		return 0, false
	}
	return (c*s - pt) / math.Sqrt(den), true
}

// ThresholdAccuracy is the best three-class accuracy of a scalar judge.
type ThresholdAccuracy struct {
	Accuracy  float64
	Threshold float64 // predict a tie when |d| ≤ Threshold
}

// BestTieThreshold turns scalar judge outputs d (A minus B) into A (d > t),
// B (d < −t) or tie (|d| ≤ t) and returns the t ≥ 0 among the observed |d|
// (and 0) that maximizes accuracy against reference labels a, b, tie; the
// smallest such t wins ties.
func BestTieThreshold(ref []string, d []float64, a, b, tie string) (ThresholdAccuracy, error) {
	if len(ref) != len(d) {
		return ThresholdAccuracy{}, fmt.Errorf("%w: %d references, %d scores", ErrMismatch, len(ref), len(d))
	}
	if len(ref) == 0 {
		return ThresholdAccuracy{}, ErrNoData
	}
	order := make([]int, len(d))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmpFloat(math.Abs(d[x]), math.Abs(d[y])) })
	// Start with t below every |d|: every unit is A or B.
	correct := 0
	for i, r := range ref {
		if (d[i] > 0 && r == a) || (d[i] < 0 && r == b) {
			correct++
		}
	}
	best := ThresholdAccuracy{Accuracy: -1}
	for i := 0; i < len(order); {
		t := math.Abs(d[order[i]])
		for ; i < len(order) && math.Abs(d[order[i]]) == t; i++ {
			correct += tieGain(ref[order[i]], d[order[i]], a, b, tie)
		}
		if acc := float64(correct) / float64(len(ref)); acc > best.Accuracy {
			best = ThresholdAccuracy{Accuracy: acc, Threshold: t}
		}
	}
	return best, nil
}

// tieGain is the change in correct count when unit (r, d) becomes a tie.
func tieGain(r string, d float64, a, b, tie string) int {
	gain := 0
	if r == tie {
		gain++
	}
	if (d > 0 && r == a) || (d < 0 && r == b) {
		gain--
	}
	return gain
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
