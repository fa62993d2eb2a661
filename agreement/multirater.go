package agreement

import "fmt"

// The coefficients in this file follow Gwet's formulation for any number of
// raters with missing ratings (the irrCAC R package): percent agreement is
// averaged over units with two or more ratings, and category shares π_k are
// averaged over all rated units. With complete data Fleiss' kappa equals
// statsmodels' fleiss_kappa and NLTK's multi-pi.

// PercentAgreement returns the mean over pairable units of the share of
// agreeing rating pairs, Σ_k r_ik(r_ik−1) / (r_i(r_i−1)).
func PercentAgreement(t *Table) (float64, error) {
	if err := needRaters(t); err != nil {
		return 0, err
	}
	return t.stats().percentAgreement()
}

// needRaters fails with ErrTooFewRaters when the table has a single rater.
func needRaters(t *Table) error {
	if len(t.raters) < 2 {
		return fmt.Errorf("%w: a single rater (%q)", ErrTooFewRaters, t.raters[0])
	}
	return nil
}

// weightedAgreement returns Gwet's weighted percent agreement
// mean_i Σ_k r_ik (r*_ik − 1) / (r_i(r_i−1)), r*_ik = Σ_l w_kl r_il.
func weightedAgreement(t *Table, w Weights) (float64, error) {
	if w == nil {
		return PercentAgreement(t)
	}
	if err := needRaters(t); err != nil {
		return 0, err
	}
	if pa, ok, err := t.stats().weightedAgreement(len(t.values), w); ok {
		return pa, err
	}
	var perSize []accumulator
	units := 0
	newUnitScan(t).each(2, func(_, m int, distinct, cnt []int32) {
		units++
		var s float64
		for _, k := range distinct {
			for _, l := range distinct {
				s += float64(cnt[k]) * float64(cnt[l]) * w.at(k, l)
			}
		}
		perSize = growAcc(perSize, m)
		perSize[m].Add(s - float64(m))
	})
	if units == 0 {
		return 0, ErrNoPairableUnits
	}
	var total accumulator
	for m, a := range perSize {
		if m >= 2 {
			total.Add(a.Value() / float64(m*(m-1)))
		}
	}
	return total.Value() / float64(units), nil
}

// categoryShares returns π_k = mean over rated units of r_ik / r_i.
func categoryShares(t *Table) []float64 { return t.stats().shares(len(t.values), len(t.units)) }

// chanceCorrected returns (pa − pe) / (1 − pe), or ErrNoVariation if pe is 1.
func chanceCorrected(name string, pa, pe float64) (float64, error) {
	if !(pe < 1-1e-15) {
		return 0, fmt.Errorf("%s: %w", name, ErrNoVariation)
	}
	return (pa - pe) / (1 - pe), nil
}

// FleissKappa returns Fleiss' (1971) kappa, generalized to missing ratings:
// pe = Σ_k π_k².
func FleissKappa(t *Table) (float64, error) { return FleissKappaWeighted(t, nil) }

// FleissKappaWeighted returns Fleiss' kappa with agreement weights:
// pe = Σ_kl w_kl π_k π_l.
func FleissKappaWeighted(t *Table, w Weights) (float64, error) {
	pa, err := weightedAgreement(t, w)
	if err != nil {
		return 0, err
	}
	pi := categoryShares(t)
	var pe accumulator
	for k := range pi {
		if w == nil {
			pe.Add(pi[k] * pi[k])
			continue
		}
		for l := range pi {
			pe.Add(w[k][l] * pi[k] * pi[l])
		}
	}
	return chanceCorrected("fleiss kappa", pa, pe.Value())
}

// GwetAC1 returns Gwet's AC1: pe = Σ_k π_k(1−π_k) / (q−1) over the q
// categories present in the table.
func GwetAC1(t *Table) (float64, error) { return GwetAC2(t, nil) }

// GwetAC2 returns Gwet's AC2 with agreement weights:
// pe = T_w / (q(q−1)) · Σ_k π_k(1−π_k), T_w = Σ_kl w_kl.
func GwetAC2(t *Table, w Weights) (float64, error) {
	q := len(t.values)
	if q < 2 {
		return 0, fmt.Errorf("gwet ac: %w", ErrNoVariation)
	}
	pa, err := weightedAgreement(t, w)
	if err != nil {
		return 0, err
	}
	var s accumulator
	for _, p := range categoryShares(t) {
		s.Add(p * (1 - p))
	}
	pe := w.total(q) * s.Value() / float64(q*(q-1))
	return chanceCorrected("gwet ac", pa, pe)
}

// BrennanPrediger returns the Brennan–Prediger coefficient (uniform chance
// agreement 1/q over the q categories present).
func BrennanPrediger(t *Table) (float64, error) { return BrennanPredigerWeighted(t, nil) }

// BrennanPredigerWeighted returns Brennan–Prediger with agreement weights:
// pe = T_w / q².
func BrennanPredigerWeighted(t *Table, w Weights) (float64, error) {
	q := len(t.values)
	if q < 2 {
		return 0, fmt.Errorf("brennan-prediger: %w", ErrNoVariation)
	}
	pa, err := weightedAgreement(t, w)
	if err != nil {
		return 0, err
	}
	return chanceCorrected("brennan-prediger", pa, w.total(q)/float64(q*q))
}

// ScottPi returns Scott's pi; for more than two raters, the multi-rater pi
// (Fleiss' "kappa", Siegel & Castellan's K) with category shares pooled over
// the ratings of pairable units: pe = Σ_k (n_k / n)². With two raters it is
// Scott's (1955) pi over the units both rated.
func ScottPi(t *Table) (float64, error) {
	pa, err := PercentAgreement(t)
	if err != nil {
		return 0, err
	}
	st := t.stats()
	nc, n := st.pooled, st.nPooled
	var pe accumulator
	for _, c := range nc {
		p := float64(c) / float64(n)
		pe.Add(p * p)
	}
	return chanceCorrected("scott pi", pa, pe.Value())
}

// CongerKappa returns Conger's (1980) kappa, the multi-rater generalization
// of Cohen's kappa, with each rater's own category shares p_gk:
// pe = Σ_kl w_kl (p̄_k p̄_l − s²_kl / r).
func CongerKappa(t *Table) (float64, error) { return CongerKappaWeighted(t, nil) }

// CongerKappaWeighted returns Conger's kappa with agreement weights.
func CongerKappaWeighted(t *Table, w Weights) (float64, error) {
	r := len(t.raters)
	if r < 2 {
		return 0, fmt.Errorf("conger kappa: %w", ErrTooFewRaters)
	}
	pa, err := weightedAgreement(t, w)
	if err != nil {
		return 0, err
	}
	p := raterShares(t)
	q := len(t.values)
	mean := make([]float64, q)
	for k := range q {
		var a accumulator
		for g := range r {
			a.Add(p[g][k])
		}
		mean[k] = a.Value() / float64(r)
	}
	var pe accumulator
	for k := range q {
		for l := range q {
			if w == nil && k != l {
				continue
			}
			var cross accumulator
			for g := range r {
				cross.Add(p[g][k] * p[g][l])
			}
			s2 := (cross.Value() - float64(r)*mean[k]*mean[l]) / float64(r-1)
			pe.Add(w.at(int32(k), int32(l)) * (mean[k]*mean[l] - s2/float64(r)))
		}
	}
	return chanceCorrected("conger kappa", pa, pe.Value())
}

// raterShares returns p[g][k], the share of rater g's ratings in category k.
func raterShares(t *Table) [][]float64 {
	counts := make([][]int64, len(t.raters))
	for g := range counts {
		counts[g] = make([]int64, len(t.values))
	}
	for i, g := range t.rater {
		counts[g][t.value[i]]++
	}
	p := make([][]float64, len(t.raters))
	for g, c := range counts {
		var n int64
		for _, x := range c {
			n += x
		}
		p[g] = make([]float64, len(c))
		for k, x := range c {
			p[g][k] = float64(x) / float64(n)
		}
	}
	return p
}
