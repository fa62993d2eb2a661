package agreement

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sameAlphaReport checks that SummarizeRatings gives, for alpha alone, the
// report (or the error) of the table path, and returns whether the counts
// path (readAlphaReport) gave it.
func sameAlphaReport(t *testing.T, data []byte, level Level) bool {
	t.Helper()
	alpha := MetricSet{"krippendorff_alpha": true}
	ro := ReadOptions{Format: CSV, Level: level}
	var want []byte
	ds, wantErr := ParseRatings(data, ro)
	if wantErr == nil {
		rep, err := Summarize(ds.Table, ReportOptions{Metrics: alpha})
		if err != nil {
			t.Fatal(err)
		}
		want, _ = json.Marshal(rep)
	}
	rep, err := SummarizeRatings(bytes.NewReader(data), ro, ReportOptions{Metrics: alpha})
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("level %s: error %v, table path %v\ninput %q", level, err, wantErr, data)
	}
	if err == nil {
		if got, _ := json.Marshal(rep); !bytes.Equal(got, want) {
			t.Fatalf("level %s: report %s\ntable path %s\ninput %q", level, got, want, data)
		}
	}
	_, counts, err := readAlphaReport(bytes.NewReader(data), level, len(data))
	if err != nil {
		t.Fatal(err)
	}
	return counts
}

func TestAlphaCountsMatchTable(t *testing.T) {
	tests := []struct {
		name, data string
		counts     bool // readAlphaReport gives the report itself
	}{
		{"Krippendorff 2011", "", true},
		{"CRLF, BOM, blank lines, missing values", "\xef\xbb\xbfunit,rater,value\r\nu1,a,1\r\nu1,b,2\r\n\r\nu2,a,\r\nu2,b\r\nu2,c,1\r\nu2,d,1\r\n", true},
		{"more columns", "unit,rater,value,note\nu1,a,1,x\nu1,b,1,\nu2,a,2,,\nu2,b,1\n", true},
		{"text values", "unit,rater,value\nu1,a,yes\nu1,b,no\nu2,a,no\nu2,b,no\nu3,a,yes\nu3,b,yes\n", true},
		{"units apart", "unit,rater,value\nu1,a,1\nu2,a,2\nu1,b,1\nu2,b,3\n", false},
		{"duplicate rating", "unit,rater,value\nu1,a,1\nu1,a,2\nu2,a,1\n", false},
		{"seventeen values", "unit,rater,value\n" + manyValues(17), false},
		{"sixteen values", "unit,rater,value\n" + manyValues(16), true},
		{"quotes", "unit,rater,value\n\"u1\",a,1\nu1,b,1\nu2,a,2\nu2,b,1\n", false},
		{"other header", "rater,unit,value\na,u1,1\nb,u1,2\n", false},
		{"a single rater", "unit,rater,value\nu1,a,1\nu2,a,2\n", true},
		{"one category", "unit,rater,value\nu1,a,1\nu1,b,1\nu2,a,1\nu2,b,1\n", true},
		{"no pairable unit", "unit,rater,value\nu1,a,1\nu2,b,2\n", true},
		{"no ratings", "unit,rater,value\nu1,a,\n", false},
		{"empty unit", "unit,rater,value\nu1,a,1\n,b,2\n", false},
		{"negative ratio", "unit,rater,value\nu1,a,-1\nu1,b,2\n", true},
	}
	k, err := os.ReadFile(filepath.Join("testdata", "ref_krippendorff2011.csv"))
	if err != nil {
		t.Fatal(err)
	}
	tests[0].data = string(k)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
				counts := sameAlphaReport(t, []byte(tc.data), level)
				suits := level <= Ordinal || // values that do not suit the level leave it to the table path
					!strings.Contains(tc.name, "text") && (level < Ratio || !strings.Contains(tc.name, "negative"))
				if want := tc.counts && suits; counts != want {
					t.Errorf("level %s: counts path %v, want %v", level, counts, want)
				}
			}
		})
	}
}

// manyValues returns rows of two raters over n values, every value used.
func manyValues(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "u%d,a,%d\nu%d,b,%d\n", i, i, i, (i+1)%n)
	}
	return b.String()
}

// TestAlphaCountsGenerated compares the two paths on generated files with
// missing data at every level, over many chunks.
func TestAlphaCountsGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for i := range 5 {
		var b strings.Builder
		b.WriteString("unit,rater,value\n")
		for u := range 8_000 + rng.IntN(8_000) { // several chunks
			for r := range 2 + rng.IntN(5) {
				if rng.IntN(6) > 0 {
					fmt.Fprintf(&b, "unit-%d,r%d,%d\n", u, r, 1+rng.IntN(2+i%5))
				}
			}
		}
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			if !sameAlphaReport(t, []byte(b.String()), level) {
				t.Fatalf("file %d, level %s: the counts path gave up", i, level)
			}
		}
	}
}

// FuzzAlphaCounts checks that SummarizeRatings and the table path agree on
// arbitrary input.
func FuzzAlphaCounts(f *testing.F) {
	f.Add([]byte("unit,rater,value\nu1,a,1\nu1,b,2\nu2,a,1\nu2,b,1\n"), uint8(0))
	f.Add([]byte("unit,rater,value\r\nu1,a,1\r\n\r\nu2,a\nu1,b,x\n"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, sel uint8) {
		sameAlphaReport(t, data, Level(sel%4))
	})
}
