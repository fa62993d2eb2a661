package agreement

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DawidSkeneOptions controls the EM iterations of DawidSkene.
type DawidSkeneOptions struct {
	MaxIter    int     // default 100
	Tol        float64 // stop when the log-likelihood gains less than Tol (default 1e-9, relative)
	Smoothing  float64 // pseudo-count added to every confusion cell (default 0.01)
	RandomInit bool    // start from random posteriors drawn with Seed instead of majority vote
	Seed       uint64
}

// DawidSkeneResult is the fitted Dawid–Skene (1979) model.
type DawidSkeneResult struct {
	Prior         []float64     // class prior, by value code
	Posterior     [][]float64   // per unit, the posterior over the true class
	Confusion     [][][]float64 // per rater, P(observed l | true k) as [k][l]
	Iterations    int
	Converged     bool
	LogLikelihood float64
}

// DawidSkene fits the Dawid–Skene model by EM: each rater has a confusion
// matrix over the categories, each unit a latent true class. Initialization
// is the soft majority vote (or seeded random posteriors); the result is
// deterministic for given options.
func DawidSkene(t *Table, opts DawidSkeneOptions) (*DawidSkeneResult, error) {
	q := len(t.values)
	if q < 2 {
		return nil, fmt.Errorf("dawid-skene: %w", ErrNoVariation)
	}
	if len(t.raters) < 2 {
		return nil, fmt.Errorf("dawid-skene: %w", ErrTooFewRaters)
	}
	opts = opts.withDefaults()
	res := &DawidSkeneResult{Posterior: initialPosterior(t, opts)}
	prev := math.Inf(-1)
	for res.Iterations < opts.MaxIter {
		res.Iterations++
		res.Prior, res.Confusion = dsMaximize(t, res.Posterior, opts.Smoothing)
		res.LogLikelihood = dsExpect(t, res.Prior, res.Confusion, res.Posterior)
		if res.LogLikelihood-prev <= opts.Tol*math.Max(1, math.Abs(res.LogLikelihood)) {
			res.Converged = true
			break
		}
		prev = res.LogLikelihood
	}
	return res, nil
}

func (o DawidSkeneOptions) withDefaults() DawidSkeneOptions {
	if o.MaxIter <= 0 {
		o.MaxIter = 100
	}
	if o.Tol <= 0 {
		o.Tol = 1e-9
	}
	if o.Smoothing <= 0 {
		o.Smoothing = 0.01
	}
	return o
}

func initialPosterior(t *Table, opts DawidSkeneOptions) [][]float64 {
	q := len(t.values)
	rng := rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15))
	post := make([][]float64, len(t.units))
	flat := make([]float64, len(t.units)*q)
	for u := range post {
		p := flat[u*q : u*q+q]
		_, vs := t.UnitRatings(u)
		var s float64
		for k := range p {
			if opts.RandomInit {
				p[k] = rng.Float64() + 1e-3
			}
		}
		if !opts.RandomInit {
			for _, v := range vs {
				p[v]++
			}
		}
		for _, x := range p {
			s += x
		}
		for k := range p {
			p[k] /= s
		}
		post[u] = p
	}
	return post
}

// dsMaximize re-estimates the prior and the rater confusion matrices.
func dsMaximize(t *Table, post [][]float64, smooth float64) ([]float64, [][][]float64) {
	q := len(t.values)
	prior := make([]float64, q)
	conf := make([][][]float64, len(t.raters))
	for r := range conf {
		conf[r] = make([][]float64, q)
		for k := range conf[r] {
			conf[r][k] = make([]float64, q)
			for l := range conf[r][k] {
				conf[r][k][l] = smooth
			}
		}
	}
	for u, p := range post {
		rs, vs := t.UnitRatings(u)
		for k, pk := range p {
			prior[k] += pk
			for i, r := range rs {
				conf[r][k][vs[i]] += pk
			}
		}
	}
	for k := range prior {
		prior[k] /= float64(len(post))
	}
	for _, cr := range conf {
		for _, row := range cr {
			normalize(row)
		}
	}
	return prior, conf
}

// dsExpect recomputes the posteriors and returns the log-likelihood.
func dsExpect(t *Table, prior []float64, conf [][][]float64, post [][]float64) float64 {
	var ll accumulator
	logPrior := make([]float64, len(prior))
	for k, p := range prior {
		logPrior[k] = math.Log(p)
	}
	for u, p := range post {
		rs, vs := t.UnitRatings(u)
		for k := range p {
			s := logPrior[k]
			for i, r := range rs {
				s += math.Log(conf[r][k][vs[i]])
			}
			p[k] = s
		}
		ll.Add(softmaxInPlace(p))
	}
	return ll.Value()
}

// softmaxInPlace turns log-weights into probabilities; returns log Σ exp.
func softmaxInPlace(p []float64) float64 {
	mx := math.Inf(-1)
	for _, x := range p {
		mx = math.Max(mx, x)
	}
	var s float64
	for k, x := range p {
		p[k] = math.Exp(x - mx)
		s += p[k]
	}
	for k := range p {
		p[k] /= s
	}
	return mx + math.Log(s)
}

func normalize(row []float64) {
	var s float64
	for _, x := range row {
		s += x
	}
	if s > 0 {
		for k := range row {
			row[k] /= s
		}
	}
}
