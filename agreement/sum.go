package agreement

// accumulator is a Neumaier (improved Kahan–Babuška) compensated sum. Metrics
// add many small terms; compensation keeps the result within a few ulps of the
// exact sum so it matches reference implementations to ~1e-15.
type accumulator struct {
	sum, comp float64
}

// Add adds x to the running sum.
func (a *accumulator) Add(x float64) {
	t := a.sum + x
	if abs(a.sum) >= abs(x) {
		a.comp += (a.sum - t) + x
	} else {
		a.comp += (x - t) + a.sum
	}
	a.sum = t
}

// Value returns the compensated sum.
func (a *accumulator) Value() float64 { return a.sum + a.comp }

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// sumFloats returns the compensated sum of xs.
func sumFloats(xs []float64) float64 {
	var a accumulator
	for _, x := range xs {
		a.Add(x)
	}
	return a.Value()
}

// meanFloats returns the compensated mean of xs (0 for an empty slice).
func meanFloats(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return sumFloats(xs) / float64(len(xs))
}
