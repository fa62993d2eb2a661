package workflow

import (
	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// AdaptiveOverlap lets each item take as many labels as its answer needs: Min labels, then one
// more at a time until the posterior of its answer (from the project's reliability model and
// class priors) reaches Confidence on every question with categories, or Max labels are in.
type AdaptiveOverlap struct {
	Min        int     `json:"min"`
	Max        int     `json:"max"`
	Confidence float64 `json:"confidence"`
}

// adaptiveFallback is how often an annotator the reliability model does not know yet (no model,
// or none of their labels in it) is taken to be right.
const adaptiveFallback = 0.8

// Posteriors is, per question with categories, the posterior probability of the likeliest
// answer and that answer's rating value.
type Posteriors map[string]Posterior

// Posterior is one question's likeliest value and its probability.
type Posterior struct {
	Value       string  `json:"value"`
	Probability float64 `json:"probability"`
}

// posteriors computes each modelled question's posterior from an item's labels: the question's
// reliability model where it has one, or a uniform prior with every annotator right at
// adaptiveFallback. Questions without categories, and those no label answered, are left out.
func posteriors(schema *tasks.Schema, models map[string]*agreement.ReliabilityModel, labels []Label) Posteriors {
	out := Posteriors{}
	for _, q := range schema.Questions {
		kind := tasks.KindOf(q)
		if kind.Level() == tasks.LevelNone || kind.Distance() == tasks.DistanceMASI {
			continue
		}
		var ratings []agreement.Rating
		for _, l := range labels {
			raw, ok := l.Answers[q.Key]
			if !ok {
				continue
			}
			for _, r := range kind.Ratings(raw, tasks.RatingsAnalysed) {
				if r.UnitSuffix == "" {
					ratings = append(ratings, agreement.Rating{Rater: l.By, Value: r.Value})
				}
			}
		}
		if len(ratings) == 0 {
			continue
		}
		m := models[q.Key]
		if m == nil {
			m = uniformModel(ratings)
		}
		post := m.Posterior(ratings, adaptiveFallback)
		best := 0
		for k, x := range post {
			if x > post[best] {
				best = k
			}
		}
		out[q.Key] = Posterior{Value: m.Values[best], Probability: post[best]}
	}
	return out
}

// uniformModel is a model of the values the ratings give (at least two), with a uniform prior
// and no rater known.
func uniformModel(ratings []agreement.Rating) *agreement.ReliabilityModel {
	m := &agreement.ReliabilityModel{}
	for _, r := range ratings {
		seen := false
		for _, v := range m.Values {
			seen = seen || v == r.Value
		}
		if !seen {
			m.Values = append(m.Values, r.Value)
		}
	}
	if len(m.Values) < 2 {
		m.Values = append(m.Values, "\x00other")
	}
	for range m.Values {
		m.Prior = append(m.Prior, 1/float64(len(m.Values)))
	}
	return m
}

// confident reports whether every question's posterior reaches the confidence.
func (ps Posteriors) confident(confidence float64) bool {
	for _, p := range ps {
		if p.Probability < confidence {
			return false
		}
	}
	return true
}
