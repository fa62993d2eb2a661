package workflow

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/workflow/flow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Label is one person's accepted answers for an item, in canonical candidate order.
type Label struct {
	By      string
	Answers tasks.Answers
	// Corrected: the answers are a reviewer's correction of the label.
	Corrected bool
}

// Outcome is what the consensus rule made of an item's labels.
type Outcome struct {
	Agreed     bool
	Provenance flow.Provenance
	// Answers are the agreed answers; free-text questions are not part of consensus (their
	// answers are kept beside the ground truth, see textsOf), and a question every label has
	// as "missing" is "missing".
	Answers tasks.Answers
	// Disagreements lists, per question without unanimity, what each label said.
	Disagreements []Disagreement
}

// Disagreement is one question on which labels differ.
type Disagreement struct {
	Question string            `json:"question"`
	Resolved bool              `json:"resolved"` // settled by majority or tolerance
	Values   []json.RawMessage `json:"values"`   // in label order
}

// Evaluate applies the consensus rule question by question. One label is its own consensus.
func Evaluate(schema *tasks.Schema, c Consensus, labels []Label) Outcome {
	out := Outcome{Agreed: true, Provenance: flow.ProvenanceUnanimous, Answers: tasks.Answers{}}
	if len(labels) == 1 {
		out.Provenance = flow.ProvenanceSingle
	}
	for _, q := range schema.Questions {
		vals := answersFor(q.Key, labels)
		if len(vals) == 0 && missingFor(q.Key, labels) {
			out.Answers[q.Key] = json.RawMessage(`"` + tasks.AnswerMissing + `"`)
			continue
		}
		if len(vals) == 0 || q.Kind == tasks.KindText || q.Kind == tasks.KindCriteria {
			continue
		}
		answer, unanimous, agreed := decide(q, c, vals)
		if !unanimous {
			out.Disagreements = append(out.Disagreements, Disagreement{Question: q.Key, Resolved: agreed, Values: vals})
		}
		if !agreed {
			out.Agreed = false
			continue
		}
		out.Answers[q.Key] = answer
		if !unanimous && out.Provenance == flow.ProvenanceUnanimous {
			out.Provenance = flow.ProvenanceMajority
		}
	}
	if !out.Agreed {
		out.Answers, out.Provenance = nil, ""
	}
	return out
}

// answersFor returns the labels' answers to a question; "missing" (given by the system when the
// item lacks an input the question needs) is not an answer and is left out.
func answersFor(key string, labels []Label) []json.RawMessage {
	var vals []json.RawMessage
	for _, l := range labels {
		if raw, ok := l.Answers[key]; ok && len(raw) > 0 && string(raw) != "null" && !tasks.IsMissing(raw) {
			vals = append(vals, raw)
		}
	}
	return vals
}

// missingFor reports whether some label holds the system's "missing" for a question.
func missingFor(key string, labels []Label) bool {
	for _, l := range labels {
		if tasks.IsMissing(l.Answers[key]) {
			return true
		}
	}
	return false
}

// decide returns the consensus answer of one question and whether it was unanimous/agreed.
func decide(q tasks.Question, c Consensus, vals []json.RawMessage) (json.RawMessage, bool, bool) {
	switch q.Kind {
	case tasks.KindLikert:
		if nums, ok := ints(vals); ok {
			return decideOrdinal(nums, c)
		}
	case tasks.KindChecklist:
		return decideChecklist(q, c, vals)
	}
	return decideNominal(q, c, vals)
}

// decideNominal compares normalised keys: binary answers by "requirement satisfied" (so N/A
// mapped to satisfied agrees with yes), multi-choice as sets, everything else as JSON.
func decideNominal(q tasks.Question, c Consensus, vals []json.RawMessage) (json.RawMessage, bool, bool) {
	counts := map[string]int{}
	first := map[string]json.RawMessage{}
	var order []string
	for _, v := range vals {
		k := nominalKey(q, v)
		if counts[k] == 0 {
			order = append(order, k)
			first[k] = v
		}
		counts[k]++
	}
	best := order[0]
	for _, k := range order[1:] {
		if counts[k] > counts[best] {
			best = k
		}
	}
	unanimous := len(order) == 1
	agreed := unanimous || (c.Nominal == NominalMajority && counts[best]*2 > len(vals))
	return modal(q, vals, best, first[best]), unanimous, agreed
}

// modal returns the most common raw answer among those with the winning key.
func modal(q tasks.Question, vals []json.RawMessage, key string, fallback json.RawMessage) json.RawMessage {
	counts := map[string]int{}
	best, bestN := fallback, 0
	for _, v := range vals {
		if nominalKey(q, v) != key {
			continue
		}
		counts[string(v)]++
		if counts[string(v)] > bestN {
			best, bestN = v, counts[string(v)]
		}
	}
	return best
}

func nominalKey(q tasks.Question, v json.RawMessage) string {
	switch q.Kind {
	case tasks.KindBinary:
		var s string
		json.Unmarshal(v, &s)
		if sat := q.Satisfied(s); sat != tasks.Unknown {
			return sat.String()
		}
		return s
	case tasks.KindMultiChoice:
		var keys []string
		json.Unmarshal(v, &keys)
		sort.Strings(keys)
		b, _ := json.Marshal(keys)
		return string(b)
	case tasks.KindListEdit:
		// note: two edits agree when they leave the same list, whatever steps got there
		list, err := tasks.EditedList(v)
		if err != nil {
			return string(v)
		}
		for i, t := range list {
			list[i] = strings.ToLower(strings.Join(strings.Fields(t), " "))
		}
		b, _ := json.Marshal(list)
		return string(b)
	}
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return string(v)
	}
	return buf.String()
}

func ints(vals []json.RawMessage) ([]int, bool) {
	out := make([]int, len(vals))
	for i, v := range vals {
		if json.Unmarshal(v, &out[i]) != nil {
			return nil, false // note: "na" among scores is compared as a category
		}
	}
	return out, true
}

// decideOrdinal agrees when every score is within the tolerance of the others; with the
// majority rule, when more than half lie within the tolerance of one score. The answer is
// the (lower) median of the agreeing scores.
func decideOrdinal(nums []int, c Consensus) (json.RawMessage, bool, bool) {
	lo, hi := slices.Min(nums), slices.Max(nums)
	unanimous := lo == hi
	if hi-lo <= c.OrdinalTolerance {
		return mustJSON(median(nums)), unanimous, true
	}
	if c.Nominal != NominalMajority {
		return nil, false, false
	}
	var best []int
	for _, center := range nums {
		var near []int
		for _, n := range nums {
			if abs(n-center) <= c.OrdinalTolerance {
				near = append(near, n)
			}
		}
		if len(near) > len(best) {
			best = near
		}
	}
	if len(best)*2 > len(nums) {
		return mustJSON(median(best)), false, true
	}
	return nil, false, false
}

// decideChecklist treats each sub-item as an ordinal score; all must agree.
func decideChecklist(q tasks.Question, c Consensus, vals []json.RawMessage) (json.RawMessage, bool, bool) {
	maps := make([]map[string]int, len(vals))
	for i, v := range vals {
		json.Unmarshal(v, &maps[i])
	}
	out := map[string]int{}
	unanimous, agreed := true, true
	for _, it := range q.Items {
		var nums []int
		for _, m := range maps {
			if n, ok := m[it.Key]; ok {
				nums = append(nums, n)
			}
		}
		if len(nums) == 0 {
			continue
		}
		ans, u, a := decideOrdinal(nums, c)
		unanimous, agreed = unanimous && u, agreed && a
		if a {
			var n int
			json.Unmarshal(ans, &n)
			out[it.Key] = n
		}
	}
	if !agreed {
		return nil, false, false
	}
	return mustJSON(out), unanimous, true
}

func median(nums []int) int {
	s := slices.Clone(nums)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
