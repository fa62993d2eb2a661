package imports_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// project makes a d3omni-t2i project in st and loads it.
func project(t testing.TB, st *store.Store) *workflow.Project {
	ctx := context.Background()
	u := &store.User{Email: "lead@example.org", Name: "Lead", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	tpl, _ := tasks.LookupTemplate("d3omni-t2i")
	doc, _ := json.Marshal(workflow.SchemaDoc{Schema: tpl.Schema})
	p := &store.Project{Name: "import", CreatedBy: u.ID, Workflow: store.JSON(`{"overlap":3}`)}
	if err := st.CreateProject(ctx, p, &store.SchemaVersion{Version: 1, Schema: doc, Hash: tpl.Schema.ContentHash()}); err != nil {
		t.Fatal(err)
	}
	fp, err := workflow.New(workflow.Deps{Store: st}).LoadProject(ctx, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

// items streams n generated lines without holding them; every bad-th line is malformed.
func items(n, bad int) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		for i := 1; i <= n; i++ {
			if bad > 0 && i%bad == 0 {
				fmt.Fprintf(pw, "{\"external_id\": \"broken-%d\",\n", i)
				continue
			}
			fmt.Fprintf(pw, `{"external_id":"item-%07d","inputs":{"prompt":"a prompt with some words in it, number %d","image":{"url":"media/%d.png"},"generator":"model-%d"},"meta":{"seed":%d}}`+"\n", i, i, i, i%7, i)
		}
		pw.Close()
	}()
	return pr
}

// peakHeap runs f while sampling the live heap, and returns the highest sample.
func peakHeap(f func()) uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
		}
	}()
	runtime.GC()
	f()
	close(done)
	wg.Wait()
	return peak.Load()
}

var importLines = flag.Int("import-lines", 20_000, "lines of the larger file in TestImportStreams")

// TestImportStreams imports a small and a four times larger file: every bad line is reported
// by number, and the live heap does not grow with the file.
func TestImportStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("import size test skipped in -short mode")
	}
	svc := func(n int) (*imports.ImportReport, uint64) {
		st := testenv.SQLite(t)
		fp := project(t, st)
		var rep *imports.ImportReport
		peak := peakHeap(func() {
			var err error
			rep, err = imports.New(imports.Deps{Store: st, Workflow: workflow.New(workflow.Deps{Store: st})}).ImportItems(context.Background(), fp, "", items(n, 1000), nil)
			if err != nil {
				t.Fatal(err)
			}
		})
		return rep, peak
	}
	n := *importLines
	small, smallPeak := svc(n / 4)
	large, largePeak := svc(n)
	bad := n / 1000
	if large.Imported != n-bad || len(large.Errors) != bad || large.Errors[0].Line != 1000 || large.Errors[bad-1].Line != bad*1000 {
		t.Fatalf("report: imported %d, errors %d, first %+v", large.Imported, len(large.Errors), large.Errors[0])
	}
	if !strings.Contains(large.Errors[0].Error, "malformed JSON") {
		t.Fatalf("error text: %q", large.Errors[0].Error)
	}
	t.Logf("peak heap: %d KiB for %d lines, %d KiB for %d lines", smallPeak>>10, small.Lines, largePeak>>10, large.Lines)
	if largePeak > smallPeak+8<<20 {
		t.Fatalf("heap grew with the file: %d KiB → %d KiB", smallPeak>>10, largePeak>>10)
	}
}

// BenchmarkImport measures the import rate on each database; b.N is the number of lines.
func BenchmarkImport(b *testing.B) {
	for _, be := range testenv.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			st := be.Open(b)
			fp := project(b, st)
			b.ResetTimer()
			rep, err := imports.New(imports.Deps{Store: st, Workflow: workflow.New(workflow.Deps{Store: st})}).ImportItems(context.Background(), fp, "", items(b.N, 0), nil)
			if err != nil || rep.Imported != b.N {
				b.Fatalf("%v %+v", err, rep)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
		})
	}
}

// BenchmarkParseOnly is the reference for BenchmarkImport: decoding and validating the same
// lines without storing them, i.e. the import's floor.
func BenchmarkParseOnly(b *testing.B) {
	tpl, _ := tasks.LookupTemplate("d3omni-t2i")
	r := items(b.N, 0)
	dec := json.NewDecoder(r)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var line imports.ItemLine
		if err := dec.Decode(&line); err != nil {
			b.Fatal(err)
		}
		if err := tpl.Schema.ValidateItem(tasks.Item{ExternalID: line.ExternalID, Inputs: line.Inputs, Meta: line.Meta}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
}
