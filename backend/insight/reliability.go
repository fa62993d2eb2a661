package insight

import (
	"encoding/json"
	"math"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/store"
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

// add takes in one label's answers (a rater's ratings of the item's units).
func (r *reliabilityTables) add(item, rater string, answers map[string]json.RawMessage) {
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
			r.tables[q.Key].Add(item+x.UnitSuffix, rater, x.Value)
		}
	}
}

// addGold takes in a gold item's label and, once per item, its gold answers.
func (r *reliabilityTables) addGold(l store.GoldLabel) {
	var answers, gold map[string]json.RawMessage
	if json.Unmarshal(l.Answers, &answers) != nil || json.Unmarshal(l.Gold, &gold) != nil {
		return
	}
	r.add(l.ItemID, l.UserID, answers)
	for _, q := range r.questions {
		raw, ok := gold[q.Key]
		if !ok {
			continue
		}
		rs, err := r.cache[q.Key].ratings(q, raw, false)
		if err != nil {
			continue
		}
		for _, x := range rs {
			r.gold[q.Key][l.ItemID+x.UnitSuffix] = x.Value
		}
	}
}

// estimate fits each question's model and returns every rater's figures, pooled over questions.
func (r *reliabilityTables) estimate() map[string]*ReliabilityFigures {
	out := map[string]*ReliabilityFigures{}
	pooled := map[string]*[2]float64{} // rater → expected correct, ratings
	for _, q := range r.questions {
		tab, err := r.tables[q.Key].Build()
		if err != nil {
			continue // note: no ratings of this question
		}
		fit, err := agreement.EstimateReliability(tab, agreement.ReliabilityOptions{Gold: r.gold[q.Key]})
		if err != nil {
			continue // note: one rater, or one value only: nothing to tell raters apart by
		}
		for i, rr := range fit.Raters {
			id := tab.Rater(i)
			f := out[id]
			if f == nil {
				f = &ReliabilityFigures{Questions: map[string]Estimate{}}
				out[id], pooled[id] = f, &[2]float64{}
			}
			f.Questions[q.Key] = Estimate{Ratings: rr.Ratings, Accuracy: rr.Accuracy, Low: rr.Low, High: rr.High}
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

// lowReliability reports whether a person's estimate lies wholly below min.
func lowReliability(f *ReliabilityFigures, min float64) bool {
	return f != nil && f.Ratings >= reliabilityMinRatings && !math.IsNaN(f.High) && f.High < min
}
