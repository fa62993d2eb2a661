package agreement

import (
	"errors"
	"testing"
)

// krippendorff2011 is the reliability-data matrix of Krippendorff (2011),
// "Computing Krippendorff's Alpha-Reliability", section E: 4 observers ×
// 12 units, values 1–5, "" missing. Transposed to units × observers.
var krippendorff2011 = func() [][]string {
	obs := [4][12]string{
		{"1", "2", "3", "3", "2", "1", "4", "1", "2", "", "", ""},
		{"1", "2", "3", "3", "2", "2", "4", "1", "2", "5", "", "3"},
		{"", "3", "3", "3", "2", "3", "4", "2", "2", "5", "1", ""},
		{"1", "2", "3", "3", "2", "4", "4", "1", "2", "5", "1", ""},
	}
	rows := make([][]string, 12)
	for u := range rows {
		rows[u] = []string{obs[0][u], obs[1][u], obs[2][u], obs[3][u]}
	}
	return rows
}()

func TestKrippendorff2011(t *testing.T) {
	tests := []struct {
		level Level
		want  float64 // as printed in the paper
	}{
		{Nominal, 0.743},
		{Ordinal, 0.815},
		{Interval, 0.849},
		{Ratio, 0.797},
	}
	for _, tc := range tests {
		t.Run(tc.level.String(), func(t *testing.T) {
			tab := matrixTable(t, tc.level, krippendorff2011)
			got, err := Alpha(tab)
			if err != nil {
				t.Fatal(err)
			}
			if roundTo(got, 3) != tc.want {
				t.Errorf("alpha = %.6f, want %.3f", got, tc.want)
			}
		})
	}
}

// fleissWikipedia is the worked example of the Wikipedia article on Fleiss'
// kappa: 10 subjects, 14 raters, 5 categories; kappa = 0.210.
var fleissWikipedia = [][]int{
	{0, 0, 0, 0, 14},
	{0, 2, 6, 4, 2},
	{0, 0, 3, 5, 6},
	{0, 3, 9, 2, 0},
	{2, 2, 8, 1, 1},
	{7, 7, 0, 0, 0},
	{3, 2, 6, 3, 0},
	{2, 5, 3, 2, 2},
	{6, 5, 2, 1, 0},
	{0, 2, 2, 3, 7},
}

func TestFleissWikipedia(t *testing.T) {
	tab := countsTable(t, fleissWikipedia)
	k, err := FleissKappa(tab)
	if err != nil {
		t.Fatal(err)
	}
	if roundTo(k, 3) != 0.210 {
		t.Errorf("fleiss kappa = %.6f, want 0.210", k)
	}
	pa, _ := PercentAgreement(tab)
	if roundTo(pa, 3) != 0.378 {
		t.Errorf("P-bar = %.6f, want 0.378", pa)
	}
	// With complete data multi-pi equals Fleiss' kappa.
	if pi, _ := ScottPi(tab); !near(pi, k, 1e-15) {
		t.Errorf("scott pi %.17g != fleiss %.17g", pi, k)
	}
}

// TestCohen2x2 is the Wikipedia / textbook 2×2 example: 50 items,
// Yes/Yes 20, Yes/No 5, No/Yes 10, No/No 15: po = .7, pe = .5, kappa = .4.
func TestCohen2x2(t *testing.T) {
	var rows [][]string
	add := func(n int, a, b string) {
		for range n {
			rows = append(rows, []string{a, b})
		}
	}
	add(20, "yes", "yes")
	add(5, "yes", "no")
	add(10, "no", "yes")
	add(15, "no", "no")
	tab := matrixTable(t, Nominal, rows)
	for _, w := range []KappaWeighting{Unweighted, LinearWeighted, QuadraticWeighted} {
		k, err := CohenKappa(tab, 0, 1, w)
		if err != nil {
			t.Fatal(err)
		}
		if !near(k, 0.4, 1e-15) {
			t.Errorf("weighting %d: kappa = %.17g, want 0.4", w, k)
		}
	}
	c := PairConfusion(tab, 0, 1)
	if pa, _ := c.PercentAgreement(); !near(pa, 0.7, 1e-15) {
		t.Errorf("po = %v", pa)
	}
}

func TestDegenerate(t *testing.T) {
	oneCat := matrixTable(t, Nominal, [][]string{{"a", "a"}, {"a", "a"}})
	single := matrixTable(t, Nominal, [][]string{{"a"}, {"b"}})
	apart := matrixTable(t, Nominal, [][]string{{"a", ""}, {"", "b"}})
	tests := []struct {
		name string
		f    func() (float64, error)
		want error
	}{
		{"alpha one category", func() (float64, error) { return Alpha(oneCat) }, ErrNoVariation},
		{"fleiss one category", func() (float64, error) { return FleissKappa(oneCat) }, ErrNoVariation},
		{"ac1 one category", func() (float64, error) { return GwetAC1(oneCat) }, ErrNoVariation},
		{"cohen one category", func() (float64, error) { return CohenKappa(oneCat, 0, 1, Unweighted) }, ErrNoVariation},
		{"alpha single rater", func() (float64, error) { return Alpha(single) }, ErrTooFewRaters},
		{"fleiss single rater", func() (float64, error) { return FleissKappa(single) }, ErrTooFewRaters},
		{"alpha no overlap", func() (float64, error) { return Alpha(apart) }, ErrNoPairableUnits},
		{"percent no overlap", func() (float64, error) { return PercentAgreement(apart) }, ErrNoPairableUnits},
		{"cohen no overlap", func() (float64, error) { return CohenKappa(apart, 0, 1, Unweighted) }, ErrNoPairableUnits},
		{"icc no overlap", func() (float64, error) {
			r, err := ICC(matrixTable(t, Interval, [][]string{{"1", ""}, {"", "2"}}))
			return r.ICC1, err
		}, ErrIncomplete},
		{"conger single rater", func() (float64, error) { return CongerKappa(single) }, ErrTooFewRaters},
		{"cohen same rater", func() (float64, error) { return CohenKappa(single, 0, 0, Unweighted) }, ErrTooFewRaters},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.f(); !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

// shroutFleiss1979 is Table 2 of Shrout & Fleiss (1979): 6 targets × 4 judges.
var shroutFleiss1979 = [][]string{
	{"9", "2", "5", "8"},
	{"6", "1", "3", "2"},
	{"8", "4", "6", "8"},
	{"7", "1", "2", "6"},
	{"10", "5", "6", "9"},
	{"6", "2", "4", "7"},
}

func TestShroutFleiss1979(t *testing.T) {
	res, err := ICC(matrixTable(t, Interval, shroutFleiss1979))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"ICC(1,1)", res.ICC1, 0.17},
		{"ICC(2,1)", res.ICC2, 0.29},
		{"ICC(3,1)", res.ICC3, 0.71},
		{"ICC(1,k)", res.ICC1k, 0.44},
		{"ICC(2,k)", res.ICC2k, 0.62},
		{"ICC(3,k)", res.ICC3k, 0.91},
	}
	for _, tc := range tests {
		if roundTo(tc.got, 2) != tc.want {
			t.Errorf("%s = %.6f, want %.2f", tc.name, tc.got, tc.want)
		}
	}
	// The paper's ANOVA table: BMS 11.24, WMS 6.26, JMS 32.49, EMS 1.02.
	for _, ms := range []struct{ got, want float64 }{{res.BMS, 11.24}, {res.WMS, 6.26}, {res.JMS, 32.49}, {res.EMS, 1.02}} {
		if roundTo(ms.got, 2) != ms.want {
			t.Errorf("mean square %.4f, want %.2f", ms.got, ms.want)
		}
	}
}
