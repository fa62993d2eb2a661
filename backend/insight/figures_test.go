package insight_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// keptKind is one kind of kept figures as a test reads it: status, when computed, and a
// number the data change moves.
type keptKind struct {
	kind   flow.FiguresKind
	params string
	read   func(f *fixture) (insight.FiguresState, int64, error)
}

var keptKinds = []keptKind{
	{flow.FiguresBalance, "", func(f *fixture) (insight.FiguresState, int64, error) {
		r, err := f.in.Balance(f.ctx, f.project())
		if err != nil {
			return insight.FiguresState{}, 0, err
		}
		return r.FiguresState, r.Items, nil
	}},
	{flow.FiguresReport, "", func(f *fixture) (insight.FiguresState, int64, error) {
		r, err := f.in.DatasetReport(f.ctx, f.project())
		if err != nil {
			return insight.FiguresState{}, 0, err
		}
		return r.FiguresState, r.Items, nil
	}},
	{flow.FiguresJudges, "cluster_key=source", func(f *fixture) (insight.FiguresState, int64, error) {
		r, err := f.in.Judges(f.ctx, f.project(), insight.JudgeOptions{ClusterKey: "source"})
		if err != nil {
			return insight.FiguresState{}, 0, err
		}
		n := int64(0)
		if len(r.Groups) > 0 {
			n = int64(r.Groups[0].Items)
		}
		return r.FiguresState, n, nil
	}},
}

// TestFiguresKeptUntilDataChange: with a job queue each kind of figures is first "computing"
// with one refresh queued (none more while it is pending); the job's figures are then
// answered as kept until the data change: computing again with the kept figures, and one more
// refresh. A queue that fails fails the answer.
func TestFiguresKeptUntilDataChange(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f := judgeFixture(t, st)
		q := &queue{}
		f.in.UseJobs(q)
		for _, k := range keptKinds {
			for range 2 {
				if s, n, err := k.read(f); err != nil || s.Status != insight.AgreementComputing || s.ComputedAt != nil || n != 0 {
					t.Fatalf("%s before its job: %+v, %d, %v", k.kind, s, n, err)
				}
			}
			if err := f.in.RunFigures(f.ctx, f.pid, k.kind, k.params); err != nil {
				t.Fatal(err)
			}
			if s, n, err := k.read(f); err != nil || s.Status != insight.AgreementReady || s.ComputedAt == nil || n != 6 {
				t.Fatalf("%s after its job: %+v, %d, %v", k.kind, s, n, err)
			}
		}
		want := []string{"balance?", "report?", "judges?cluster_key=source"}
		if !slices.Equal(q.figures, want) {
			t.Fatalf("refreshes queued %v, want %v", q.figures, want)
		}
		f.importItems(decidedLine("j7", "yes", "yes", "yes", 2, "s1", ""))
		for _, k := range keptKinds {
			if s, n, err := k.read(f); err != nil || s.Status != insight.AgreementComputing || s.ComputedAt == nil || n != 6 {
				t.Fatalf("%s after a new item: %+v, %d, %v", k.kind, s, n, err)
			}
		}
		if len(q.figures) != 6 || q.figures[3] != "balance?" {
			t.Fatalf("refreshes queued %v", q.figures)
		}
		for _, k := range keptKinds {
			if err := f.in.RunFigures(f.ctx, f.pid, k.kind, k.params); err != nil {
				t.Fatal(err)
			}
			if s, n, err := k.read(f); err != nil || s.Status != insight.AgreementReady || n != 7 {
				t.Fatalf("%s after its second job: %+v, %d, %v", k.kind, s, n, err)
			}
		}
		f.importItems(decidedLine("j8", "no", "yes", "yes", 2, "s1", ""))
		q.fail = errors.New("queue down")
		for _, k := range keptKinds {
			if _, _, err := k.read(f); !errors.Is(err, q.fail) {
				t.Fatalf("%s with the queue down: %v", k.kind, err)
			}
		}
	})
}

// TestRunFiguresUnknownKind: a job of a kind the service does not compute fails, keeping
// nothing.
func TestRunFiguresUnknownKind(t *testing.T) {
	f := judgeFixture(t, openSQLite(t))
	err := f.in.RunFigures(f.ctx, f.pid, "weather", "")
	if err == nil || !strings.Contains(err.Error(), `unknown figures kind "weather"`) {
		t.Fatalf("unknown kind: %v", err)
	}
	if _, err := f.st.FiguresResult(f.ctx, f.pid, "weather"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("figures kept for an unknown kind: %v", err)
	}
}
