package agreement

import (
	"fmt"
	"math"
)

// ReliabilityOptions controls EstimateReliability.
type ReliabilityOptions struct {
	MaxIter int     // default 500
	Tol     float64 // stop when the bound per rating gains less than Tol (default 1e-9)
	// Gold holds the known true value of some units, by unit and value name: their posterior is
	// pinned to that value on every iteration, which anchors the raters' confusion matrices.
	// Units or values the table does not hold are ignored.
	Gold map[string]string
}

// Reliability is a Dawid–Skene model of each rater's reliability, fitted by EM.
type Reliability struct {
	Prior      []float64     // class prior, by value code
	Posterior  [][]float64   // per unit, the posterior over its true value
	Confusion  [][][]float64 // per rater, P(rater answers l | true value k) as [k][l]
	Raters     []RaterReliability
	Iterations int
	Converged  bool
	Bound      float64 // the evidence lower bound per rating at the end
}

// RaterReliability is one rater's estimated accuracy: the expected share of their ratings that
// equal the true value under the fitted model (the posterior mass of the value they gave,
// summed over their units), with its 95 % Wilson score interval.
type RaterReliability struct {
	Ratings  int
	Correct  float64 // expected number of correct ratings
	Accuracy float64
	Low      float64
	High     float64
}

// reliabilityFloor is the least a confusion cell or a prior may be (crowd-kit's _EPS).
const reliabilityFloor = 1e-10

// EstimateReliability fits the Dawid–Skene (1979) model with the update order, the floor of
// 1e-10 on probabilities and the stopping rule of crowd-kit's DawidSkene (Toloka), the
// reference it is tested against: posteriors start at the majority vote's shares, gold units
// are pinned to their value, then M-step (prior = mean posterior; confusion = posterior mass per
// given value, floored, normalised per true value) and E-step alternate until the evidence
// lower bound per rating gains less than Tol. Cells of values a rater never gave stay 0 and
// are never read.
func EstimateReliability(t *Table, opts ReliabilityOptions) (*Reliability, error) {
	q := len(t.values)
	if q < 2 {
		return nil, fmt.Errorf("reliability: %w", ErrNoVariation)
	}
	if len(t.raters) < 2 {
		return nil, fmt.Errorf("reliability: %w", ErrTooFewRaters)
	}
	if opts.MaxIter <= 0 {
		opts.MaxIter = 500
	}
	if opts.Tol <= 0 {
		opts.Tol = 1e-9
	}
	gold := goldCodes(t, opts.Gold)
	res := &Reliability{Posterior: initialPosterior(t, DawidSkeneOptions{})}
	pinGold(res.Posterior, gold)
	res.Prior = meanPosterior(res.Posterior)
	res.Confusion = relMaximize(t, res.Posterior)
	prev := math.Inf(-1)
	for res.Iterations < opts.MaxIter {
		res.Iterations++
		relExpect(t, res.Prior, res.Confusion, res.Posterior)
		pinGold(res.Posterior, gold)
		res.Prior = meanPosterior(res.Posterior)
		res.Confusion = relMaximize(t, res.Posterior)
		res.Bound = relBound(t, res.Prior, res.Confusion, res.Posterior)
		if res.Bound-prev < opts.Tol {
			res.Converged = true
			break
		}
		prev = res.Bound
	}
	res.Raters = raterAccuracy(t, res.Posterior)
	return res, nil
}

// goldCodes maps the gold answers to value codes by unit code; -1 where a unit has none.
func goldCodes(t *Table, gold map[string]string) []int32 {
	if len(gold) == 0 {
		return nil
	}
	value := make(map[string]int32, len(t.values))
	for v, name := range t.values {
		value[name] = int32(v)
	}
	out := make([]int32, len(t.units))
	for u, name := range t.units {
		out[u] = -1
		if g, ok := gold[name]; ok {
			if v, ok := value[g]; ok {
				out[u] = v
			}
		}
	}
	return out
}

func pinGold(post [][]float64, gold []int32) {
	for u, v := range gold {
		if v < 0 {
			continue
		}
		for k := range post[u] {
			post[u][k] = 0
		}
		post[u][v] = 1
	}
}

func meanPosterior(post [][]float64) []float64 {
	prior := make([]float64, len(post[0]))
	for _, p := range post {
		for k, x := range p {
			prior[k] += x
		}
	}
	for k := range prior {
		prior[k] /= float64(len(post))
	}
	return prior
}

// relMaximize re-estimates the raters' confusion matrices from the posteriors.
func relMaximize(t *Table, post [][]float64) [][][]float64 {
	q := len(t.values)
	given := make([][]bool, len(t.raters)) // given[r][l]: rater r gave value l at least once
	conf := make([][][]float64, len(t.raters))
	for r := range conf {
		given[r] = make([]bool, q)
		conf[r] = make([][]float64, q)
		for k := range conf[r] {
			conf[r][k] = make([]float64, q)
		}
	}
	for u, p := range post {
		rs, vs := t.UnitRatings(u)
		for i, r := range rs {
			given[r][vs[i]] = true
			for k, pk := range p {
				conf[r][k][vs[i]] += pk
			}
		}
	}
	for r, cr := range conf {
		for k := range q {
			var s float64
			for l := range q {
				if given[r][l] {
					cr[k][l] = math.Max(cr[k][l], reliabilityFloor)
					s += cr[k][l]
				}
			}
			for l := range q {
				cr[k][l] /= s
			}
		}
	}
	return conf
}

// relExpect recomputes the posteriors from the prior (floored) and the confusion matrices.
func relExpect(t *Table, prior []float64, conf [][][]float64, post [][]float64) {
	floored := make([]float64, len(prior))
	for k, p := range prior {
		floored[k] = math.Max(p, reliabilityFloor)
	}
	dsExpect(t, floored, conf, post)
}

// relBound is the evidence lower bound per rating as crowd-kit computes it: for every rating,
// the posterior-weighted log of its confusion cell and of the prior, plus the posteriors'
// entropy (each posterior floored at 1e-10), over the number of ratings.
func relBound(t *Table, prior []float64, conf [][][]float64, post [][]float64) float64 {
	var b accumulator
	for u, p := range post {
		rs, vs := t.UnitRatings(u)
		for i, r := range rs {
			for k, pk := range p {
				b.Add(pk * (math.Log(conf[r][k][vs[i]]) + math.Log(math.Max(prior[k], reliabilityFloor))))
			}
		}
		for _, pk := range p {
			pk = math.Max(pk, reliabilityFloor)
			b.Add(-pk * math.Log(pk))
		}
	}
	return b.Value() / float64(t.NumRatings())
}

// raterAccuracy sums each rater's expected correct ratings.
func raterAccuracy(t *Table, post [][]float64) []RaterReliability {
	out := make([]RaterReliability, len(t.raters))
	for u, p := range post {
		rs, vs := t.UnitRatings(u)
		for i, r := range rs {
			out[r].Ratings++
			out[r].Correct += p[vs[i]]
		}
	}
	for r := range out {
		out[r].Accuracy, out[r].Low, out[r].High = WilsonInterval(out[r].Correct, float64(out[r].Ratings))
	}
	return out
}

// WilsonInterval is the share correct/n with its 95 % Wilson score interval (NaN for n = 0).
// correct may be an expected count.
func WilsonInterval(correct, n float64) (share, low, high float64) {
	if n <= 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	const z = 1.959963984540054
	share = correct / n
	den := 1 + z*z/n
	mid := (share + z*z/(2*n)) / den
	half := z / den * math.Sqrt(share*(1-share)/n+z*z/(4*n*n))
	return share, math.Max(0, mid-half), math.Min(1, mid+half)
}

// ReliabilityModel is a fitted model kept to decide items by: the values, the class prior and
// each rater's confusion matrix ([true][given]), by rater name.
type ReliabilityModel struct {
	Values    []string               `json:"values"`
	Prior     []float64              `json:"prior"`
	Confusion map[string][][]float64 `json:"confusion"`
	// Weight is, per rater, the expected number of their ratings of units of each true value
	// (the posterior mass their confusion rows were estimated from).
	Weight map[string][]float64 `json:"weight"`
}

// Model returns the fitted model by the table's value and rater names.
func (r *Reliability) Model(t *Table) *ReliabilityModel {
	m := &ReliabilityModel{Values: append([]string(nil), t.values...), Prior: append([]float64(nil), r.Prior...),
		Confusion: make(map[string][][]float64, len(t.raters)), Weight: make(map[string][]float64, len(t.raters))}
	weight := make([][]float64, len(t.raters))
	for i := range weight {
		weight[i] = make([]float64, len(t.values))
	}
	for u, p := range r.Posterior {
		rs, _ := t.UnitRatings(u)
		for _, rr := range rs {
			for k, x := range p {
				weight[rr][k] += x
			}
		}
	}
	for i, name := range t.raters {
		m.Confusion[name], m.Weight[name] = r.Confusion[i], weight[i]
	}
	return m
}

// Rating is one rater's value for a unit.
type Rating struct{ Rater, Value string }

// Posterior is the posterior over the model's values of a unit given its ratings: the prior
// times each rating's confusion cell, normalised. A rater the model does not know is taken to
// be right with probability fallback and otherwise to give any other value alike. With strength
// above 0 each rater's confusion row is shrunk towards that fallback row as if it had been seen
// strength more times (a Dirichlet prior: (weight·cell + strength·fallback cell) ÷ (weight +
// strength)), so a rater with few ratings counts little more than an unknown one. A rating of a
// value the model does not hold is left out; a cell of 0 (a value the rater never gave while the
// model was fitted) is taken as the floor.
func (m *ReliabilityModel) Posterior(ratings []Rating, fallback, strength float64) []float64 {
	q := len(m.Values)
	logp := make([]float64, q)
	for k, p := range m.Prior {
		logp[k] = math.Log(math.Max(p, reliabilityFloor))
	}
	for _, r := range ratings {
		l := -1
		for v, name := range m.Values {
			if name == r.Value {
				l = v
				break
			}
		}
		if l < 0 {
			continue
		}
		conf, weight := m.Confusion[r.Rater], m.Weight[r.Rater]
		for k := range logp {
			cell := (1 - fallback) / float64(q-1)
			if k == l {
				cell = fallback
			}
			if conf != nil {
				w := 0.0
				if k < len(weight) {
					w = weight[k]
				}
				if w+strength > 0 {
					cell = (w*conf[k][l] + strength*cell) / (w + strength)
				}
			}
			if cell <= 0 {
				cell = reliabilityFloor
			}
			logp[k] += math.Log(cell)
		}
	}
	softmaxInPlace(logp)
	return logp
}
