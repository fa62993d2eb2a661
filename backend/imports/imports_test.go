package imports_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

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

// truthItems streams n generated lines like items' (none malformed), each with constructed
// ground truth answering the 17 questions of d3omni-t2i.
func truthItems(n int) io.Reader {
	tpl, _ := tasks.LookupTemplate("d3omni-t2i")
	pr, pw := io.Pipe()
	go func() {
		w := bufio.NewWriter(pw)
		for i := 1; i <= n; i++ {
			fmt.Fprintf(w, `{"external_id":"item-%07d","inputs":{"prompt":"a prompt with some words in it, number %d","image":{"url":"media/%d.png"},"generator":"model-%d"},"meta":{"seed":%d},"ground_truth":{"provenance":"constructed","answers":{`, i, i, i, i%7, i)
			for j, q := range tpl.Schema.Questions {
				answer := "yes"
				if (i+j)%5 == 0 {
					answer = "no"
				}
				if j > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `%q:%q`, q.Key, answer)
			}
			w.WriteString("}}}\n")
		}
		w.Flush()
		pw.Close()
	}()
	return pr
}

// BenchmarkImportTruth measures the import rate of lines with ground truth on each database,
// for comparison with BenchmarkImport's lines without; b.N is the number of lines.
func BenchmarkImportTruth(b *testing.B) {
	for _, be := range testenv.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			st := be.Open(b)
			fp := project(b, st)
			b.ResetTimer()
			rep, err := imports.New(imports.Deps{Store: st, Workflow: workflow.New(workflow.Deps{Store: st})}).ImportItems(context.Background(), fp, "", truthItems(b.N), nil)
			if err != nil || rep.Imported != b.N || len(rep.Errors) != 0 {
				b.Fatalf("%v %+v", err, rep)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
		})
	}
}

// TestImportItemsRefusesLines: each bad line is reported by its number with the reason (and
// the field and code when a field is wrong), and the good lines around it are kept.
func TestImportItemsRefusesLines(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.photos(workflow.Policy{})
			other := f.photos(workflow.Policy{})
			foreign := f.upload(other.ID, "b.png", pngBytes)
			lines := []struct {
				line string
				want string // "" when the line is imported
			}{
				{`{"external_id":"ok-1","inputs":{"prompt":"p","photo":"https://example.org/a.png"}}`, ""},
				{`{"external_id": "broken",`, "malformed JSON"},
				{`{"external_id":"x","inputs":{"prompt":"p"},"colour":"red"}`, `unknown field "colour" colour=unknown_field`},
				{`{"external_id":"x2","pool":"calibration","inputs":{"prompt":"p"}}`, `unknown field "pool" pool=unknown_field`},
				{`{"external_id":"x3","inputs":{"prompt":"p","photo":"x.png"},"ground_truth":{"answers":{},"pa":4}}`,
					`unknown field "ground_truth.pa" ground_truth.pa=unknown_field`},
				{`{"inputs":{"prompt":"p"}}`, "external_id is required"},
				{`{"external_id":"   ","inputs":{"prompt":"p"}}`, "external_id is required"},
				{`{"external_id":"no-prompt","inputs":{}}`, "invalid item inputs.prompt=required"},
				{`{"external_id":"extra","inputs":{"prompt":"p","caption":"c"}}`, "invalid item inputs.caption=unknown_input"},
				{`{"external_id":"ok-1","inputs":{"prompt":"again"}}`, `external_id "ok-1" repeats line 1`},
				{`{"external_id":"bad-lang","language":"not a tag!","inputs":{"prompt":"p"}}`, "language=invalid_language"},
				{`{"external_id":"no-asset","inputs":{"prompt":"p","photo":{"asset":"nope"}}}`, "invalid item inputs.photo=unknown_asset"},
				{`{"external_id":"foreign","inputs":{"prompt":"p","photo":{"asset":"` + foreign.ID + `"}}}`, "invalid item inputs.photo=unknown_asset"},
				{`{"external_id":"nul","inputs":{"prompt":"a\u0000b"}}`, "invalid item inputs.prompt=invalid_text"},
				{`{"external_id":"gt-prov","inputs":{"prompt":"p","photo":"x.png"},"ground_truth":{"answers":{"sharp":"yes","score":2},"provenance":"adjudicated"}}`,
					`ground_truth.provenance must be "rule" or "constructed"`},
				{`{"external_id":"gt-bad","inputs":{"prompt":"p","photo":"x.png"},"ground_truth":{"answers":{"sharp":"maybe","score":2},"provenance":"rule"}}`,
					"invalid item ground_truth.answers.sharp=invalid_value"},
				{`{"external_id":"gold-bare","gold":true,"inputs":{"prompt":"p","photo":"x.png"}}`, "invalid item gold=ground_truth_required"},
				{`{"external_id":"gold-bad","gold":true,"inputs":{"prompt":"p","photo":"x.png"},"ground_truth":{"answers":{"sharp":"yes"},"provenance":"rule"}}`,
					"invalid item ground_truth.answers.score=required"},
				{`{"external_id":"ok-2","inputs":{"prompt":"p","photo":{"url":"https://example.org/b.png"}}}`, ""},
			}
			var body []string
			for _, l := range lines {
				body = append(body, l.line)
			}
			rep := f.importItems(p, body...)
			got := lineErrors(rep)
			for i, l := range lines {
				msg, refused := got[i+1]
				switch {
				case l.want == "" && refused:
					t.Errorf("line %d refused: %s", i+1, msg)
				case l.want != "" && !strings.Contains(msg, l.want):
					t.Errorf("line %d: %q, want %q", i+1, msg, l.want)
				case strings.Contains(l.want, "unknown field") && strings.Contains(msg, "malformed"):
					t.Errorf("line %d: a valid line with an unknown field is called %q", i+1, msg)
				}
			}
			if rep.Lines != len(lines) || rep.Imported != 2 || len(rep.Errors) != len(lines)-2 {
				t.Fatalf("report: %d lines, %d imported, %d errors", rep.Lines, rep.Imported, len(rep.Errors))
			}
			if f.item(p, "ok-1").Stage != flow.StageLabel || !f.missing(p, "extra") || !f.missing(p, "gold-bad") {
				t.Fatal("the refused lines were stored, or the good ones not")
			}
		})
	}
}

// TestImportItemsStages: where an imported item starts, by what its line carries: plain items
// wait for labels; ground truth (rule or constructed, with its note) makes it done, or sends it
// to a blind spot check; an item lacking the input every question needs is decided by rule;
// a gold line is a gold item whose answers are never ground truth.
func TestImportItemsStages(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.photos(workflow.Policy{})
			spot := f.photos(workflow.Policy{SpotCheckRate: 1})
			truth := `"ground_truth":{"answers":{"sharp":"no","score":1},"provenance":"constructed","note":"made blurry"}`
			rep := f.importItems(p,
				`{"external_id":"plain","inputs":{"prompt":"p","photo":"a.png"},"meta":{"source":"web"},"language":"EN-us"}`,
				`{"external_id":"known","inputs":{"prompt":"p","photo":"a.png"},`+truth+`}`,
				`{"external_id":"no-photo","inputs":{"prompt":"p"}}`,
				`{"external_id":"gold","gold":true,"inputs":{"prompt":"p","photo":"a.png"},"ground_truth":{"answers":{"sharp":"yes","score":3},"provenance":"rule"}}`,
			)
			if rep.Imported != 4 || len(rep.Errors) != 0 {
				t.Fatalf("report %+v", rep)
			}
			plain := f.item(p, "plain")
			if plain.Stage != flow.StageLabel || plain.Language != "en-US" || !strings.Contains(string(plain.Meta), `"web"`) {
				t.Errorf("plain item: stage %s, language %q, meta %s", plain.Stage, plain.Language, plain.Meta)
			}
			known := f.item(p, "known")
			gts := f.truths(known.ID)
			if known.Stage != flow.StageDone || known.SpotCheck || len(gts) != 1 || gts[0].Provenance != flow.ProvenanceConstructed ||
				gts[0].Rationale == nil || *gts[0].Rationale != "made blurry" || answer(t, gts[0].Answers, "sharp") != `"no"` {
				t.Errorf("item with ground truth: stage %s, truths %+v", known.Stage, gts)
			}
			bare := f.item(p, "no-photo")
			gts = f.truths(bare.ID)
			if bare.Stage != flow.StageDone || len(gts) != 1 || gts[0].Provenance != flow.ProvenanceRule ||
				answer(t, gts[0].Answers, "sharp") != `"missing"` || answer(t, gts[0].Answers, "score") != `"missing"` {
				t.Errorf("item without the photo: stage %s, truths %+v", bare.Stage, gts)
			}
			gold := f.item(p, "gold")
			if gold.Stage != flow.StageGold || answer(t, gold.Gold, "score") != "3" || len(f.truths(gold.ID)) != 0 {
				t.Errorf("gold item: stage %s, gold %s", gold.Stage, gold.Gold)
			}
			f.importItems(spot, `{"external_id":"known","inputs":{"prompt":"p","photo":"a.png"},`+truth+`}`)
			checked := f.item(spot, "known")
			if checked.Stage != flow.StageLabel || !checked.SpotCheck || len(f.truths(checked.ID)) != 1 {
				t.Errorf("spot-checked item: stage %s, spot check %v", checked.Stage, checked.SpotCheck)
			}
			es, err := f.st.AuditEvents(f.ctx, p.ID, 5)
			if err != nil || len(es) == 0 || es[0].Action != "items.import" || !strings.Contains(string(es[0].After), `"imported":4`) {
				t.Fatalf("audit: %v %+v", err, es)
			}
		})
	}
}

// TestImportItemsGoldWithCriteria: a project that writes criteria first takes no gold items
// (they are labeled directly), and its items start in the criteria stage.
func TestImportItemsGoldWithCriteria(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	criteria := &workflow.CriteriaStage{Form: "criteria", Question: "criteria", InputName: "criterion"}
	p := f.create(projects.ProjectSpec{Name: "criteria", Template: "omnireward-pair", Workflow: &workflow.Policy{CriteriaStage: criteria}})
	tpl, _ := tasks.LookupTemplate("omnireward-pair")
	sample := tpl.Samples[0].Inputs
	delete(sample, "criterion") // note: child units get it from the criteria written
	inputs, _ := json.Marshal(sample)
	rep := f.importItems(p,
		`{"external_id":"c-1","inputs":`+string(inputs)+`}`,
		`{"external_id":"c-gold","gold":true,"inputs":`+string(inputs)+`,"ground_truth":{"answers":{},"provenance":"rule"}}`)
	if got := lineErrors(rep)[2]; !strings.Contains(got, "gold=invalid_value") {
		t.Fatalf("gold line in a criteria project: %q", got)
	}
	if st := f.item(p, "c-1").Stage; st != flow.StageCriteria {
		t.Fatalf("first stage %s", st)
	}
}

// TestReimport: a line imported again with the same content changes nothing, with other
// content updates the item, and cannot change an item someone is already working on.
func TestReimport(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.photos(workflow.Policy{})
			first := []string{
				`{"external_id":"a","inputs":{"prompt":"one","photo":"a.png"}}`,
				`{"external_id":"b","inputs":{"prompt":"two","photo":"b.png"}}`,
				`{"external_id":"c","inputs":{"prompt":"three","photo":"c.png"}}`,
			}
			f.importItems(p, first...)
			f.claim(p, "annotator@example.org", "c")
			rep := f.importItems(p,
				first[0],
				`{"external_id":"b","inputs":{"prompt":"two, reworded","photo":"b.png"},"language":"de"}`,
				`{"external_id":"c","inputs":{"prompt":"three, reworded","photo":"c.png"}}`,
				`{"external_id":"d","inputs":{"prompt":"four","photo":"d.png"}}`)
			if rep.Imported != 1 || rep.Updated != 1 || rep.Unchanged != 1 || len(rep.Errors) != 1 ||
				rep.Errors[0].Line != 3 || !strings.Contains(rep.Errors[0].Error, "already being annotated") {
				t.Fatalf("re-import report %+v", rep)
			}
			if b := f.item(p, "b"); !strings.Contains(string(b.Inputs), "reworded") || b.Language != "de" {
				t.Errorf("updated item: %s %q", b.Inputs, b.Language)
			}
			if c := f.item(p, "c"); strings.Contains(string(c.Inputs), "reworded") {
				t.Errorf("an item in work changed: %s", c.Inputs)
			}
		})
	}
}

// TestImportLanguages: a project that names its languages refuses items without one or in
// another, and takes a more specific tag of one of its languages.
func TestImportLanguages(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.photos(workflow.Policy{Languages: []string{"en", "fr"}})
	rep := f.importItems(p,
		`{"external_id":"none","inputs":{"prompt":"p"}}`,
		`{"external_id":"de","language":"de","inputs":{"prompt":"p"}}`,
		`{"external_id":"gb","language":"en-gb","inputs":{"prompt":"p"}}`)
	got := lineErrors(rep)
	if !strings.Contains(got[1], "language=required") || !strings.Contains(got[2], "language=language_not_allowed") || got[3] != "" {
		t.Fatalf("language errors %v", got)
	}
	if gb := f.item(p, "gb"); gb.Language != "en-GB" {
		t.Fatalf("language %q", gb.Language)
	}
}

// TestImportBatchesAreAtomic: an import stopped part way keeps the batches before the stop,
// whole, and none of the batch it stopped in; the error says how far it got.
func TestImportBatchesAreAtomic(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.photos(workflow.Policy{})
			var lines []string
			for i := range 1200 {
				lines = append(lines, fmt.Sprintf(`{"external_id":"it-%04d","inputs":{"prompt":"p","photo":"a.png"}}`, i))
			}
			ctx, cancel := context.WithCancel(f.ctx)
			defer cancel()
			var seen []int
			rep, err := f.im.ImportItems(ctx, p, f.lead.ID, ndjson(lines...), func(n int) { seen = append(seen, n); cancel() })
			var ie *imports.ImportError
			if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) || ie.Report != rep || !strings.Contains(err.Error(), "after line 1000") {
				t.Fatalf("import stopped with %v", err)
			}
			n, _ := f.st.CountItemsInStages(f.ctx, p.ID, []flow.Stage{flow.StageLabel})
			if n != 500 || rep.Imported != 500 || len(seen) != 1 || seen[0] != 500 {
				t.Fatalf("%d items stored, report %+v, progress %v", n, rep, seen)
			}
			broken := io.MultiReader(ndjson(lines[:3]...), iotest.ErrReader(errors.New("connection reset")))
			rep, err = f.im.ImportItems(f.ctx, p, f.lead.ID, broken, nil)
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), "connection reset") || rep.Lines != 3 {
				t.Fatalf("a reader that fails: %v %+v", err, rep)
			}
		})
	}
}

// TestImportPool: pool lines become calibration items with their gold answers (any question
// may be left out, and gold has no provenance); an external id stays on its side of the pool.
func TestImportPool(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.photos(workflow.Policy{})
			f.importItems(p, `{"external_id":"prod","inputs":{"prompt":"p","photo":"a.png"}}`)
			rep, err := f.im.ImportPool(f.ctx, p, f.lead.ID, ndjson(
				`{"external_id":"pool-1","inputs":{"prompt":"p","photo":"a.png"},"ground_truth":{"answers":{"sharp":"yes"}}}`,
				`{"external_id":"pool-2","inputs":{"prompt":"p","photo":"b.png"}}`,
				`{"external_id":"pool-3","inputs":{"prompt":"p","photo":"c.png"},"ground_truth":{"answers":{"sharp":"yes"},"provenance":"rule"}}`,
				`{"external_id":"pool-4","inputs":{"prompt":"p","photo":"c.png"},"ground_truth":{"answers":{"score":9}}}`,
				`{"external_id":"prod","inputs":{"prompt":"p","photo":"a.png"}}`))
			if err != nil {
				t.Fatal(err)
			}
			got := lineErrors(rep)
			if rep.Imported != 2 || !strings.Contains(got[3], "ground_truth.provenance=invalid_value") ||
				!strings.Contains(got[4], "ground_truth.answers.score=") || !strings.Contains(got[5], "is a production item") {
				t.Fatalf("pool report %+v %v", rep, got)
			}
			one := f.item(p, "pool-1")
			gold, err := f.st.Gold(f.ctx, []string{one.ID, f.item(p, "pool-2").ID})
			if one.Stage != flow.StageCalibration || err != nil || len(gold) != 1 || answer(t, gold[one.ID], "sharp") != `"yes"` {
				t.Fatalf("pool item %s, gold %v %v", one.Stage, gold, err)
			}
			rep = f.importItems(p, `{"external_id":"pool-2","inputs":{"prompt":"other","photo":"b.png"}}`)
			if got := lineErrors(rep)[1]; !strings.Contains(got, "is an item of the calibration pool") {
				t.Fatalf("a pool id imported as production: %q", got)
			}
			es, _ := f.st.AuditEvents(f.ctx, p.ID, 2)
			if len(es) < 2 || !strings.Contains(string(es[1].After), `"pool":"calibration"`) {
				t.Fatalf("pool import audit %+v", es)
			}
		})
	}
}

// TestImportDeepMetaRefusedByLine: a line whose JSON nests past tasks.MaxDepth is refused with
// its line number on both engines (SQLite's JSON functions stop at 1,000 levels), and the lines
// around it are imported.
func TestImportDeepMetaRefusedByLine(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.photos(workflow.Policy{Overlap: 1})
			deep := strings.Repeat(`[`, 1001) + strings.Repeat(`]`, 1001)
			rep := f.importItems(p,
				`{"external_id":"a","inputs":{"prompt":"one"}}`,
				`{"external_id":"deep","inputs":{"prompt":"two"},"meta":{"x":`+deep+`}}`,
				`{"external_id":"c","inputs":{"prompt":"three"}}`)
			errs := lineErrors(rep)
			if rep.Imported != 2 || len(errs) != 1 || !strings.Contains(errs[2], "="+tasks.CodeTooDeep) {
				t.Fatalf("imported %d, errors %v", rep.Imported, errs)
			}
		})
	}
}

// TestImportRuleTruth: a rule gives only the answers it decides (RoboJudge's real
// demonstrations: PA = IA = 5, no checklist, no evidence) and the item is done with exactly
// those; constructed truth still answers every required question, and a rule answers at least
// one question, each answer checked.
func TestImportRuleTruth(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.create(projects.ProjectSpec{Name: "robojudge", Template: "robojudge"})
			line := func(id, truth string) string {
				return `{"external_id":"` + id + `","inputs":{"video":"media/real.mp4","first_frame":"media/real.png","instruction":"Open the drawer."},` +
					`"ground_truth":` + truth + `}`
			}
			rep := f.importItems(p,
				line("real-1", `{"answers":{"physical_adherence":5,"instruction_alignment":5},"provenance":"rule","note":"real demonstration"}`),
				line("real-2", `{"answers":{"physical_adherence":5,"instruction_alignment":5},"provenance":"constructed"}`),
				line("real-3", `{"answers":{},"provenance":"rule"}`),
				line("real-4", `{"answers":{"physical_adherence":6,"instruction_alignment":5},"provenance":"rule"}`))
			got := lineErrors(rep)
			if rep.Imported != 1 || got[1] != "" || !strings.Contains(got[2], "ground_truth.answers.pa_checklist=required") ||
				!strings.Contains(got[3], "ground_truth.answers=required") || !strings.Contains(got[4], "ground_truth.answers.physical_adherence=") {
				t.Fatalf("report %+v: %v", rep, got)
			}
			it := f.item(p, "real-1")
			gts := f.truths(it.ID)
			if it.Stage != flow.StageDone || len(gts) != 1 || gts[0].Provenance != flow.ProvenanceRule ||
				string(gts[0].Answers) != `{"instruction_alignment":5,"physical_adherence":5}` || gts[0].Rationale == nil || *gts[0].Rationale != "real demonstration" {
				t.Fatalf("the real demonstration: stage %s, truth %+v", it.Stage, gts)
			}
		})
	}
}
