package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// TestLoadtest runs the load test against a server on SQLite: annotators enrol, work, and the
// database is checked to hold exactly what was acknowledged.
func TestLoadtest(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"ARBITER_ADMIN_EMAIL": "admin@example.org", "ARBITER_ADMIN_PASSWORD": "load-test-admin-password"}
	base, _ := startServer(t, env, "--data-dir", dir)
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out bytes.Buffer
	err := runLoadtest(context.Background(), []string{"--server", base, "--clients", "3", "--items", "30", "--duration", "2s",
		"--rounds", "2", "--progress", "0", "--database-url", "sqlite:" + filepath.Join(dir, "arbiter.db")}, &out, io.Discard)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"30 items imported", "3 annotators enrolled", "round 2/2", "claim p50", "submit p50",
		"summary over 2 rounds", "each acknowledged submit stored exactly once"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
}

// TestLoadtestPostgres runs the load test against a server on PostgreSQL with pgbench beside
// it: both scripts run after each round and their ratios are summarised.
func TestLoadtestPostgres(t *testing.T) {
	pg := testenv.Service(t, testenv.EnvPostgres, "PostgreSQL")
	if _, err := exec.LookPath("pgbench"); err != nil {
		// note: pgbench comes with PostgreSQL's client tools; where services are required it is too
		if os.Getenv(testenv.EnvRequire) == "1" {
			t.Fatal("pgbench is not installed; the load test's yardstick cannot run")
		}
		t.Skip("pgbench is not installed")
	}
	schema := testenv.RandomName("t_load_")
	testenv.CreateSchema(t, pg, schema)
	url := testenv.WithSearchPath(t, pg, schema)
	env := map[string]string{"ARBITER_DATABASE_URL": url, "ARBITER_ADMIN_EMAIL": "admin@example.org", "ARBITER_ADMIN_PASSWORD": "load-test-admin-password"}
	base, _ := startServer(t, env, "--data-dir", t.TempDir())
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out bytes.Buffer
	err := runLoadtest(context.Background(), []string{"--server", base, "--clients", "2", "--items", "20", "--duration", "1s",
		"--rounds", "2", "--progress", "0", "--database-url", url}, &out, io.Discard)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	wants := []string{"pgbench  submit.sql 2 clients", "pgbench  unit.sql 2 clients", "ratio   submit", "ratio   unit",
		"each acknowledged submit stored exactly once"}
	if localDatabase(url) {
		wants = append(wants, "database CPU per submit", "database CPU per unit.sql tx")
	}
	for _, want := range wants {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
}

// TestStatCPU: the four CPU fields of a /proc stat line are summed for the named command only,
// whatever its command name holds.
func TestStatCPU(t *testing.T) {
	line := []byte("4242 (postgres) S 1 4242 4242 0 -1 4194560 2155 0 0 0 150 25 7 3 20 0 1 0 2638 226152448 7043 18446744073709551615")
	if n, ok := statCPU(line, "postgres"); !ok || n != 150+25+7+3 {
		t.Fatalf("postgres: %d %v, want 185 true", n, ok)
	}
	if _, ok := statCPU(line, "arbiter"); ok {
		t.Fatal("another command's line was counted")
	}
	odd := []byte("77 (a) b (c)) R 1 77 77 0 -1 0 0 0 0 0 9 1 0 0 20 0 1 0 5 1 1 1")
	if n, ok := statCPU(odd, "a) b (c)"); !ok || n != 10 {
		t.Fatalf("command with parentheses: %d %v, want 10 true", n, ok)
	}
	if _, found := processCPU("no-such-command-here"); found {
		t.Fatal("a command nobody runs was found")
	}
}

// TestLocalDatabase: the database's CPU is measured only when it runs on this machine.
func TestLocalDatabase(t *testing.T) {
	for u, want := range map[string]bool{
		"postgres://postgres@127.0.0.1:5432/a?sslmode=disable": true,
		"postgresql://u@localhost/a":                           true,
		"postgres://u@[::1]:5432/a":                            true,
		"postgres:///a?host=/var/run/postgresql":               true,
		"postgres://u@db.internal:5432/a":                      false,
		"postgres://u@10.0.0.5/a":                              false,
		"sqlite:/tmp/a.db":                                     false,
	} {
		if got := localDatabase(u); got != want {
			t.Errorf("%s: %v, want %v", u, got, want)
		}
	}
}

// TestCheckStored: every way the database can differ from the acknowledged submits is named.
func TestCheckStored(t *testing.T) {
	cases := map[string]struct {
		acked  []string
		stored map[string]int
		want   string
	}{
		"exact":            {[]string{"a", "b"}, map[string]int{"a": 1, "b": 1}, ""},
		"lost":             {[]string{"a", "b"}, map[string]int{"a": 1}, "missing 1 [b]"},
		"stored twice":     {[]string{"a"}, map[string]int{"a": 2}, "more than once 1"},
		"not acknowledged": {[]string{"a"}, map[string]int{"a": 1, "c": 1}, "without acknowledgement 1 [c]"},
	}
	for name, c := range cases {
		err := checkStored(io.Discard, c.acked, c.stored)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// TestPgbenchURL: libpq gets only its own parameters, and the bench schema on its path.
func TestPgbenchURL(t *testing.T) {
	got, err := pgbenchURL("postgres://u:p@db:5432/arbiter?sslmode=disable&search_path=t_1")
	if err != nil {
		t.Fatal(err)
	}
	if got != "postgres://u:p@db:5432/arbiter?options=-csearch_path%3Darbiter_bench&sslmode=disable" {
		t.Fatal(got)
	}
}
