package agreement

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
)

// benchRows writes the benchmark data set as CSV: units × raters ratings,
// q categories, a share missing, raters agreeing with a latent truth 70% of
// the time. The generator is seeded, so every run sees the same data.
func benchRows(units, raters, q int, missing float64) []byte {
	rng := rand.New(rand.NewPCG(42, 7))
	var b bytes.Buffer
	b.Grow(units * raters * 16)
	b.WriteString("unit,rater,value\n")
	for u := range units {
		truth := rng.IntN(q) + 1
		for r := range raters {
			if rng.Float64() < missing {
				continue
			}
			v := truth
			if rng.Float64() < 0.3 {
				v = rng.IntN(q) + 1
			}
			fmt.Fprintf(&b, "u%d,r%d,%d\n", u, r, v)
		}
	}
	return b.Bytes()
}

var (
	benchCSV     = flag.String("benchcsv", "", "write the benchmark data set (250,000 units × 4 raters) to this CSV file")
	benchMissing = flag.Float64("benchmissing", 0.10, "share of missing ratings in the -benchcsv file")
)

// TestWriteBenchCSV writes the benchmark data for the Python reference
// timings and the end-to-end command timing:
//
//	go test ./agreement -run TestWriteBenchCSV -benchcsv /tmp/bench.csv
//	go test ./agreement -run TestWriteBenchCSV -benchcsv /tmp/full.csv -benchmissing 0
//
// Without the flag it checks that the data set is reproducible, which the recorded numbers
// depend on.
func TestWriteBenchCSV(t *testing.T) {
	if *benchCSV != "" {
		if err := os.WriteFile(*benchCSV, benchRows(250_000, 4, 5, *benchMissing), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	a, b := benchRows(2_500, 4, 5, 0.10), benchRows(2_500, 4, 5, 0.10)
	if !bytes.Equal(a, b) {
		t.Fatal("the benchmark data set is not reproducible")
	}
	ds, err := ParseRatings(a, ReadOptions{Format: CSV, Level: Nominal})
	if err != nil {
		t.Fatal(err)
	}
	if n := ds.Table.NumUnits(); n < 2_400 || n > 2_500 {
		t.Fatalf("%d units with ratings, want about 2,500", n)
	}
}

var bench = struct {
	once sync.Once
	csv  []byte
	tab  *Table
}{}

// benchTable is 250,000 units × 4 raters, 5 categories, 10% missing.
func benchTable(b *testing.B) (*Table, []byte) {
	bench.once.Do(func() {
		bench.csv = benchRows(250_000, 4, 5, 0.10)
		ds, err := ParseRatings(bench.csv, ReadOptions{Format: CSV, Level: Nominal})
		if err != nil {
			panic(err)
		}
		bench.tab = ds.Table
	})
	return bench.tab, bench.csv
}

func benchMetric(b *testing.B, f func(*Table) (float64, error)) {
	t, _ := benchTable(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t.memo = &memo{} // measure the full computation, not the shared cache
		if _, err := f(t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAlphaNominal(b *testing.B) { benchMetric(b, Alpha) }

func BenchmarkAlphaOrdinal(b *testing.B) {
	benchMetric(b, func(t *Table) (float64, error) { return AlphaLevel(t, Ordinal) })
}

func BenchmarkAlphaInterval(b *testing.B) {
	benchMetric(b, func(t *Table) (float64, error) { return AlphaLevel(t, Interval) })
}

func BenchmarkFleissKappa(b *testing.B) { benchMetric(b, FleissKappa) }

func BenchmarkGwetAC1(b *testing.B) { benchMetric(b, GwetAC1) }

func BenchmarkCohenMatrix(b *testing.B) {
	benchMetric(b, func(t *Table) (float64, error) {
		m := CohenMatrix(t, Unweighted)
		return m[0][1].Kappa, nil
	})
}

func BenchmarkParseCSV(b *testing.B) {
	_, data := benchTable(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseRatings(data, ReadOptions{Format: CSV, Level: Nominal}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSummarizeNominal(b *testing.B) {
	t, _ := benchTable(b)
	b.ReportAllocs()
	for b.Loop() {
		t.memo = &memo{}
		if _, err := Summarize(t, ReportOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSummarizeOrdinal(b *testing.B) {
	t, _ := benchTable(b)
	ord := *t
	ord.level = Ordinal
	b.ReportAllocs()
	for b.Loop() {
		ord.memo = &memo{}
		if _, err := Summarize(&ord, ReportOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAlphaFromCSV is `arbiter agreement --metrics alpha` without the
// process: SummarizeRatings streams the CSV from a reader into the
// coincidence counts and reports alpha alone.
func BenchmarkAlphaFromCSV(b *testing.B) {
	_, data := benchTable(b)
	alpha, err := ParseMetrics("alpha")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rep, err := SummarizeRatings(bytes.NewReader(data), ReadOptions{Format: CSV, Level: Nominal}, ReportOptions{Metrics: alpha})
		if err != nil || rep.KrippendorffAlpha == nil || !rep.KrippendorffAlpha.Defined {
			b.Fatal(rep, err)
		}
	}
}

// benchBootstrap bootstraps alpha over the benchmark table (250,000 units) with 100 replicates.
func benchBootstrap(b *testing.B, boot func(*Table, []func(*Table) (float64, error), BootstrapOptions) ([]CI, error)) {
	t, _ := benchTable(b)
	b.ReportAllocs()
	for b.Loop() {
		cis, err := boot(t, []func(*Table) (float64, error){Alpha}, BootstrapOptions{Replicates: 100, Seed: 1})
		if err != nil || cis[0].Replicates != 100 {
			b.Fatal(cis, err)
		}
	}
}

// BenchmarkBootstrapTables builds and tallies every resampled table.
func BenchmarkBootstrapTables(b *testing.B) { benchBootstrap(b, Bootstrap) }

// BenchmarkBootstrapCounts adds up the drawn units' counts.
func BenchmarkBootstrapCounts(b *testing.B) { benchBootstrap(b, BootstrapCounts) }
