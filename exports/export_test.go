package exports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/tasks"
)

func ip(n int) *int { return &n }

// kitchenSink is a schema with one question of every kind and every input type.
func kitchenSink() tasks.Schema {
	return tasks.Schema{
		Version: 2, Title: "Kitchen sink",
		Inputs: []tasks.Input{
			{Name: "prompt", Type: tasks.InputText},
			{Name: "notes", Type: tasks.InputMarkdown, Optional: true},
			{Name: "shots", Type: tasks.InputImageList, Optional: true},
			{Name: "clip", Type: tasks.InputVideo, Optional: true},
			{Name: "extra", Type: tasks.InputJSON, Optional: true},
			{Name: "generator", Type: tasks.InputText, Hidden: true, Optional: true},
			{Name: "pair", Type: tasks.InputCandidates, Count: 2},
			{Name: "pool", Type: tasks.InputCandidates, Optional: true},
		},
		Questions: []tasks.Question{
			{Key: "bin", Kind: tasks.KindBinary, Label: "Binary", Required: true, AllowNA: true, NAMeans: tasks.NASatisfied},
			{Key: "defect", Kind: tasks.KindBinary, Label: "Defect", YesMeans: tasks.YesMeansDefect},
			{Key: "na_missing", Kind: tasks.KindBinary, Label: "N/A missing", AllowNA: true},
			{Key: "lik", Kind: tasks.KindLikert, Label: "Likert", Min: ip(1), Max: ip(5)},
			{Key: "lik_na", Kind: tasks.KindLikert, Label: "Likert NA", Min: ip(1), Max: ip(10), AllowNA: true},
			{Key: "ch", Kind: tasks.KindChoice, Label: "Choice", Options: []tasks.Option{{Key: "happy", Label: "Happy"}, {Key: "sad", Label: "Sad"}}},
			{Key: "mc", Kind: tasks.KindMultiChoice, Label: "Multi", Options: []tasks.Option{{Key: "a", Label: "A"}, {Key: "b", Label: "B"}, {Key: "c", Label: "C"}}},
			{Key: "pw", Kind: tasks.KindPairwise, Label: "Pair", Candidates: "pair", AllowTie: true},
			{Key: "rank", Kind: tasks.KindRanking, Label: "Rank", Candidates: "pool"},
			{Key: "cl", Kind: tasks.KindChecklist, Label: "Checklist", Items: []tasks.ChecklistItem{{Key: "x", Label: "X", Max: 2}, {Key: "y", Label: "Y", Max: 2}}},
			{Key: "txt", Kind: tasks.KindText, Label: "Text"},
			{Key: "crit", Kind: tasks.KindCriteria, Label: "Criteria"},
		},
	}
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// sinkRecords are items of the kitchen-sink schema: full, sparse, dropped.
func sinkRecords() []Record {
	conf := 0.75
	pair := raw(`[{"id":"c1","type":"text","value":"first <b>"},{"id":"c2","type":"image_list","value":["a.png",{"url":"https://x/b.png"}],"meta":{"model":"m2"}}]`)
	full := Record{ID: "i1", ExternalID: "e1",
		Inputs: map[string]json.RawMessage{"prompt": raw(`"Draw & tell"`), "notes": raw(`"**n**"`), "shots": raw(`["s1.png",{"asset":"as-9"}]`),
			"clip": raw(`{"url":"https://cdn/c.mp4"}`), "extra": raw(`{"z":1, "a":[true,null]}`), "generator": raw(`"gen-x"`), "pair": pair,
			"pool": raw(`[{"id":"p1","type":"audio","value":"p1.wav"},{"id":"p2","type":"video","value":"p2.mp4"},{"id":"p3","type":"model3d","value":"p3.glb"}]`)},
		Meta: map[string]json.RawMessage{"task": raw(`"t2i"`), "fold": raw(`2`)},
		Answers: tasks.Answers{"bin": raw(`"na"`), "defect": raw(`"yes"`), "na_missing": raw(`"na"`), "lik": raw(`4`), "lik_na": raw(`"na"`),
			"ch": raw(`"sad"`), "mc": raw(`["c","a"]`), "pw": raw(`"B"`), "rank": raw(`["C","A","B"]`), "cl": raw(`{"y":1,"x":2}`),
			"txt": raw(`"Because, \"quoted\"\nnewline"`), "crit": raw(`["one","two"]`)},
		Provenance: Provenance{Kind: ProvAdjudicated, Adjudicator: "user-adj", Rationale: "B follows the prompt", Confidence: &conf, Revision: 3},
		Labels: []Label{
			{Annotator: "user-a", Answers: tasks.Answers{"bin": raw(`"yes"`), "pw": raw(`"A"`), "lik": raw(`4`), "txt": raw(`"x"`)}},
			{Annotator: "user-b", Answers: tasks.Answers{"bin": raw(`"na"`), "pw": raw(`"B"`), "lik": raw(`3`)}},
		},
		Reviews: []Review{{Reviewer: "user-r", Annotator: "user-a", Verdict: "correct", Comment: "see pw",
			Comments: map[string]string{"pw": "B is better", "lik": "fine"}, Answers: tasks.Answers{"pw": raw(`"B"`)}}},
	}
	sparse := Record{ID: "i2", ExternalID: "e2",
		Inputs:     map[string]json.RawMessage{"prompt": raw(`"Only a prompt"`), "pair": raw(`[{"id":"d1","type":"audio","value":"d1.wav"},{"id":"d2","type":"audio","value":"d2.wav"}]`)},
		Answers:    tasks.Answers{"bin": raw(`"no"`), "defect": raw(`"no"`), "lik_na": raw(`7`), "pw": raw(`"tie"`)},
		Provenance: Provenance{Kind: ProvRule, Revision: 1},
	}
	dropped := Record{ID: "i3", ExternalID: "e3", Status: StatusDropped, DropReason: "no consensus on pw",
		Inputs: map[string]json.RawMessage{"prompt": raw(`"Dropped"`), "pair": raw(`[{"id":"f1","type":"text","value":"a"},{"id":"f2","type":"text","value":"b"}]`)},
		Labels: []Label{{Annotator: "user-a", Answers: tasks.Answers{"pw": raw(`"A"`)}}, {Annotator: "user-c", Answers: tasks.Answers{"pw": raw(`"B"`)}}},
	}
	return []Record{full, sparse, dropped}
}

func sinkRelease() *Release {
	return &Release{Name: "r1", Schema: kitchenSink(), Salt: []byte("salt"), Project: Project{Name: "Sink"}}
}

// TestExportDeterministic exports the same stream twice and compares every
// file byte for byte; it also checks that records are not changed in place.
func TestExportDeterministic(t *testing.T) {
	all := FormatNames()
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl", "csv", "hf"}, map[string]any{"raw": true, "include_dropped": true})
	recs := sinkRecords()
	before, _ := json.Marshal(recs)
	a, ma := exportTo(t, rel, spec, recs)
	b, mb := exportTo(t, rel, spec, sinkRecords())
	after, _ := json.Marshal(recs)
	if !bytes.Equal(before, after) {
		t.Error("Export changed the caller's records")
	}
	if !slices.Equal(a.Paths(), b.Paths()) || len(a.Paths()) < 6 {
		t.Fatalf("paths differ or too few: %v %v (formats %v)", a.Paths(), b.Paths(), all)
	}
	for _, p := range a.Paths() {
		x, _ := a.File(p)
		y, _ := b.File(p)
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two identical exports", p)
		}
	}
	if fmt.Sprint(ma.Files) != fmt.Sprint(mb.Files) {
		t.Error("manifests list different files")
	}
}

// TestExportPseudonymises checks that no user id reaches any file.
func TestExportPseudonymises(t *testing.T) {
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl", "csv", "hf"}, map[string]any{"raw": true, "include_dropped": true})
	sink, _ := exportTo(t, rel, spec, sinkRecords())
	pseudo := newPseudonyms(rel.Salt)
	found := false
	for _, p := range sink.Paths() {
		b, _ := sink.File(p)
		for _, id := range []string{"user-a", "user-b", "user-c", "user-r", "user-adj"} {
			if bytes.Contains(b, []byte(id)) {
				t.Errorf("%s contains the raw user id %s", p, id)
			}
			if bytes.Contains(b, []byte(pseudo.of(id))) {
				found = true
			}
		}
	}
	if !found {
		t.Error("no pseudonym was written at all")
	}
}

func TestExportCountsAndFilters(t *testing.T) {
	rel := sinkRelease()
	tests := []struct {
		name     string
		opts     map[string]any
		total    int64
		excluded int64
		filtered int64
	}{
		{"done only", nil, 2, 1, 0},
		{"with dropped", map[string]any{"include_dropped": true}, 3, 0, 0},
		{"filter", map[string]any{"filter.task": "t2i"}, 1, 0, 2},
		{"filter on a number", map[string]any{"filter": map[string]any{"fold": []any{"2", "3"}}}, 1, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := mustSpec(t, &rel.Schema, []string{"jsonl"}, tt.opts)
			sink, m := exportTo(t, rel, spec, sinkRecords())
			c := m.Records
			if c.Total != tt.total || c.Excluded != tt.excluded || c.Filtered != tt.filtered {
				t.Fatalf("counts %+v", c)
			}
			b, _ := sink.File("jsonl/test.jsonl")
			if lines := bytes.Count(b, []byte("\n")); int64(lines) != tt.total {
				t.Errorf("jsonl has %d lines, want %d", lines, tt.total)
			}
			if m.Files[len(m.Files)-1].Records != tt.total {
				t.Errorf("manifest records %+v", m.Files)
			}
		})
	}
}

func TestExportRecordErrors(t *testing.T) {
	rel := sinkRelease()
	tests := []struct {
		name  string
		opts  map[string]any
		edit  func(r *Record)
		field string
	}{
		{"missing split key", map[string]any{"split_key": "split"}, func(r *Record) {}, "meta.split"},
		{"invalid answer", nil, func(r *Record) { r.Answers["lik"] = raw(`9`) }, "answers.lik"},
		{"unknown question", nil, func(r *Record) { r.Answers["nope"] = raw(`1`) }, "answers.nope"},
		{"unknown provenance", nil, func(r *Record) { r.Provenance.Kind = "voted" }, "provenance.kind"},
		{"bad confidence", nil, func(r *Record) { c := 1.5; r.Provenance.Confidence = &c }, "provenance.confidence"},
		{"bad status", nil, func(r *Record) { r.Status = "pending" }, "status"},
		{"bad meta JSON", nil, func(r *Record) { r.Meta = map[string]json.RawMessage{"x": raw(`{`)} }, "meta.x"},
		{"bad language", nil, func(r *Record) { r.Language = "english!" }, "language"},
		{"language not canonical", nil, func(r *Record) { r.Language = "ZH-hans" }, "language"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := sinkRecords()
			tt.edit(&recs[0])
			spec := mustSpec(t, &rel.Schema, []string{"jsonl", "hf"}, tt.opts)
			sink := &MemorySink{}
			m, err := Export(t.Context(), Job{Release: rel, Spec: spec, Sink: sink}, seq(recs))
			var re *RecordError
			if !errors.As(err, &re) || re.Field != tt.field || re.ID != "i1" || m != nil {
				t.Fatalf("got %v (%#v), want a RecordError on %s of i1", err, err, tt.field)
			}
			if _, ok := sink.File("manifest.json"); ok {
				t.Error("a failed export wrote a manifest")
			}
		})
	}
}

func TestExportStreamFailures(t *testing.T) {
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl"}, nil)
	boom := errors.New("database went away")
	_, err := Export(t.Context(), Job{Release: rel, Spec: spec, Sink: &MemorySink{}}, failingSeq(sinkRecords(), boom))
	if !errors.Is(err, boom) {
		t.Errorf("stream error not returned: %v", err)
	}
	dropped := sinkRecords()[2:]
	if _, err := Export(t.Context(), Job{Release: rel, Spec: spec, Sink: &MemorySink{}}, seq(dropped)); !errors.Is(err, ErrNoRecords) {
		t.Errorf("no records: %v", err)
	}
	noSalt := *rel
	noSalt.Salt = nil
	if _, err := Export(t.Context(), Job{Release: &noSalt, Spec: spec, Sink: &MemorySink{}}, seq(sinkRecords())); err == nil || !strings.Contains(err.Error(), "salt") {
		t.Errorf("missing salt: %v", err)
	}
	ctx, cancel := contextWithCancel(t)
	cancel()
	if _, err := Export(ctx, Job{Release: rel, Spec: spec, Sink: &MemorySink{}}, seq(sinkRecords())); err == nil {
		t.Error("a cancelled context did not stop the export")
	}
}

func TestExportProgress(t *testing.T) {
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl"}, nil)
	var calls []int64
	job := Job{Release: rel, Spec: spec, Sink: &MemorySink{}, ProgressEvery: 2, Progress: func(n int64) { calls = append(calls, n) }}
	if _, err := Export(t.Context(), job, seq(sinkRecords())); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(calls, []int64{2, 3}) {
		t.Errorf("progress calls %v, want [2 3]", calls)
	}
}
