package exports

import (
	"bytes"
	"errors"
	"runtime"
	"testing"
)

// exportGenerated exports n generated RoboJudge records as jsonl and hf with
// the labels, split by cluster, on the given number of threads.
func exportGenerated(t *testing.T, n, procs int, recs func(i int) Record) (*MemorySink, error) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	rel := testRelease(template(t, "robojudge"))
	spec := mustSpec(t, &rel.Schema, []string{"jsonl", "hf"},
		map[string]any{"raw": true, "split_ratios": "train=0.8,test=0.2", "cluster_key": "source_clip"})
	all := make([]Record, n)
	for i := range all {
		all[i] = recs(i)
	}
	sink := &MemorySink{}
	_, err := Export(t.Context(), Job{Release: rel, Spec: spec, Sink: sink}, seq(all))
	return sink, err
}

// Records prepared on several goroutines reach the files in stream order:
// the files are those of one goroutine preparing every record.
func TestPreparedInStreamOrder(t *testing.T) {
	n := 5*prepareBatch*maxPreparers + 17 // note: many windows of batches and a short last one
	one, err := exportGenerated(t, n, 1, generatedRecord)
	if err != nil {
		t.Fatal(err)
	}
	many, err := exportGenerated(t, n, maxPreparers, generatedRecord)
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Paths()) < 4 {
		t.Fatalf("files %v", one.Paths())
	}
	for _, p := range one.Paths() {
		a, _ := one.File(p)
		b, ok := many.File(p)
		if !ok || !bytes.Equal(a, b) {
			t.Errorf("%s differs between one goroutine preparing (%d bytes) and %d (%d bytes)", p, len(a), maxPreparers, len(b))
		}
	}
}

// The error of an export is the first failed record's in stream order, even
// when a later record's batch is prepared first.
func TestFirstFailedRecordInStreamOrder(t *testing.T) {
	bad := map[int]bool{3*prepareBatch + 5: true, 3*prepareBatch + 9: true, 4*prepareBatch + 1: true, 5 * prepareBatch: true}
	for range 20 {
		_, err := exportGenerated(t, 8*prepareBatch, maxPreparers, func(i int) Record {
			r := generatedRecord(i)
			if bad[i] {
				r.Answers["physical_adherence"] = raw("9")
			}
			return r
		})
		var re *RecordError
		if !errors.As(err, &re) {
			t.Fatalf("error %v, want a record's", err)
		}
		if want := generatedRecord(3*prepareBatch + 5).ID; re.ID != want {
			t.Fatalf("error names %s, want %s, the first failed record", re.ID, want)
		}
	}
}

// A stream that fails after a record that cannot be prepared reports the
// record: the records before the stream's error are prepared first.
func TestRecordErrorBeforeStreamError(t *testing.T) {
	rel := testRelease(template(t, "robojudge"))
	spec := mustSpec(t, &rel.Schema, []string{"jsonl"}, nil)
	recs := []Record{generatedRecord(0), generatedRecord(1)}
	recs[1].Answers["physical_adherence"] = raw("9")
	_, err := Export(t.Context(), Job{Release: rel, Spec: spec, Sink: &MemorySink{}}, failingSeq(recs, errors.New("the stream broke")))
	var re *RecordError
	if !errors.As(err, &re) || re.ID != recs[1].ID {
		t.Fatalf("error %v, want record %s's", err, recs[1].ID)
	}
}
