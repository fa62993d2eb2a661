package agreement

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestJudgeVectorsFromColumns: the answer-vector figures fillVectors builds from byte columns
// equal CompareVectors and CoupleDimensions on a map per unit, for shuffled records with
// some (unit, question) pairs missing.
func TestJudgeVectorsFromColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for trial := range 200 {
		var rr, rp []JudgeRecord
		for u := range 1 + rng.IntN(80) {
			for q := range 1 + rng.IntN(5) {
				if rng.IntN(6) == 0 {
					continue
				}
				r := JudgeRecord{Unit: fmt.Sprint("u", u), Question: fmt.Sprint("q", q), Value: []string{"yes", "no"}[rng.IntN(2)]}
				p := r
				if rng.IntN(3) == 0 {
					p.Value = []string{"yes", "no"}[rng.IntN(2)]
				}
				rr, rp = append(rr, r), append(rp, p)
			}
		}
		rng.Shuffle(len(rr), func(i, j int) { rr[i], rr[j], rp[i], rp[j] = rr[j], rr[i], rp[j], rp[i] })
		ref, _ := NewJudgeData(rr)
		pred, _ := NewJudgeData(rp)
		items, _ := matchItems(ref, pred, nil)
		v, err := newJudgeView(ref, pred, items, Binary)
		if err != nil {
			continue
		}
		got := &JudgeReport{}
		if err := got.fillVectors(v); err != nil {
			t.Fatal(err)
		}
		var refV, predV []AnswerVector
		pos := map[string]int{}
		for i, r := range v.recs {
			k, ok := pos[r.Unit]
			if !ok {
				k = len(refV)
				pos[r.Unit] = k
				refV, predV = append(refV, AnswerVector{}), append(predV, AnswerVector{})
			}
			refV[k][r.Question] = v.ref[i] == "yes"
			predV[k][r.Question] = v.pred[i] == "yes"
		}
		va, err := CompareVectors(refV, predV)
		if err != nil {
			t.Fatal(err)
		}
		want := &JudgeReport{ExactMatch: ptr(Estimate{va.ExactMatch, true}), SegmentAccuracy: va.Segments,
			TotalScoreDeviation: &TotalDeviation{MeanAbs: va.MeanAbsDev, MeanSigned: va.MeanDev, ShareEqual: va.TotalMatches}}
		if c, err := CoupleDimensions(refV, predV); err == nil && len(c.Questions) > 1 {
			want.Coupling = c
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: columns %+v, maps %+v", trial, got, want)
		}
	}
}

// TestJudgeMatchPositions: matching by guessed positions finds the records the index names,
// for judges listed in the reference's order, in another order, or shuffled.
func TestJudgeMatchPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for trial := range 300 {
		var rr, rp, rs []JudgeRecord
		for u := range 1 + rng.IntN(50) {
			for q := range 1 + rng.IntN(4) {
				r := JudgeRecord{Unit: fmt.Sprint("u", u), Question: fmt.Sprint("q", q), Value: "yes"}
				if rng.IntN(5) > 0 {
					rr = append(rr, r)
				}
				if rng.IntN(5) > 0 {
					rp = append(rp, r)
				}
				if rng.IntN(4) > 0 {
					rs = append(rs, r)
				}
			}
		}
		switch trial % 3 {
		case 1:
			rng.Shuffle(len(rp), func(i, j int) { rp[i], rp[j] = rp[j], rp[i] })
		case 2:
			slices.SortStableFunc(rs, func(a, b JudgeRecord) int { return strings.Compare(a.Question, b.Question) })
		}
		ref, _ := NewJudgeData(rr)
		pred, _ := NewJudgeData(rp)
		second, _ := NewJudgeData(rs)
		for _, sec := range []*JudgeData{nil, second} {
			items, at, atSecond, missing := matchPositions(ref, pred, sec)
			var wi []int
			var wa, ws []int32
			for i, r := range ref.Records {
				k := [2]string{r.Unit, r.Question}
				p, ok := pred.index[k]
				q := 0
				if ok && sec != nil {
					q, ok = sec.index[k]
				}
				if ok {
					wi, wa = append(wi, i), append(wa, int32(p))
					if sec != nil {
						ws = append(ws, int32(q))
					}
				}
			}
			if !slices.Equal(items, wi) || !slices.Equal(at, wa) || !slices.Equal(atSecond, ws) || missing != len(ref.Records)-len(wi) {
				t.Fatalf("trial %d: positions %v %v %v, index %v %v %v", trial, items, at, atSecond, wi, wa, ws)
			}
		}
	}
}
