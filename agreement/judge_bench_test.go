package agreement

import (
	"fmt"
	"testing"
)

// judgeBenchData is a binary checklist of units × 4 questions with two judges, clustered by
// one of 8 sources, like the generated project of backend/workflow's TestInsight1M.
func judgeBenchData(units int) (ref, a, b *JudgeData) {
	yn := func(c bool) string {
		if c {
			return "yes"
		}
		return "no"
	}
	var rr, ra, rb []JudgeRecord
	for i := range units {
		u := fmt.Sprintf("ext-%08d", i)
		for q, salt := range []int{0, 1, 2, 3} {
			key := fmt.Sprintf("q%d", q)
			v := func(s int) string { return yn((i*(q+2)+salt+s)%(q+3) != 0) }
			rr = append(rr, JudgeRecord{Unit: u, Question: key, Value: v(0), Cluster: fmt.Sprintf("corpus-%d", i%8)})
			ra = append(ra, JudgeRecord{Unit: u, Question: key, Value: v(i % 7 / 6)})
			rb = append(rb, JudgeRecord{Unit: u, Question: key, Value: v(2 * (i % 3 / 2))})
		}
	}
	ref, _ = NewJudgeData(rr)
	a, _ = NewJudgeData(ra)
	b, _ = NewJudgeData(rb)
	return ref, a, b
}

// BenchmarkEvaluateJudge is one model's report on 5000 units × 4 binary questions with its
// own intervals and the paired bootstrap against a second model (1000 replicates each).
func BenchmarkEvaluateJudge(b *testing.B) {
	ref, x, y := judgeBenchData(5000)
	opts := JudgeOptions{Kind: Binary, Bootstrap: 1000, Intervals: 1000, Seed: 1}
	b.ResetTimer()
	for range b.N {
		if _, err := EvaluateJudge(ref, x, y, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewJudgeData indexes 20,000 units × 4 questions.
func BenchmarkNewJudgeData(b *testing.B) {
	ref, _, _ := judgeBenchData(20000)
	b.ResetTimer()
	for range b.N {
		if _, err := NewJudgeData(ref.Records); err != nil {
			b.Fatal(err)
		}
	}
}
