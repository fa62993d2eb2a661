//go:build unix

package imports_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

var (
	copyRounds = flag.Int("copy-rounds", 0, "rounds of TestImportAgainstCopy (0: not run)")
	copyLines  = flag.Int("copy-lines", 100_000, "lines of each import of TestImportAgainstCopy")
)

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
		plain, plainCPU, plainPG := timeImport(t, svc, fp, plainFile, n)
		rows := filepath.Join(dir, "rows.copy")
		psql(t, base, fmt.Sprintf(`\copy (SELECT * FROM %s.items WHERE project_id = '%s') TO '%s'`, schema, fp.ID, rows))
		psql(t, base, fmt.Sprintf(`CREATE TABLE %[1]s.copy_items (LIKE %[1]s.items INCLUDING ALL)`, schema))
		copied := float64(n) / timed(func() { psql(t, base, fmt.Sprintf(`\copy %s.copy_items FROM '%s'`, schema, rows)) })

		svc, fp, schema = freshProject(t)
		truth, truthCPU, truthPG := timeImport(t, svc, fp, truthFile, n)
		psql(t, base, fmt.Sprintf(`CREATE TABLE %s.copy_lines (doc jsonb)`, schema))
		lines := float64(n) / timed(func() { psql(t, base, fmt.Sprintf(`\copy %s.copy_lines (doc) FROM '%s'`, schema, truthFile)) })

		plainToCopy, truthToPlain = append(plainToCopy, plain/copied), append(truthToPlain, truth/plain)
		t.Logf("round %d: import %.0f items/s (%.1f µs of the server's CPU an item, %.1f µs of PostgreSQL's), \\copy into items' shape %.0f rows/s (%.3f of it); with ground truth %.0f items/s (%.1f µs and %.1f µs an item; %.3f of the import without), \\copy into jsonb %.0f lines/s (%.3f of it)",
			round, plain, plainCPU, plainPG, copied, plain/copied, truth, truthCPU, truthPG, truth/plain, lines, truth/lines)
	}
	t.Logf("import / \\copy: %s; with ground truth / without: %s (min / median / max); load average %s",
		testenv.Spread(plainToCopy, "%.3f"), testenv.Spread(truthToPlain, "%.3f"), testenv.LoadAverage())
}

// timeImport imports the file into the project and returns the rate in lines a second and the
// CPU time the process (the server) and the PostgreSQL backends of the test's database spent,
// in microseconds a line.
func timeImport(t *testing.T, svc *imports.Service, p *workflow.Project, file string, n int) (float64, float64, float64) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rep *imports.ImportReport
	dsn := os.Getenv(testenv.EnvPostgres)
	cpu, pg := cpuTime(), backendsCPU(t, dsn)
	secs := timed(func() { rep, err = svc.ImportItems(context.Background(), p, "", f, nil) })
	cpu, pg = cpuTime()-cpu, backendsCPU(t, dsn)-pg
	if err != nil || rep.Imported != n || len(rep.Errors) != 0 {
		t.Fatalf("import: %v %+v", err, rep)
	}
	return float64(n) / secs, float64(cpu.Microseconds()) / float64(n), float64(pg.Microseconds()) / float64(n)
}

// backendsCPU is the CPU time, user and system, that the PostgreSQL backends connected to the
// database of dsn have spent (read from /proc: the server runs on the same machine); 0 when it
// cannot be read.
//
// note: the import's connections are open before it starts (the project was made through them)
// or open during it, from nothing; a backend that ends during the import is not counted.
func backendsCPU(t *testing.T, dsn string) time.Duration {
	t.Helper()
	out, err := exec.Command("psql", dsn, "-X", "-q", "-A", "-t", "-c", "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()").Output()
	if err != nil {
		return 0
	}
	var total time.Duration
	for _, pid := range strings.Fields(string(out)) {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			continue
		}
		// note: the fields after the command's name in parentheses; utime and stime are the
		// 14th and 15th of the line, in clock ticks of 1/100 s
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 13 {
			continue
		}
		utime, _ := strconv.Atoi(f[11])
		stime, _ := strconv.Atoi(f[12])
		total += time.Duration(utime+stime) * 10 * time.Millisecond
	}
	return total
}

// cpuTime is the CPU time the process has spent, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
