package insight

import (
	"context"
	"encoding/json"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ShareCount is how many labels have one value and their share of the question's labels.
type ShareCount struct {
	Value string  `json:"value"`
	Count int64   `json:"count"`
	Share float64 `json:"share"`
}

// PositionBias is one pairwise question's submitted labels counted two ways: by the output
// chosen (A, B, tie in the stored order) and by the position it was shown in (A the first
// shown, B the second, tie), each label's stored answer mapped back through the order that
// label was shown in. With orders shuffled per label, a pool without position bias picks the
// first position about as often as the second, whatever the outputs' shares.
type PositionBias struct {
	Key       string       `json:"key"`
	Label     string       `json:"label"`
	Labels    int64        `json:"labels"`
	Outputs   []ShareCount `json:"outputs"`
	Positions []ShareCount `json:"positions"`
}

// pairwiseSlots are the values of a pairwise answer, in the order they are reported.
var pairwiseSlots = []string{"A", "B", tasks.AnswerTie}

// positionTally counts pairwise labels by output and by shown position.
type positionTally struct {
	schema    *tasks.Schema
	questions []tasks.Question
	outputs   map[string]map[string]int64
	positions map[string]map[string]int64
}

func newPositionTally(schema *tasks.Schema) *positionTally {
	t := &positionTally{schema: schema, outputs: map[string]map[string]int64{}, positions: map[string]map[string]int64{}}
	for _, q := range schema.Questions {
		if q.Kind == tasks.KindPairwise {
			t.questions = append(t.questions, q)
			t.outputs[q.Key], t.positions[q.Key] = map[string]int64{}, map[string]int64{}
		}
	}
	return t
}

// add counts one submitted label: its stored (canonical) answers, and the same answers in the
// order the label was shown (an order that does not map leaves the label out).
func (t *positionTally) add(r *store.LabelRow) error {
	var answers tasks.Answers
	if len(r.Answers) == 0 || json.Unmarshal(r.Answers, &answers) != nil {
		return nil
	}
	var sh tasks.Shuffle
	if len(r.Shuffle) > 0 {
		json.Unmarshal(r.Shuffle, &sh)
	}
	shown, err := t.schema.ToShown(answers, sh)
	if err != nil {
		return nil
	}
	for _, q := range t.questions {
		var out, pos string
		if json.Unmarshal(answers[q.Key], &out) != nil || json.Unmarshal(shown[q.Key], &pos) != nil {
			continue
		}
		t.outputs[q.Key][out]++
		t.positions[q.Key][pos]++
	}
	return nil
}

func (t *positionTally) figures() []PositionBias {
	out := []PositionBias{}
	shares := func(m map[string]int64, n int64) []ShareCount {
		sc := []ShareCount{}
		for _, v := range pairwiseSlots {
			c := ShareCount{Value: v, Count: m[v]}
			if n > 0 {
				c.Share = float64(m[v]) / float64(n)
			}
			sc = append(sc, c)
		}
		return sc
	}
	for _, q := range t.questions {
		n := int64(0)
		for _, c := range t.outputs[q.Key] {
			n += c
		}
		out = append(out, PositionBias{Key: q.Key, Label: q.Label, Labels: n,
			Outputs: shares(t.outputs[q.Key], n), Positions: shares(t.positions[q.Key], n)})
	}
	return out
}

// computePositions counts the submitted labels of a project's pairwise questions; nil when it
// has none.
func (s *Service) computePositions(ctx context.Context, p *workflow.Project) ([]PositionBias, error) {
	t := newPositionTally(p.Schema)
	if len(t.questions) == 0 {
		return nil, nil
	}
	if err := s.store.EachProductionLabel(ctx, p.ID, false, t.add); err != nil {
		return nil, err
	}
	return t.figures(), nil
}
