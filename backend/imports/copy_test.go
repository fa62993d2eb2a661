package imports_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

var (
	copyRounds = flag.Int("copy-rounds", 0, "rounds of TestImportAgainstCopy (0: not run)")
	copyLines  = flag.Int("copy-lines", 100_000, "lines of each import of TestImportAgainstCopy")
)

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

// TestImportAgainstCopy compares the import with PostgreSQL's own loading, in rounds that take
// turns: the import of -copy-lines generated lines into a fresh project, psql's \copy of the
// rows it stored into a new table of the same columns and indexes (CREATE TABLE … (LIKE items
// INCLUDING ALL)), the import of the same lines with ground truth, and psql's \copy of those
// lines into a table of one jsonb column. It prints each rate and the ratios, and fails when a
// round stored less than it should. Run with
//
//	ARBITER_TEST_POSTGRES_URL=… go test ./backend/imports -run ImportAgainstCopy -v -copy-rounds 3
func TestImportAgainstCopy(t *testing.T) {
	if *copyRounds == 0 {
		t.Skip("a measurement: run with -copy-rounds 3 and ARBITER_TEST_POSTGRES_URL set")
	}
	base := os.Getenv(testenv.EnvPostgres)
	if base == "" {
		t.Fatalf("-copy-rounds needs PostgreSQL: set %s", testenv.EnvPostgres)
	}
	if _, err := exec.LookPath("psql"); err != nil {
		t.Fatal("-copy-rounds needs psql on PATH")
	}
	n, dir := *copyLines, t.TempDir()
	plainFile, truthFile := filepath.Join(dir, "items.ndjson"), filepath.Join(dir, "truth.ndjson")
	writeFile(t, plainFile, items(n, 0))
	writeFile(t, truthFile, truthItems(n))
	var plainToCopy, truthToPlain []float64
	for round := 1; round <= *copyRounds; round++ {
		svc, fp, schema := freshProject(t)
		plain := timeImport(t, svc, fp, plainFile, n)
		rows := filepath.Join(dir, "rows.copy")
		psql(t, base, fmt.Sprintf(`\copy (SELECT * FROM %s.items WHERE project_id = '%s') TO '%s'`, schema, fp.ID, rows))
		psql(t, base, fmt.Sprintf(`CREATE TABLE %[1]s.copy_items (LIKE %[1]s.items INCLUDING ALL)`, schema))
		copied := float64(n) / timed(func() { psql(t, base, fmt.Sprintf(`\copy %s.copy_items FROM '%s'`, schema, rows)) })

		svc, fp, schema = freshProject(t)
		truth := timeImport(t, svc, fp, truthFile, n)
		psql(t, base, fmt.Sprintf(`CREATE TABLE %s.copy_lines (doc jsonb)`, schema))
		lines := float64(n) / timed(func() { psql(t, base, fmt.Sprintf(`\copy %s.copy_lines (doc) FROM '%s'`, schema, truthFile)) })

		plainToCopy, truthToPlain = append(plainToCopy, plain/copied), append(truthToPlain, truth/plain)
		t.Logf("round %d: import %.0f items/s, \\copy into items' shape %.0f rows/s (%.3f of it); with ground truth %.0f items/s (%.3f of the import without), \\copy into jsonb %.0f lines/s (%.3f of it)",
			round, plain, copied, plain/copied, truth, truth/plain, lines, truth/lines)
	}
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("import / \\copy: %s; with ground truth / without: %s; load average %s", spread(plainToCopy), spread(truthToPlain), strings.TrimSpace(string(load)))
}

// timeImport imports the file into the project and returns the rate in lines a second.
func timeImport(t *testing.T, svc *imports.Service, p *workflow.Project, file string, n int) float64 {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rep *imports.ImportReport
	secs := timed(func() { rep, err = svc.ImportItems(context.Background(), p, "", f, nil) })
	if err != nil || rep.Imported != n || len(rep.Errors) != 0 {
		t.Fatalf("import: %v %+v", err, rep)
	}
	return float64(n) / secs
}

// freshProject makes a d3omni-t2i project in a new PostgreSQL schema, and returns an import
// service on it and the schema's name.
func freshProject(t *testing.T) (*imports.Service, *workflow.Project, string) {
	t.Helper()
	dsn := testenv.PostgresURL(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	st := testenv.Open(t, dsn)
	return imports.New(imports.Deps{Store: st, Workflow: workflow.New(workflow.Deps{Store: st})}), project(t, st), u.Query().Get("search_path")
}

func timed(f func()) float64 {
	start := time.Now()
	f()
	return time.Since(start).Seconds()
}

// psql runs one command of psql against the database at dsn.
func psql(t *testing.T, dsn, command string) {
	t.Helper()
	out, err := exec.Command("psql", dsn, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", command).CombinedOutput()
	if err != nil {
		t.Fatalf("psql %s: %v\n%s", command, err, out)
	}
}

func writeFile(t *testing.T, name string, r io.Reader) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(f, r); err != nil {
		t.Fatal(err)
	}
}

// spread is min / median / max of the values.
func spread(v []float64) string {
	s := slices.Sorted(slices.Values(v))
	return fmt.Sprintf("min %.3f / median %.3f / max %.3f", s[0], s[len(s)/2], s[len(s)-1])
}
