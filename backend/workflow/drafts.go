package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// prefill records the shown candidate order of a new assignment and, for labels, the draft
// derived from model predictions when the project asks for one (for a gold item without
// predictions, from another item's: see below).
func (s *Service) prefill(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment, it *store.Item) error {
	if it == nil {
		var err error
		if it, err = tx.Item(ctx, p.ID, a.ItemID); err != nil {
			return err
		}
	}
	view, err := viewOf(p.StageSchema(a.Stage), it, a) // note: the whole form, so every pass's candidates get their order
	if err != nil {
		return err
	}
	a.Shuffle = Encode(view.Shuffle)
	d := p.Policy.DraftFromPredictions
	if a.Stage != flow.StageLabel || d == nil {
		return nil
	}
	preds, err := tx.Predictions(ctx, a.ItemID)
	if err != nil {
		return err
	}
	decoy := len(preds) == 0 && it.Stage == flow.StageGold
	if decoy {
		// note: a gold item without predictions of its own is drafted from those of a predicted
		// item drawn at random, so that its claim is prefilled as the production claims are
		// and nothing in it tells it apart
		if preds, err = tx.PredictionsAt(ctx, p.ID, rand.Float64()); err != nil {
			return err
		}
	}
	if len(preds) == 0 {
		return nil
	}
	draft := DraftFrom(p.Schema, *d, preds)
	if len(draft) == 0 {
		return nil
	}
	a.Draft = Encode(draft)
	src := "predictions:" + string(d.Method)
	if d.Method == DraftModel {
		src = "model:" + d.Model
	}
	if decoy {
		src = "decoy:" + src // note: the lead's views say so; the person sees "prefilled"
	}
	a.DraftSource = &src
	return nil
}

// DraftFrom combines model predictions into a draft, keeping only answers the schema accepts.
func DraftFrom(schema *tasks.Schema, d DraftPolicy, preds []store.Prediction) tasks.Answers {
	var sets []tasks.Answers
	for _, pr := range preds {
		if d.Method == DraftModel && pr.Model != d.Model {
			continue
		}
		sets = append(sets, DecodeAnswers(pr.Answers))
	}
	if len(sets) == 0 {
		return nil
	}
	out := tasks.Answers{}
	for _, q := range schema.Questions {
		var vals []json.RawMessage
		for _, a := range sets {
			if raw, ok := a[q.Key]; ok {
				vals = append(vals, raw)
			}
		}
		if len(vals) == 0 {
			continue
		}
		if v := combine(q, d, vals); v != nil {
			out[q.Key] = v
		}
	}
	return validOnly(schema, out)
}

func combine(q tasks.Question, d DraftPolicy, vals []json.RawMessage) json.RawMessage {
	if d.Method == DraftMean && tasks.KindOf(q).Consensus() == tasks.ConsensusScore {
		if nums, ok := ints(vals); ok {
			return mustJSON(round(mean(nums), d.Rounding))
		}
	}
	if d.Method == DraftMean && tasks.KindOf(q).Consensus() == tasks.ConsensusItemScores {
		return meanChecklist(q, d, vals)
	}
	ans, _ := decideNominal(q, Consensus{Nominal: NominalMajority}, vals)
	return ans
}

func meanChecklist(q tasks.Question, d DraftPolicy, vals []json.RawMessage) json.RawMessage {
	out := map[string]int{}
	for _, it := range q.Items {
		var nums []int
		for _, v := range vals {
			var m map[string]int
			if json.Unmarshal(v, &m) == nil {
				if n, ok := m[it.Key]; ok {
					nums = append(nums, n)
				}
			}
		}
		if len(nums) > 0 {
			out[it.Key] = round(mean(nums), d.Rounding)
		}
	}
	return mustJSON(out)
}

func mean(nums []int) float64 {
	sum := 0
	for _, n := range nums {
		sum += n
	}
	return float64(sum) / float64(len(nums))
}

func round(x float64, rule Rounding) int {
	switch rule {
	case RoundFloor:
		return int(math.Floor(x))
	case RoundCeil:
		return int(math.Ceil(x))
	}
	return int(math.Floor(x + 0.5))
}

// validOnly drops answers the schema rejects; missing required answers are fine in a draft.
func validOnly(schema *tasks.Schema, answers tasks.Answers) tasks.Answers {
	err := schema.ValidateAnswers(answers)
	var fe tasks.FieldErrors
	if err == nil || !errors.As(err, &fe) {
		return answers
	}
	for key := range fe {
		delete(answers, key)
	}
	return answers
}
