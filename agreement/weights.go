package agreement

// Weights is a q×q agreement-weight matrix over value codes: 1 on the
// diagonal, between 0 and 1 elsewhere. A nil Weights means identity
// (unweighted) agreement.
type Weights [][]float64

// IdentityWeights returns the q×q identity weights (nominal agreement).
func IdentityWeights(q int) Weights {
	w := make(Weights, q)
	for i := range w {
		w[i] = make([]float64, q)
		w[i][i] = 1
	}
	return w
}

// LinearWeights returns 1 − |x_k − x_l| / (max − min) over category scores.
func LinearWeights(scores []float64) Weights { return scoreWeights(scores, false) }

// QuadraticWeights returns 1 − (x_k − x_l)² / (max − min)² over category scores.
func QuadraticWeights(scores []float64) Weights { return scoreWeights(scores, true) }

func scoreWeights(x []float64, quadratic bool) Weights {
	q := len(x)
	w := IdentityWeights(q)
	if q < 2 {
		return w
	}
	lo, hi := x[0], x[0]
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
	}
	span := hi - lo
	for k := range q {
		for l := range q {
			if k == l || span == 0 {
				continue
			}
			d := abs(x[k]-x[l]) / span
			if quadratic {
				d *= d
			}
			w[k][l] = 1 - d
		}
	}
	return w
}

func (w Weights) at(k, l int32) float64 {
	if w == nil {
		if k == l {
			return 1
		}
		return 0
	}
	return w[k][l]
}

// total returns Σ_kl w_kl (q for identity weights).
func (w Weights) total(q int) float64 {
	if w == nil {
		return float64(q)
	}
	var a accumulator
	for _, row := range w {
		for _, x := range row {
			a.Add(x)
		}
	}
	return a.Value()
}
