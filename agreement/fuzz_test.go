package agreement

import (
	"testing"
)

// FuzzParseRatings feeds arbitrary bytes to both parsers and, when they
// produce a table, every metric of every level: nothing may panic.
func FuzzParseRatings(f *testing.F) {
	f.Add([]byte("unit,rater,value\nu1,a,1\nu1,b,2\nu2,a,1\nu2,b,1\n"), uint8(0))
	f.Add([]byte("unit,rater,value\n\"u,1\",a,\"x\"\"\"\r\nu1,b,\n"), uint8(1))
	f.Add([]byte(`{"unit":"u1","rater":"a","value":3}`+"\n"+`{"unit":"u1","rater":"b","value":["x","y"]}`), uint8(2))
	f.Add([]byte(`{"unit":"u\"1","rater":1,"value":null}`), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, sel uint8) {
		format := Format(sel % 2)
		level := Level(sel / 2 % 4)
		ds, err := ParseRatings(data, ReadOptions{Format: format, Level: level, ClusterKey: map[bool]string{true: "unit"}[sel > 128]})
		if err != nil {
			return
		}
		rep, err := Summarize(ds.Table, ReportOptions{Bootstrap: 3, Seed: 1, Clusters: ds.Clusters, SetSeparator: map[bool]string{true: "|"}[sel%3 == 0]})
		if err != nil {
			t.Fatalf("summarize: %v", err)
		}
		checkDefined(t, rep)
		DawidSkene(ds.Table, DawidSkeneOptions{MaxIter: 5})
	})
}

// checkDefined fails when a defined estimate is NaN or infinite.
func checkDefined(t *testing.T, rep *Report) {
	t.Helper()
	var all []Estimate
	for _, p := range []*Estimate{rep.PercentAgreement, rep.KrippendorffAlpha, rep.FleissKappa, rep.ScottPi,
		rep.CongerKappa, rep.GwetAC1, rep.BrennanPrediger, rep.GwetAC2, rep.CohenKappa, rep.CohenKappaLinear, rep.CohenKappaQuadratic,
		rep.ExactAgreement, rep.WithinOne, rep.MeanAbsDiff, rep.KendallW} {
		if p != nil {
			all = append(all, *p)
		}
	}
	for i, e := range all {
		if e.Defined && (e.Value != e.Value || e.Value-e.Value != 0) {
			t.Errorf("estimate %d is %v", i, e.Value)
		}
	}
}

// FuzzMatrix builds tables from arbitrary small matrices (one byte per cell,
// 0 missing) and checks metrics never panic nor return NaN without an error.
func FuzzMatrix(f *testing.F) {
	f.Add([]byte{1, 1, 2, 2, 0, 3, 1, 1}, uint8(2))
	f.Add([]byte{1, 1, 1, 1}, uint8(2))
	f.Add([]byte{5}, uint8(1))
	f.Fuzz(func(t *testing.T, cells []byte, raters uint8) {
		r := int(raters%6) + 1
		if len(cells) > 600 {
			cells = cells[:600]
		}
		var rows [][]string
		for i := 0; i+r <= len(cells); i += r {
			row := make([]string, r)
			for j, c := range cells[i : i+r] {
				if c%8 != 0 {
					row[j] = string(rune('0' + c%8))
				}
			}
			rows = append(rows, row)
		}
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			b := NewBuilder(level, 0)
			for u, row := range rows {
				for j, v := range row {
					if v != "" {
						b.Add(string(rune('A'+u%26))+string(rune('a'+u/26)), string(rune('p'+j)), v)
					}
				}
			}
			tab, err := b.Build()
			if err != nil {
				return
			}
			rep, err := Summarize(tab, ReportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkDefined(t, rep)
			if icc, err := ICC(tab); err == nil && icc.ICC1 != icc.ICC1 {
				t.Errorf("icc NaN without error")
			}
		}
	})
}

// FuzzJudge checks the judge metrics on arbitrary label and score vectors.
func FuzzJudge(f *testing.F) {
	f.Add([]byte{0, 1, 2, 1, 0}, []byte{0, 1, 1, 2, 2})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		n := min(len(a), len(b))
		labels := []string{"a", "b", "tie"}
		ref, pred := make([]string, n), make([]string, n)
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			ref[i], pred[i] = labels[a[i]%3], labels[b[i]%3]
			x[i], y[i] = float64(a[i]%7), float64(int(b[i])-128)/16
		}
		if c, err := Classify(ref, pred, "tie"); err == nil && (c.MCC.Defined && c.MCC.Value != c.MCC.Value) {
			t.Error("mcc NaN")
		}
		if s, err := CompareScores(x, y); err == nil && s.KendallTauB.Defined && (s.KendallTauB.Value > 1+1e-12 || s.KendallTauB.Value < -1-1e-12) {
			t.Errorf("tau-b %v", s.KendallTauB.Value)
		}
		BestTieThreshold(ref, y, "a", "b", "tie")
	})
}
