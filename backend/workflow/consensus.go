package workflow

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Label is one person's accepted answers for an item, in canonical candidate order.
type Label struct {
	By      string
	Answers tasks.Answers
	// Corrected: the answers are a reviewer's correction of the label.
	Corrected bool
	// CorrectedBy is the reviewer who corrected it.
	CorrectedBy string
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
	// Questions says, per question in schema order, how the rule settled it.
	Questions []QuestionOutcome
	// Aggregates holds the questions the policy aggregates (mean, median, all) instead of
	// deciding: what the rule made of every evaluation. They never keep an item from being
	// decided and are not in Answers.
	Aggregates map[string]exports.Aggregate
}

// QuestionState is how the consensus rule settled one question.
type QuestionState string

// Question states.
const (
	StateUnanimous   QuestionState = "unanimous"    // every label gave the same answer
	StateTolerance   QuestionState = "tolerance"    // scores differ by no more than the tolerance
	StateMajority    QuestionState = "majority"     // more than half agree (majority rule)
	StateWeighted    QuestionState = "weighted"     // the answer with the highest posterior (reliability rule)
	StateNoConsensus QuestionState = "no_consensus" // the rule settles nothing: a person decides
	StateMissing     QuestionState = "missing"      // the system answered "missing" (an absent input)
	StateText        QuestionState = "text"         // free text: kept beside the decision, never decided by the rule
	StateUnanswered  QuestionState = "unanswered"   // no label answered the question
	StateAggregated  QuestionState = "aggregated"   // aggregated over every evaluation (mean, median, all), never decided
)

// QuestionOutcome is the consensus state of one question and the answer it settled on, if any.
type QuestionOutcome struct {
	Question string          `json:"question"`
	State    QuestionState   `json:"state"`
	Answer   json.RawMessage `json:"answer,omitempty"`
}

// Settled reports whether the state gives an answer.
func (s QuestionState) Settled() bool {
	return s == StateUnanimous || s == StateTolerance || s == StateMajority || s == StateWeighted
}

// Disagreement is one question on which labels differ.
type Disagreement struct {
	Question string            `json:"question"`
	Resolved bool              `json:"resolved"` // settled by majority or tolerance
	Values   []json.RawMessage `json:"values"`   // in label order
}

// Evaluate applies the consensus rule question by question. One label is its own consensus.
func Evaluate(schema *tasks.Schema, c Consensus, labels []Label) Outcome {
	return Aggregate(schema, c, Aggregation{}, labels)
}

// Aggregate applies each question's aggregation rule: the consensus rule, or an aggregate of
// every evaluation that never keeps the item from being decided.
func Aggregate(schema *tasks.Schema, c Consensus, agg Aggregation, labels []Label) Outcome {
	out := Outcome{Agreed: true, Provenance: flow.ProvenanceUnanimous, Answers: tasks.Answers{}}
	if len(labels) == 1 {
		out.Provenance = flow.ProvenanceSingle
	}
	decided := false
	for _, q := range schema.Questions {
		qo := QuestionOutcome{Question: q.Key}
		vals := answersFor(q.Key, labels)
		rule := agg.Of(q.Key)
		switch {
		case len(vals) == 0 && missingFor(q.Key, labels):
			qo.State, qo.Answer = StateMissing, json.RawMessage(`"`+tasks.AnswerMissing+`"`)
			out.Answers[q.Key] = qo.Answer
		case len(vals) == 0:
			qo.State = StateUnanswered
		case tasks.KindOf(q).Consensus() == tasks.ConsensusNone:
			qo.State = StateText
		case rule != AggregateConsensus:
			qo.State = StateAggregated
			if out.Aggregates == nil {
				out.Aggregates = map[string]exports.Aggregate{}
			}
			out.Aggregates[q.Key] = aggregateOf(rule, vals)
		default:
			qo.Answer, qo.State = decide(q, c, vals)
			if !qo.State.Settled() {
				qo.Answer = nil
			}
			out.settle(q.Key, qo, vals)
			decided = true
		}
		out.Questions = append(out.Questions, qo)
	}
	if !out.Agreed {
		out.Answers, out.Provenance = nil, ""
	}
	if out.Agreed && !decided && len(out.Aggregates) > 0 {
		out.Provenance = flow.ProvenanceAggregated
	}
	return out
}

// aggregateOf is what a rule makes of a question's evaluations: for mean and median the value
// and the spread of the scores (an N/A is no score), for all their count.
func aggregateOf(rule AggregateRule, vals []json.RawMessage) exports.Aggregate {
	a := exports.Aggregate{Rule: string(rule), N: len(vals)}
	var xs []float64
	for _, v := range vals {
		var x float64
		if json.Unmarshal(v, &x) == nil {
			xs = append(xs, x) // note: an N/A among scores is no score
		}
	}
	if rule == AggregateAll || len(xs) == 0 {
		return a
	}
	a.N = len(xs)
	slices.Sort(xs)
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	v := mean
	if rule == AggregateMedian {
		mid := len(xs) / 2
		v = xs[mid]
		if len(xs)%2 == 0 {
			v = (xs[mid-1] + xs[mid]) / 2
		}
	}
	lo, hi := xs[0], xs[len(xs)-1]
	a.Value, a.Min, a.Max = &v, &lo, &hi
	if len(xs) > 1 {
		var ss float64
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		sd := math.Sqrt(ss / float64(len(xs)-1))
		a.SD = &sd
	}
	return a
}

// settle records one decided question in the outcome.
func (out *Outcome) settle(key string, qo QuestionOutcome, vals []json.RawMessage) {
	if qo.State != StateUnanimous {
		out.Disagreements = append(out.Disagreements, Disagreement{Question: key, Resolved: qo.State.Settled(), Values: vals})
	}
	if !qo.State.Settled() {
		out.Agreed = false
		return
	}
	out.Answers[key] = qo.Answer
	switch {
	case qo.State == StateWeighted:
		out.Provenance = flow.ProvenanceWeighted
	case qo.State != StateUnanimous && out.Provenance == flow.ProvenanceUnanimous:
		out.Provenance = flow.ProvenanceMajority
	}
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

// decide returns the consensus answer of one question and how the rule settled it.
func decide(q tasks.Question, c Consensus, vals []json.RawMessage) (json.RawMessage, QuestionState) {
	switch tasks.KindOf(q).Consensus() {
	case tasks.ConsensusScore:
		if nums, ok := ints(vals); ok {
			return decideOrdinal(nums, c)
		}
	case tasks.ConsensusItemScores:
		return decideChecklist(q, c, vals)
	}
	return decideNominal(q, c, vals)
}

// decideNominal compares normalised keys: binary answers by "requirement satisfied" (so N/A
// mapped to satisfied agrees with yes), multi-choice as sets, everything else as JSON.
func decideNominal(q tasks.Question, c Consensus, vals []json.RawMessage) (json.RawMessage, QuestionState) {
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
	state := StateNoConsensus
	post, weighted := c.posterior[q.Key]
	switch {
	case len(order) == 1:
		state = StateUnanimous
	case c.Nominal == NominalReliability && weighted:
		for _, k := range order {
			if ratingValue(q, first[k]) == post.Value {
				best, state = k, StateWeighted
			}
		}
	case (c.Nominal == NominalMajority || c.Nominal == NominalReliability) && counts[best]*2 > len(vals):
		state = StateMajority // note: the reliability rule on a question the model leaves out
	}
	return modal(q, vals, best, first[best]), state
}

// ratingValue is the value an answer has as a rating of its whole unit (the reliability model's
// value), "" when it has none.
func ratingValue(q tasks.Question, v json.RawMessage) string {
	for _, r := range tasks.KindOf(q).Ratings(v, tasks.RatingsAnalysed) {
		if r.UnitSuffix == "" {
			return r.Value
		}
	}
	return ""
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

// nominalKey is the key answers agree on: binary answers by "requirement satisfied" (so N/A
// mapped to satisfied agrees with yes), multi-choice as sets, list edits by the list they
// leave, everything else as compact JSON (the kind's ConsensusKey).
func nominalKey(q tasks.Question, v json.RawMessage) string { return tasks.KindOf(q).ConsensusKey(v) }

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
func decideOrdinal(nums []int, c Consensus) (json.RawMessage, QuestionState) {
	lo, hi := slices.Min(nums), slices.Max(nums)
	switch {
	case lo == hi:
		return mustJSON(lo), StateUnanimous
	case hi-lo <= c.OrdinalTolerance:
		return mustJSON(median(nums)), StateTolerance
	case c.Nominal != NominalMajority:
		return nil, StateNoConsensus
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
		return mustJSON(median(best)), StateMajority
	}
	return nil, StateNoConsensus
}

// stateRank orders states from the weakest agreement to the strongest, so that a question
// made of parts takes its weakest part's state.
var stateRank = map[QuestionState]int{StateNoConsensus: 0, StateMajority: 1, StateTolerance: 2, StateUnanimous: 3}

// decideChecklist treats each sub-item as an ordinal score; all must agree.
func decideChecklist(q tasks.Question, c Consensus, vals []json.RawMessage) (json.RawMessage, QuestionState) {
	maps := make([]map[string]int, len(vals))
	for i, v := range vals {
		json.Unmarshal(v, &maps[i])
	}
	out := map[string]int{}
	state := StateUnanimous
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
		ans, st := decideOrdinal(nums, c)
		if stateRank[st] < stateRank[state] {
			state = st
		}
		if st.Settled() {
			var n int
			json.Unmarshal(ans, &n)
			out[it.Key] = n
		}
	}
	if !state.Settled() {
		return nil, state
	}
	return mustJSON(out), state
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
