package cli

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
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
