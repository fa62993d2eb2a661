package cli

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestSimulate runs two policies over two seeds against a server on SQLite. Annotators who are
// always right give ground truth that is always right, at exactly the overlap's labels an item;
// the second policy's labels are a third of the first's. Annotators who are always wrong give
// ground truth that is always wrong.
func TestSimulate(t *testing.T) {
	env := map[string]string{"ARBITER_ADMIN_EMAIL": "admin@example.org", "ARBITER_ADMIN_PASSWORD": "simulate-admin-password"}
	base, _ := startServer(t, env, "--data-dir", t.TempDir())
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out bytes.Buffer
	err := runSimulate(context.Background(), []string{"--server", base, "--items", "24", "--seeds", "2", "--accuracies", "1,1,1,1",
		"--policy", defaultSimulatePolicy, "--policy", `{"overlap": 1}`}, &out, io.Discard)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{
		"4 simulated annotators, accuracies [1 1 1 1]; 24 items a project",
		"seed  1 policy 1: 72 labels (3.00 an item), 24 of 24 items decided, ground truth right on 24 (1.0000 of all items, 1.0000 of those decided), labels per item 3:24",
		"seed  2 policy 2: 24 labels (1.00 an item), 24 of 24 items decided, ground truth right on 24 (1.0000 of all items, 1.0000 of those decided), labels per item 1:24",
		"labels ÷ policy 1 min 0.3333 / median 0.3333 / max 0.3333; accuracy − policy 1 min 0.0000 / median 0.0000 / max 0.0000",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := runSimulate(context.Background(), []string{"--server", base, "--items", "12", "--seeds", "1", "--accuracies", "0,0,0"}, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if want := "12 of 12 items decided, ground truth right on 0 (0.0000 of all items"; !strings.Contains(out.String(), want) {
		t.Errorf("no %q in:\n%s", want, out.String())
	}
}
