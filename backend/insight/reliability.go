package insight

import (
	"context"
	"encoding/json"
	"math"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Reliability flags: an annotator is flagged once their estimate rests on at least
// reliabilityMinRatings answers and its whole interval lies below the project's minimum.
const (
	FlagLowReliability    = "low_reliability"
	reliabilityMinRatings = 20
)

// ReliabilityFigures is an annotator's estimated accuracy under the project's Dawid–Skene
// model: per question that has categories, and pooled over them.
type ReliabilityFigures struct {
	Estimate
	Questions map[string]Estimate `json:"questions"`
}

// Estimate is an expected share of correct answers with its 95 % Wilson interval.
type Estimate struct {
	Ratings  int     `json:"ratings"`
	Accuracy float64 `json:"accuracy"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
}

// reliabilityTables collects, per question with categories (a level of measurement and no set
// distance), every production and gold label as ratings, and the gold answers of gold items.
type reliabilityTables struct {
	questions []tasks.Question
	tables    map[string]*agreement.Builder
	gold      map[string]map[string]string // question → unit → gold value
	cache     map[string]ratingsCache
}

func newReliabilityTables(schema *tasks.Schema) *reliabilityTables {
	r := &reliabilityTables{tables: map[string]*agreement.Builder{}, gold: map[string]map[string]string{}, cache: map[string]ratingsCache{}}
	for _, q := range schema.Questions {
		level, ok := agreementLevel(q)
		if !ok || tasks.KindOf(q).Distance() == tasks.DistanceMASI {
			continue
		}
		r.questions = append(r.questions, q)
		r.tables[q.Key] = agreement.NewBuilder(level, 0)
		r.gold[q.Key] = map[string]string{}
		r.cache[q.Key] = ratingsCache{}
	}
	return r
}

// each calls fn with every rating of the answers to the modelled questions.
func (r *reliabilityTables) each(answers map[string]json.RawMessage, fn func(key, unitSuffix, value string)) {
	for _, q := range r.questions {
		raw, ok := answers[q.Key]
		if !ok {
			continue
		}
		rs, err := r.cache[q.Key].ratings(q, raw, false)
		if err != nil {
			continue
		}
		for _, x := range rs {
			fn(q.Key, x.UnitSuffix, x.Value)
		}
	}
}

// add takes in one label's answers (a rater's ratings of the item's units).
func (r *reliabilityTables) add(item, rater string, answers map[string]json.RawMessage) {
	r.each(answers, func(key, suffix, value string) { r.tables[key].Add(item+suffix, rater, value) })
}

// addGold takes in a gold item's label and its gold answers.
func (r *reliabilityTables) addGold(l store.GoldLabel) {
	var answers, gold map[string]json.RawMessage
	if json.Unmarshal(l.Answers, &answers) != nil || json.Unmarshal(l.Gold, &gold) != nil {
		return
	}
	r.add(l.ItemID, l.UserID, answers)
	r.each(gold, func(key, suffix, value string) { r.gold[key][l.ItemID+suffix] = value })
}

// fitted is one question's fitted model with its table.
type fitted struct {
	key string
	tab *agreement.Table
	fit *agreement.Reliability
}

// fit fits each question's model, in schema order; questions with one rater or one value only
// (nothing to tell raters apart by) or no ratings are left out.
func (r *reliabilityTables) fit() []fitted {
	var out []fitted
	for _, q := range r.questions {
		tab, err := r.tables[q.Key].Build()
		if err != nil {
			continue // note: no ratings of this question
		}
		fit, err := agreement.EstimateReliability(tab, agreement.ReliabilityOptions{Gold: r.gold[q.Key]})
		if err != nil {
			continue // note: one rater, or one value only
		}
		out = append(out, fitted{q.Key, tab, fit})
	}
	return out
}

// estimate returns every rater's figures per question and pooled over questions.
func (r *reliabilityTables) estimate() map[string]*ReliabilityFigures {
	out := map[string]*ReliabilityFigures{}
	pooled := map[string]*[2]float64{} // rater → expected correct, ratings
	for _, f := range r.fit() {
		for i, rr := range f.fit.Raters {
			id := f.tab.Rater(i)
			fig := out[id]
			if fig == nil {
				fig = &ReliabilityFigures{Questions: map[string]Estimate{}}
				out[id], pooled[id] = fig, &[2]float64{}
			}
			fig.Questions[f.key] = Estimate{Ratings: rr.Ratings, Accuracy: rr.Accuracy, Low: rr.Low, High: rr.High}
			pooled[id][0] += rr.Correct
			pooled[id][1] += float64(rr.Ratings)
		}
	}
	for id, f := range out {
		c, n := pooled[id][0], pooled[id][1]
		acc, lo, hi := agreement.WilsonInterval(c, n)
		f.Estimate = Estimate{Ratings: int(n), Accuracy: acc, Low: lo, High: hi}
	}
	return out
}

// computeReliability fits the project's reliability model from its production and gold labels
// (the reliability figures job's work).
func (s *Service) computeReliability(ctx context.Context, p *workflow.Project) (*workflow.ReliabilityModels, error) {
	r := newReliabilityTables(p.Schema)
	out := &workflow.ReliabilityModels{Questions: map[string]*agreement.ReliabilityModel{}}
	err := s.store.EachProductionLabel(ctx, p.ID, false, func(l *store.LabelRow) error {
		answers, err := acceptedAnswers(l)
		if err != nil {
			return err
		}
		out.Labels++
		r.add(l.ItemID, l.UserID, answers)
		return nil
	})
	if err != nil {
		return nil, err
	}
	gold, err := s.store.GoldLabels(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	for _, l := range gold {
		r.addGold(l)
	}
	for _, f := range r.fit() {
		out.Questions[f.key] = f.fit.Model(f.tab)
	}
	return out, nil
}

// lowReliability reports whether a person's estimate lies wholly below min.
func lowReliability(f *ReliabilityFigures, min float64) bool {
	return f != nil && f.Ratings >= reliabilityMinRatings && !math.IsNaN(f.High) && f.High < min
}
