package releases_test

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

var (
	release1M    = flag.Bool("release1m", false, "run TestRelease1M: release a generated project of -release-items items on PostgreSQL")
	releaseItems = flag.Int("release-items", 1_000_000, "items of the project TestRelease1M generates")
)

// TestRelease1M generates a RoboJudge project on PostgreSQL (every item done with adjudicated
// ground truth and two labels), then releases it as jsonl and hf the way the job does, and
// reports the time of the checks made before the job, the job's wall time and the growth of
// the resident set while it ran (goal: 30 s, 64 MB). It runs only with -release1m:
//
//	go test ./backend/releases -run TestRelease1M -release1m -v -timeout 30m
func TestRelease1M(t *testing.T) {
	if !*release1M {
		t.Skip("run with -release1m")
	}
	n := *releaseItems
	st := testenv.Postgres(t)
	blobs, err := blob.NewLocal(t.TempDir(), testenv.SigningKey, "/blobs")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, st, blobs)
	fp := f.benchProject(n)
	ctx := context.Background()
	began := time.Now()
	r, err := f.rel.Start(ctx, fp, f.user, releases.Request{Name: "bench", Formats: []string{"jsonl", "hf"},
		Options: map[string]any{"split_ratios": "train=0.8,test=0.2", "cluster_key": "source_clip"}})
	if err != nil {
		t.Fatal(err)
	}
	checks := time.Since(began)
	watch := startRSSWatch()
	cpu0 := processCPU()
	began = time.Now()
	if err := f.rel.Run(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(began)
	cpu := processCPU() - cpu0
	growth := watch.stop()
	got, _ := f.rel.Get(ctx, fp.ID, r.ID)
	if got.Status != flow.ReleaseDone || got.Progress.Records != int64(n) {
		t.Fatalf("release: %s %+v %v", got.Status, got.Progress, got.Error)
	}
	files, _ := f.st.ReleaseFiles(ctx, r.ID)
	var written int64
	for _, file := range files {
		written += file.Bytes
	}
	t.Logf("%d items, jsonl+hf: checks before the job %s, job %s wall (%s of the process's CPU), peak RSS growth %.1f MB (%.1f MB at start), %.0f MB written in %d files, GOMAXPROCS %d, load %s",
		n, checks.Round(10*time.Millisecond), elapsed.Round(10*time.Millisecond), cpu.Round(10*time.Millisecond), growth, watch.baseMB,
		float64(written)/(1<<20), len(files), runtime.GOMAXPROCS(0), testenv.LoadAverage())
	if growth > 64 {
		t.Errorf("peak RSS grew %.1f MB, goal 64 MB", growth)
	}
	if elapsed > time.Minute {
		t.Logf("wall time %s is above the 60 s goal", elapsed.Round(time.Second))
	}
}

// benchProject makes the fixture's project a RoboJudge one and fills it with n done items in
// SQL: adjudicated ground truth and two submitted labels each.
func (f *fixture) benchProject(n int) *workflow.Project {
	f.t.Helper()
	ctx := context.Background()
	d, err := f.projects.CreateProject(ctx, &store.User{ID: f.user, CanCreateProjects: true},
		projects.ProjectSpec{Name: "RoboJudge bench", Template: "robojudge"})
	if err != nil {
		f.t.Fatal(err)
	}
	began := time.Now()
	db := f.st.SQL()
	for u := range 20 {
		mustExec(f.t, db, `INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES ($1, $2, $3, 'x', now(), now())`,
			"ann-"+strconv.Itoa(u), fmt.Sprintf("ann%d@example.org", u), "Annotator")
	}
	for _, q := range benchSQL {
		var args []any
		if strings.Contains(q, "$1") {
			args = append(args, d.ID)
		}
		mustExec(f.t, db, strings.ReplaceAll(q, "$N", strconv.Itoa(n)), args...)
	}
	mustExec(f.t, db, "ANALYZE")
	f.t.Logf("generated %d items in %s", n, time.Since(began).Round(time.Second))
	p, err := f.st.Project(ctx, d.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	fp, err := f.flow.LoadProject(ctx, p, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	return fp
}

// benchSQL generates the items ($1 is the project), their ground truth and their labels.
var benchSQL = []string{
	`INSERT INTO items (id, project_id, external_id, inputs, meta, stage, gt_revision, version, created_at, updated_at)
	 SELECT 'item-' || lpad(i::text, 8, '0'), $1, 'ext-' || i,
	  json_build_object('video', 'media/videos/' || i || '.mp4', 'first_frame', 'media/frames/' || i || '.png',
	   'instruction', 'Pick up object ' || i || ' and place it on the left.', 'generator', 'video-gen-' || (i % 14))::text,
	  json_build_object('source_clip', 'corpus-' || (i % 8) || '/task-' || (i % 50) || '/episode_' || (i / 3),
	   'embodiment', 'gripper', 'kind', 'robot')::text,
	  'done', 1, 1, now(), now()
	 FROM generate_series(0, $N - 1) AS i`,
	`INSERT INTO ground_truth_revisions (item_id, revision, answers, provenance, decided_by, rationale, details, created_at)
	 SELECT 'item-' || lpad(i::text, 8, '0'), 1, ` + benchAnswers("i") + `, 'adjudicated', 'ann-' || (i % 7),
	  'Scores follow the evidence of clip ' || i || '.', '{"confidence": 4}', now()
	 FROM generate_series(0, $N - 1) AS i`,
	`INSERT INTO assignments (id, project_id, item_id, user_id, stage, status, schema_version, seed, lease_expires_at, version,
	  answers, review_status, time_spent_ms, created_at, submitted_at)
	 SELECT 'lab-' || lpad(i::text, 8, '0') || '-' || k, $1, 'item-' || lpad(i::text, 8, '0'), 'ann-' || ((i + k) % 20),
	  'label', 'submitted', 1, 0, now(), 1, ` + benchAnswers("i") + `, 'none', 1000, now(), now()
	 FROM generate_series(0, $N - 1) AS i, generate_series(0, 1) AS k`,
}

// benchAnswers is a SQL expression of RoboJudge answers for item i.
func benchAnswers(i string) string {
	return `json_build_object('physical_adherence', 1 + ` + i + ` % 5, 'instruction_alignment', 1 + (` + i + ` / 5) % 5,
	  'pa_checklist', json_build_object('agent_consistency', ` + i + ` % 3, 'scene_consistency', (` + i + ` / 3) % 3, 'interaction_realism', (` + i + ` / 9) % 3),
	  'ia_checklist', json_build_object('agent_match', (` + i + ` / 2) % 3, 'object_correctness', (` + i + ` / 4) % 3, 'goal_completion', (` + i + ` / 8) % 3),
	  'pa_evidence', 'Gripper stays intact; object ' || ` + i + ` || ' persists.',
	  'ia_evidence', 'Instruction ' || ` + i + ` || ': the goal state is reached.')::text`
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
}

// rssWatch samples the resident set while a release runs and keeps the peak.
type rssWatch struct {
	baseMB float64
	peak   int64
	done   chan struct{}
	wg     sync.WaitGroup
}

// startRSSWatch collects garbage, takes the resident set as the base and samples it every
// 10 ms until stop.
func startRSSWatch() *rssWatch {
	runtime.GC()
	w := &rssWatch{done: make(chan struct{})}
	base := rssKB()
	w.baseMB, w.peak = float64(base)/1024, base
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-t.C:
				w.peak = max(w.peak, rssKB())
			}
		}
	}()
	return w
}

// stop ends the sampling and returns the peak growth in MB.
func (w *rssWatch) stop() float64 {
	close(w.done)
	w.wg.Wait()
	w.peak = max(w.peak, rssKB())
	return float64(w.peak)/1024 - w.baseMB
}

// processCPU is the user and system CPU time the process has used (getrusage).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rssKB reads VmRSS from /proc/self/status.
func rssKB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	return 0
}
