package agreement

import (
	"fmt"
	"math/rand/v2"
	"reflect"
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
