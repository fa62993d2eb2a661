package agreement

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// sharedColumns numbers the records of several judges on one JudgeKeys (units and
// questions in an order of their own, names with repeats), as a caller that reads its
// data as numbers would.
func sharedColumns(rng *rand.Rand, sets ...[]JudgeRecord) []JudgeColumns {
	keys := &JudgeKeys{}
	units, questions := map[string]int32{}, map[string]int32{}
	for _, recs := range sets {
		for _, r := range recs {
			if _, ok := units[r.Unit]; !ok {
				units[r.Unit] = -1
			}
			if _, ok := questions[r.Question]; !ok {
				questions[r.Question] = -1
			}
		}
	}
	for u := range units { // note: map order, so numbers differ from the records' order
		units[u] = int32(len(keys.Units))
		keys.Units = append(keys.Units, u)
	}
	for q := range questions {
		questions[q] = int32(len(keys.Questions))
		keys.Questions = append(keys.Questions, q)
	}
	var out []JudgeColumns
	for _, recs := range sets {
		c := JudgeColumns{Keys: keys, Names: []string{""}}
		values := map[string]int32{}
		name := func(s string) int32 {
			if s == "" && rng.IntN(2) == 0 {
				return 0
			}
			c.Names = append(c.Names, s) // note: a name may be listed twice
			return int32(len(c.Names) - 1)
		}
		for _, r := range recs {
			v, ok := values[r.Value]
			if !ok {
				v = int32(len(c.Values))
				values[r.Value] = v
				c.Values = append(c.Values, r.Value)
			}
			c.Unit, c.Question, c.Value = append(c.Unit, units[r.Unit]), append(c.Question, questions[r.Question]), append(c.Value, v)
			c.Cluster, c.Stratum = append(c.Cluster, name(r.Cluster)), append(c.Stratum, name(r.Stratum))
			c.A, c.B = append(c.A, name(r.A)), append(c.B, name(r.B))
		}
		out = append(out, c)
	}
	return out
}

// TestJudgeColumnsAsRecords: a judge evaluated from columns (NewJudgeColumns on shared
// keys, matched on numbers) gets the same report, bit for bit, as from records, for Yes/No
// answer vectors, pairwise labels with players, scalar pairwise judges and scores, with
// clusters, strata, missing and shuffled predictions.
func TestJudgeColumnsAsRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	kinds := []struct {
		kind   JudgeKind
		values []string
	}{
		{Binary, []string{"yes", "no", "Yes", "n"}}, {Pairwise, []string{"a", "b", "tie", "A>B"}},
		{Pairwise, []string{"0.5", "-1", "0", "2"}}, {Score, []string{"1", "2", "3", "4.5", "5"}},
	}
	for trial := range 240 {
		k := kinds[trial%len(kinds)]
		var rr, ra, rb []JudgeRecord
		nq := 1 + rng.IntN(3)
		for u := range 1 + rng.IntN(50) {
			for q := range nq {
				r := JudgeRecord{Unit: fmt.Sprint("u", u), Question: fmt.Sprint("q", q), Value: k.values[rng.IntN(len(k.values))]}
				if trial%3 == 0 {
					r.Question = ""
					if q > 0 {
						continue
					}
				}
				if trial%2 == 0 {
					r.Cluster = fmt.Sprint("c", rng.IntN(6))
				}
				if trial%5 < 2 {
					r.Stratum = fmt.Sprint("s", u%3)
				}
				if k.kind == Pairwise && rng.IntN(4) > 0 {
					r.A, r.B = fmt.Sprint("m", rng.IntN(4)), fmt.Sprint("m", 4+rng.IntN(3))
				}
				pa, pb := JudgeRecord{Unit: r.Unit, Question: r.Question, Value: r.Value}, JudgeRecord{Unit: r.Unit, Question: r.Question, Value: r.Value}
				if rng.IntN(3) == 0 {
					pa.Value = k.values[rng.IntN(len(k.values))]
				}
				if rng.IntN(2) == 0 {
					pb.Value = k.values[rng.IntN(len(k.values))]
				}
				rr = append(rr, r)
				if rng.IntN(8) > 0 {
					ra = append(ra, pa)
				}
				if rng.IntN(8) > 0 {
					rb = append(rb, pb)
				}
			}
		}
		if trial%4 == 1 {
			rng.Shuffle(len(ra), func(i, j int) { ra[i], ra[j] = ra[j], ra[i] })
		}
		ref, _ := NewJudgeData(rr)
		a, _ := NewJudgeData(ra)
		b, _ := NewJudgeData(rb)
		cols := sharedColumns(rng, rr, ra, rb)
		var cd [3]*JudgeData
		for i, c := range cols {
			var err error
			if cd[i], err = NewJudgeColumns(c); err != nil {
				t.Fatal(err)
			}
		}
		opts := JudgeOptions{Kind: k.kind, Bootstrap: 50, Intervals: 50, Seed: uint64(trial), Elo: EloOptions{K: 32, Tie: 0.5}}
		for _, second := range []int{-1, 2} {
			var sr, sc *JudgeData
			if second > 0 {
				sr, sc = b, cd[2]
			}
			want, werr := EvaluateJudge(ref, a, sr, opts)
			got, gerr := EvaluateJudge(cd[0], cd[1], sc, opts)
			if (werr != nil) != (gerr != nil) || (werr != nil && werr.Error() != gerr.Error()) {
				t.Fatalf("trial %d: error %v, from records %v", trial, gerr, werr)
			}
			wj, _ := json.Marshal(want)
			gj, _ := json.Marshal(got)
			if string(wj) != string(gj) {
				t.Fatalf("trial %d: from columns\n%s\nfrom records\n%s", trial, gj, wj)
			}
			if second > 0 && werr == nil {
				wd, _ := JudgeDifference(ref, a, b, opts)
				gd, _ := JudgeDifference(cd[0], cd[1], cd[2], opts)
				wj, _ := json.Marshal(wd)
				gj, _ := json.Marshal(gd)
				if string(wj) != string(gj) {
					t.Fatalf("trial %d: difference from columns %s, from records %s", trial, gj, wj)
				}
			}
		}
		// columns on keys of their own are matched by name
		alone := sharedColumns(rng, ra)
		own, _ := NewJudgeColumns(alone[0])
		want, werr := EvaluateJudge(ref, a, nil, opts)
		got, gerr := EvaluateJudge(cd[0], own, nil, opts)
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		if (werr != nil) != (gerr != nil) || string(wj) != string(gj) {
			t.Fatalf("trial %d: on keys of its own %s (%v), from records %s (%v)", trial, gj, gerr, wj, werr)
		}
	}
}

// TestJudgeColumnsChecked: a (unit, question) pair twice, columns of different lengths and
// numbers out of range are refused.
func TestJudgeColumnsChecked(t *testing.T) {
	keys := &JudgeKeys{Units: []string{"u0", "u1"}, Questions: []string{"q"}}
	for name, c := range map[string]JudgeColumns{
		"twice":   {Keys: keys, Unit: []int32{1, 0, 1}, Question: []int32{0, 0, 0}, Value: []int32{0, 0, 0}, Values: []string{"yes"}},
		"lengths": {Keys: keys, Unit: []int32{1, 0}, Question: []int32{0}, Value: []int32{0, 0}, Values: []string{"yes"}},
		"range":   {Keys: keys, Unit: []int32{2}, Question: []int32{0}, Value: []int32{0}, Values: []string{"yes"}},
		"names":   {Keys: keys, Unit: []int32{0}, Question: []int32{0}, Value: []int32{0}, Values: []string{"yes"}, Cluster: []int32{1}, Names: []string{""}},
	} {
		_, err := NewJudgeColumns(c)
		want := ErrInput
		if name == "twice" {
			want = ErrDuplicateRating
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
}
