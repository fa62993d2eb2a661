package releases_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

var referenceRounds = flag.Int("release-reference-rounds", 0, "run TestReleaseAgainstReference with this many rounds on a project of -release-items items")

// referenceCopy is the reference's read: one COPY out of the rows a release reads (every done
// item with its newest ground truth and its submitted labels).
const referenceCopy = `\copy (SELECT i.id, i.external_id, i.inputs, i.meta, i.stage, g.answers, g.provenance,
 g.decided_by, g.rationale, g.details, a.id, a.user_id, a.answers, a.time_spent_ms, a.submitted_at
 FROM items i JOIN ground_truth_revisions g ON g.item_id = i.id AND g.revision = i.gt_revision
 JOIN assignments a ON a.item_id = i.id AND a.stage = 'label' AND a.status = 'submitted'
 WHERE i.project_id = '%s' AND i.stage = 'done' ORDER BY i.id, a.id) TO '%s'`

// TestReleaseAgainstReference times a release of a generated RoboJudge project (jsonl + hf, as
// TestRelease1M) against the machine's own limit for the same work, interleaved round by round:
// one COPY of the same rows out of PostgreSQL (psql) plus DuckDB writing the release's jsonl
// records as parquet and as JSON (frontend/scripts/release-reference.mjs). It prints each
// round's times and ratio and their min / median / max. It runs only when asked:
//
//	go test ./backend/releases -run TestReleaseAgainstReference -release-reference-rounds 5 -release-items 100000 -v
func TestReleaseAgainstReference(t *testing.T) {
	if *referenceRounds == 0 {
		t.Skip("run with -release-reference-rounds N")
	}
	url := os.Getenv("ARBITER_TEST_POSTGRES_URL")
	script, _ := filepath.Abs("../../frontend/scripts/release-reference.mjs")
	for _, tool := range []string{"psql", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed for the reference: %v", tool, err)
		}
	}
	st := testenv.Postgres(t)
	dir := t.TempDir()
	blobs, err := blob.NewLocal(dir, testenv.SigningKey, "/blobs")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, st, blobs)
	fp := f.benchProject(*releaseItems)
	ctx := context.Background()
	var schema string
	if err := st.SQL().QueryRow("SELECT current_schema()").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	var rel, ref, ratio []float64
	var jsonl []string
	for round := range *referenceRounds {
		release := func() (time.Duration, []string) {
			r, err := f.rel.Start(ctx, fp, f.user, releases.Request{Name: fmt.Sprintf("bench %d", round), Formats: []string{"jsonl", "hf"},
				Options: map[string]any{"split_ratios": "train=0.8,test=0.2", "cluster_key": "source_clip"}})
			if err != nil {
				t.Fatal(err)
			}
			began := time.Now()
			if err := f.rel.Run(ctx, r.ID); err != nil {
				t.Fatal(err)
			}
			took := time.Since(began)
			if got, _ := f.rel.Get(ctx, fp.ID, r.ID); got.Status != flow.ReleaseDone {
				t.Fatalf("release %s: %v", got.Status, got.Error)
			}
			return took, releaseFiles(t, dir, r.ID, ".jsonl")
		}
		reference := func(jsonl []string) (time.Duration, time.Duration) {
			out := t.TempDir()
			began := time.Now()
			copy := exec.Command("psql", url, "-q", "-c", fmt.Sprintf(strings.ReplaceAll(referenceCopy, "\n", ""), fp.ID, filepath.Join(out, "rows.txt")))
			copy.Env = append(os.Environ(), "PGOPTIONS=-c search_path="+schema)
			run(t, copy)
			copied := time.Since(began)
			began = time.Now()
			res := run(t, exec.Command("node", append([]string{script, out}, jsonl...)...))
			var printed struct{ Records int }
			if err := json.Unmarshal(res, &printed); err != nil || printed.Records != *releaseItems {
				t.Fatalf("DuckDB read %d records (%v): %s", printed.Records, err, res)
			}
			return copied, time.Since(began)
		}
		// the order alternates; the reference reads the previous round's jsonl when it goes first
		var r, c, d time.Duration
		if round%2 == 0 {
			r, jsonl = release()
			c, d = reference(jsonl)
		} else {
			c, d = reference(jsonl)
			r, jsonl = release()
		}
		rel, ref, ratio = append(rel, r.Seconds()), append(ref, (c+d).Seconds()), append(ratio, r.Seconds()/(c+d).Seconds())
		t.Logf("round %d: release %.2f s, reference %.2f s (COPY %.2f s + DuckDB %.2f s), ratio %.2f, load %s",
			round+1, r.Seconds(), (c + d).Seconds(), c.Seconds(), d.Seconds(), ratio[len(ratio)-1], testenv.LoadAverage())
	}
	t.Logf("%d items, %d rounds: release %s s, reference %s s, release ÷ reference %s (min / median / max)",
		*releaseItems, len(rel), testenv.Spread(rel, "%.2f"), testenv.Spread(ref, "%.2f"), testenv.Spread(ratio, "%.2f"))
}

// releaseFiles lists the files of a release with the given extension in a local blob store.
func releaseFiles(t *testing.T, dir, releaseID, ext string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(path, releaseID) && strings.HasSuffix(path, ext) {
			out = append(out, path)
		}
		return nil
	})
	if len(out) == 0 {
		t.Fatalf("no %s file of release %s under %s", ext, releaseID, dir)
	}
	return out
}

// run runs a command and returns what it printed, failing the test when it fails.
func run(t *testing.T, cmd *exec.Cmd) []byte {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("%s: %v\n%s", cmd, err, ee.Stderr)
		}
		t.Fatalf("%s: %v", cmd, err)
	}
	return out
}
