package agreement

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Estimate is a metric value that may be undefined for the data; undefined
// estimates encode as JSON null.
type Estimate struct {
	Value   float64
	Defined bool
}

// MarshalJSON encodes the value, or null when undefined.
func (e Estimate) MarshalJSON() ([]byte, error) {
	if !e.Defined {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, e.Value, 'g', -1, 64), nil
}

// ICCReport is the icc object of a Report; null when undefined.
type ICCReport struct {
	Result  ICCResult
	Defined bool
}

// MarshalJSON encodes the six forms with their sample sizes, or null.
func (r ICCReport) MarshalJSON() ([]byte, error) {
	if !r.Defined {
		return []byte("null"), nil
	}
	x := r.Result
	return json.Marshal(map[string]any{
		"icc1": x.ICC1, "icc2": x.ICC2, "icc3": x.ICC3,
		"icc1k": x.ICC1k, "icc2k": x.ICC2k, "icc3k": x.ICC3k,
		"n_units": x.N, "n_raters": x.K, "dropped_units": x.Dropped,
	})
}

// PairReport is one entry of Report.Pairwise.
type PairReport struct {
	A                string   `json:"a"`
	B                string   `json:"b"`
	N                int64    `json:"n"`
	PercentAgreement Estimate `json:"percent_agreement"`
	CohenKappa       Estimate `json:"cohen_kappa"`
}

// Report is the summary printed by `arbiter agreement`. A metric that was
// not asked for (ReportOptions.Metrics) or does not apply to the data (for
// example Cohen's kappa with three raters) is nil and omitted; one that
// applies but is undefined is null, with the reason in Notes.
type Report struct {
	Level               string            `json:"level"`
	NRatings            int               `json:"n_ratings"`
	NUnits              int               `json:"n_units"`
	NRaters             int               `json:"n_raters"`
	NCategories         int               `json:"n_categories"`
	NPairableUnits      int               `json:"n_pairable_units"`
	PercentAgreement    *Estimate         `json:"percent_agreement,omitempty"`
	KrippendorffAlpha   *Estimate         `json:"krippendorff_alpha,omitempty"`
	FleissKappa         *Estimate         `json:"fleiss_kappa,omitempty"`
	ScottPi             *Estimate         `json:"scott_pi,omitempty"`
	CongerKappa         *Estimate         `json:"conger_kappa,omitempty"`
	GwetAC1             *Estimate         `json:"gwet_ac1,omitempty"`
	GwetAC2             *Estimate         `json:"gwet_ac2,omitempty"`
	BrennanPrediger     *Estimate         `json:"brennan_prediger,omitempty"`
	CohenKappa          *Estimate         `json:"cohen_kappa,omitempty"`
	CohenKappaLinear    *Estimate         `json:"cohen_kappa_linear,omitempty"`
	CohenKappaQuadratic *Estimate         `json:"cohen_kappa_quadratic,omitempty"`
	ExactAgreement      *Estimate         `json:"exact_agreement,omitempty"`
	WithinOne           *Estimate         `json:"within_one,omitempty"`
	MeanAbsDiff         *Estimate         `json:"mean_abs_diff,omitempty"`
	KendallW            *Estimate         `json:"kendall_w,omitempty"`
	ICC                 *ICCReport        `json:"icc,omitempty"`
	Pairwise            []PairReport      `json:"pairwise,omitzero"` // nil when not asked; [] when no pair
	DawidSkene          *DawidSkeneReport `json:"dawid_skene,omitempty"`
	CI95                map[string]*CI    `json:"ci95,omitempty"`
	Notes               []string          `json:"notes"`
}

// MarshalJSON encodes a CI as [lower, upper], or null when no replicate was defined.
func (c CI) MarshalJSON() ([]byte, error) {
	if c.Replicates == 0 {
		return []byte("null"), nil
	}
	return json.Marshal([2]float64{c.Lower, c.Upper})
}

// ReportOptions controls Summarize.
type ReportOptions struct {
	// Bootstrap > 0 adds ci95 intervals from that many replicates.
	Bootstrap int
	Seed      uint64
	Clusters  UnitGroups
	Strata    UnitGroups
	// SetSeparator, when set, treats values as multi-select sets joined by it
	// and computes alpha with SetMetric.
	SetSeparator string
	SetMetric    SetMetric
	// DawidSkene adds a Dawid–Skene summary (class prior, rater accuracy).
	DawidSkene bool
	// Metrics selects the metrics to compute (see ParseMetrics); nil: every
	// metric that applies. Only the selected ones are computed, and only they
	// get bootstrap intervals.
	Metrics MetricSet
}

// DawidSkeneReport summarizes a Dawid–Skene fit for the report.
type DawidSkeneReport struct {
	Iterations int                `json:"iterations"`
	Converged  bool               `json:"converged"`
	Prior      map[string]float64 `json:"prior"`
	// RaterAccuracy is Σ_k prior_k · P(rater says k | truth k).
	RaterAccuracy map[string]float64 `json:"rater_accuracy"`
}

func (r *Report) addDawidSkene(t *Table, seed uint64) {
	res, err := DawidSkene(t, DawidSkeneOptions{Seed: seed})
	if err != nil {
		r.Notes = append(r.Notes, "dawid_skene: "+err.Error())
		return
	}
	ds := &DawidSkeneReport{Iterations: res.Iterations, Converged: res.Converged,
		Prior: map[string]float64{}, RaterAccuracy: map[string]float64{}}
	for k, p := range res.Prior {
		ds.Prior[t.values[k]] = p
	}
	for g, conf := range res.Confusion {
		var acc accumulator
		for k, p := range res.Prior {
			acc.Add(p * conf[k][k])
		}
		ds.RaterAccuracy[t.raters[g]] = acc.Value()
	}
	r.DawidSkene = ds
}

// namedMetric is one scalar metric of the report.
type namedMetric struct {
	key string
	f   func(*Table) (float64, error)
	dst *Estimate
}

// Summarize computes the metrics of opts.Metrics (every metric when nil) that
// apply at the table's level.
func Summarize(t *Table, opts ReportOptions) (*Report, error) {
	r := &Report{
		Level: t.level.String(), NRatings: t.NumRatings(), NUnits: t.NumUnits(),
		NRaters: t.NumRaters(), NCategories: t.NumValues(), NPairableUnits: t.PairableUnits(),
		Notes: []string{},
	}
	want := opts.Metrics
	metrics := r.metrics(t, opts)
	for _, m := range metrics {
		v, err := m.f(t)
		r.set(m.key, m.dst, v, err)
	}
	if want.Has("icc") {
		r.addICC(t, want)
	}
	if want.Has("pairwise") {
		r.addPairwise(t)
	}
	if opts.DawidSkene {
		r.addDawidSkene(t, opts.Seed)
	}
	if opts.Bootstrap > 0 {
		if err := r.addBootstrap(t, metrics, opts); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// metricList collects the selected metrics, pointing each Report field at
// its result.
type metricList struct {
	want MetricSet
	ms   []namedMetric
}

func (l *metricList) add(key string, dst **Estimate, f func(*Table) (float64, error)) {
	if l.want.Has(key) {
		*dst = new(Estimate)
		l.ms = append(l.ms, namedMetric{key, f, *dst})
	}
}

func (r *Report) metrics(t *Table, opts ReportOptions) []namedMetric {
	alpha := func(t *Table) (float64, error) { return AlphaLevel(t, t.level) }
	if opts.SetSeparator != "" {
		sep, metric := opts.SetSeparator, opts.SetMetric
		alpha = func(t *Table) (float64, error) { return AlphaDistance(t, SetDistance(t, sep, metric)) }
	}
	l := &metricList{want: opts.Metrics}
	l.add("percent_agreement", &r.PercentAgreement, PercentAgreement)
	l.add("krippendorff_alpha", &r.KrippendorffAlpha, alpha)
	l.add("fleiss_kappa", &r.FleissKappa, FleissKappa)
	l.add("scott_pi", &r.ScottPi, ScottPi)
	l.add("conger_kappa", &r.CongerKappa, CongerKappa)
	l.add("gwet_ac1", &r.GwetAC1, GwetAC1)
	l.add("brennan_prediger", &r.BrennanPrediger, BrennanPrediger)
	ordered := t.level >= Ordinal
	if ordered {
		l.add("gwet_ac2", &r.GwetAC2, func(t *Table) (float64, error) {
			return GwetAC2(t, QuadraticWeights(t.scores()))
		})
	} else {
		r.notApplicable(l.want, "only with ordered categories (level ordinal or above)", "gwet_ac2")
	}
	if t.NumRaters() == 2 {
		r.cohenMetrics(t, l)
	} else {
		r.notApplicable(l.want, "only with exactly two raters (pairwise has every pair)",
			"cohen_kappa", "cohen_kappa_linear", "cohen_kappa_quadratic")
	}
	if ordered {
		r.ordinalMetrics(l)
	} else {
		r.notApplicable(l.want, "only with ordered categories (level ordinal or above)",
			"exact_agreement", "within_one", "mean_abs_diff", "kendall_w")
	}
	return l.ms
}

// notApplicable notes the keys that were asked for by name but do not apply
// to the data. The default set asks for nothing by name: it reports what
// applies, silently.
func (r *Report) notApplicable(want MetricSet, reason string, keys ...string) {
	if want == nil {
		return
	}
	var asked []string
	for _, k := range keys {
		if want[k] {
			asked = append(asked, k)
		}
	}
	if len(asked) > 0 {
		r.Notes = append(r.Notes, strings.Join(asked, ", ")+": "+reason)
	}
}

func (r *Report) cohenMetrics(t *Table, l *metricList) {
	kappa := func(w KappaWeighting) func(*Table) (float64, error) {
		return func(t *Table) (float64, error) { return CohenKappa(t, 0, 1, w) }
	}
	l.add("cohen_kappa", &r.CohenKappa, kappa(Unweighted))
	if t.level == Nominal {
		if l.want.Has("cohen_kappa_linear") || l.want.Has("cohen_kappa_quadratic") {
			r.Notes = append(r.Notes, "cohen_kappa_linear, cohen_kappa_quadratic: weighted kappa needs ordered categories (level ordinal or above)")
		}
		return
	}
	l.add("cohen_kappa_linear", &r.CohenKappaLinear, kappa(LinearWeighted))
	l.add("cohen_kappa_quadratic", &r.CohenKappaQuadratic, kappa(QuadraticWeighted))
}

func (r *Report) ordinalMetrics(l *metricList) {
	ord := func(pick func(OrdinalPairwise) float64) func(*Table) (float64, error) {
		return func(t *Table) (float64, error) {
			o, err := OrdinalAgreement(t)
			return pick(o), err
		}
	}
	l.add("exact_agreement", &r.ExactAgreement, ord(func(o OrdinalPairwise) float64 { return o.Exact }))
	l.add("within_one", &r.WithinOne, ord(func(o OrdinalPairwise) float64 { return o.WithinOne }))
	l.add("mean_abs_diff", &r.MeanAbsDiff, ord(func(o OrdinalPairwise) float64 { return o.MeanAbsDiff }))
	l.add("kendall_w", &r.KendallW, KendallW)
}

// set stores a metric value or records why it is undefined.
func (r *Report) set(key string, dst *Estimate, v float64, err error) {
	if err != nil {
		*dst = Estimate{}
		r.Notes = append(r.Notes, key+": "+err.Error())
		return
	}
	*dst = Estimate{Value: v, Defined: true}
}

func (r *Report) addICC(t *Table, want MetricSet) {
	if t.level < Interval {
		r.notApplicable(want, "only with numbers (level interval or ratio)", "icc")
		return
	}
	res, err := ICC(t)
	r.ICC = &ICCReport{Result: res, Defined: err == nil}
	switch {
	case err != nil:
		r.Notes = append(r.Notes, "icc: "+err.Error())
	case res.Dropped > 0:
		r.Notes = append(r.Notes, fmt.Sprintf("icc: %d units not rated by every rater were left out", res.Dropped))
	}
}

func (r *Report) addPairwise(t *Table) {
	r.Pairwise = []PairReport{}
	for _, c := range AllPairConfusions(t) {
		p := PairReport{A: t.raters[c.A], B: t.raters[c.B], N: c.N}
		if v, err := c.PercentAgreement(); err == nil {
			p.PercentAgreement = Estimate{v, true}
		}
		if v, err := c.Kappa(Unweighted); err == nil {
			p.CohenKappa = Estimate{v, true}
		}
		r.Pairwise = append(r.Pairwise, p)
	}
}

func (r *Report) addBootstrap(t *Table, ms []namedMetric, opts ReportOptions) error {
	var defined []namedMetric
	var fs []func(*Table) (float64, error)
	for _, m := range ms {
		if m.dst.Defined {
			defined = append(defined, m)
			fs = append(fs, m.f)
		}
	}
	cis, err := Bootstrap(t, fs, BootstrapOptions{
		Replicates: opts.Bootstrap, Seed: opts.Seed, Clusters: opts.Clusters, Strata: opts.Strata,
	})
	if err != nil && !errors.Is(err, ErrNoData) {
		return err
	}
	r.CI95 = make(map[string]*CI, len(cis))
	for i, m := range defined {
		ci := cis[i]
		r.CI95[m.key] = &ci
		if ci.Failed > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("ci95 %s: undefined in %d of %d replicates", m.key, ci.Failed, opts.Bootstrap))
		}
	}
	return nil
}
