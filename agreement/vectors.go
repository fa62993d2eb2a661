package agreement

import (
	"fmt"
	"slices"
)

// AnswerVector is one unit's answers to several binary questions, keyed by
// question; a positive answer adds one to the unit's total score.
type AnswerVector map[string]bool

// VectorAgreement compares a judge's answer vectors with the reference.
type VectorAgreement struct {
	Units        int
	ExactMatch   float64         // share of units whose whole vector matches
	Segments     []SegmentResult // question accuracy per reference total score
	MeanAbsDev   float64         // mean |judge total − reference total|
	MeanDev      float64         // mean (judge total − reference total)
	TotalMatches float64         // share of units with equal total scores
}

// SegmentResult is accuracy over the units with one reference total score.
type SegmentResult struct {
	TotalScore int     `json:"total_score"`
	Units      int     `json:"n_units"`
	Accuracy   float64 `json:"accuracy"`
}

// CompareVectors scores answer vectors unit by unit (same order in ref and
// pred). A question the judge did not answer counts as a wrong answer.
func CompareVectors(ref, pred []AnswerVector) (VectorAgreement, error) {
	if len(ref) != len(pred) {
		return VectorAgreement{}, fmt.Errorf("%w: %d references, %d predictions", ErrMismatch, len(ref), len(pred))
	}
	if len(ref) == 0 {
		return VectorAgreement{}, ErrNoData
	}
	var t vectorTally
	for i, r := range ref {
		right, rt, pt := 0, 0, total(pred[i])
		for q, want := range r {
			got, ok := pred[i][q]
			if ok && got == want {
				right++
			}
			if want {
				rt++
			}
		}
		t.add(right, rt, pt, len(r), right == len(r) && len(pred[i]) == len(r))
	}
	return t.result(), nil
}

// vectorTally adds up compared answer vectors unit by unit, for CompareVectors and
// compareColumns.
type vectorTally struct {
	units, exact, sameTotal int
	absDev, dev             accumulator
	segs                    map[int]*vectorSegment
}

type vectorSegment struct{ units, right, total int }

// add counts one unit: right answers of total, the reference's and the judge's total scores,
// and whether the whole vector matches.
func (t *vectorTally) add(right, rt, pt, total int, exact bool) {
	t.units++
	if exact {
		t.exact++
	}
	if rt == pt {
		t.sameTotal++
	}
	t.absDev.Add(float64(abs(float64(pt - rt))))
	t.dev.Add(float64(pt - rt))
	if t.segs == nil {
		t.segs = map[int]*vectorSegment{}
	}
	s := t.segs[rt]
	if s == nil {
		s = &vectorSegment{}
		t.segs[rt] = s
	}
	s.units, s.right, s.total = s.units+1, s.right+right, s.total+total
}

func (t *vectorTally) result() VectorAgreement {
	res := VectorAgreement{Units: t.units}
	n := float64(t.units)
	res.ExactMatch, res.TotalMatches = float64(t.exact)/n, float64(t.sameTotal)/n
	res.MeanAbsDev, res.MeanDev = t.absDev.Value()/n, t.dev.Value()/n
	for score, s := range t.segs {
		acc := 0.0
		if s.total > 0 {
			acc = float64(s.right) / float64(s.total)
		}
		res.Segments = append(res.Segments, SegmentResult{TotalScore: score, Units: s.units, Accuracy: acc})
	}
	slices.SortFunc(res.Segments, func(a, b SegmentResult) int { return a.TotalScore - b.TotalScore })
	return res
}

func total(v AnswerVector) int {
	n := 0
	for _, x := range v {
		if x {
			n++
		}
	}
	return n
}

// compareColumns is CompareVectors over n units' answer columns (bits as coupleColumns reads
// them), with the same arithmetic in the same unit order.
func compareColumns(cols [][]byte, n int) (VectorAgreement, error) {
	if n == 0 {
		return VectorAgreement{}, ErrNoData
	}
	var t vectorTally
	for i := range n {
		right, rt, pt, nr, np := 0, 0, 0, 0, 0
		for _, col := range cols {
			x := col[i]
			nr, np = nr+int(x&1), np+int(x>>2&1)
			rt, pt = rt+int(x>>1&1), pt+int(x>>3&1)
			if x&5 == 5 && x>>1&1 == x>>3&1 {
				right++
			}
		}
		t.add(right, rt, pt, nr, right == nr && np == nr)
	}
	return t.result(), nil
}
