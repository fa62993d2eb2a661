package exports

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestFormatsFitSchemas checks which template schemas each benchmark format
// accepts, and that a misfit is a format_not_applicable field error.
func TestFormatsFitSchemas(t *testing.T) {
	tests := []struct {
		template string
		fits     []string
	}{
		{"d3omni-t2i", []string{"jsonl", "csv", "hf", "d3omni"}},
		{"d3omni-tts", []string{"jsonl", "csv", "hf", "d3omni"}},
		{"binary-checklist", []string{"jsonl", "csv", "hf"}},
		{"omnireward-pair", []string{"jsonl", "csv", "hf", "omnireward", "judgeanything"}},
		{"pairwise-preference", []string{"jsonl", "csv", "hf", "judgeanything"}},
		{"judgeanything-pair", []string{"jsonl", "csv", "hf", "judgeanything"}},
		{"judgeanything-score", []string{"jsonl", "csv", "hf", "judgeanything", "robojudge"}},
		{"likert-rating", []string{"jsonl", "csv", "hf", "judgeanything", "robojudge"}},
		{"robojudge", []string{"jsonl", "csv", "hf", "robojudge"}},
		{"storybench-speech", []string{"jsonl", "csv", "hf", "robojudge", "storybench"}},
	}
	for _, tt := range tests {
		t.Run(tt.template, func(t *testing.T) {
			s := template(t, tt.template).Schema
			for _, name := range FormatNames() {
				err := Validate(&s, []string{name}, nil)
				codes := fieldCodes(t, err)
				if slices.Contains(tt.fits, name) != (err == nil) {
					t.Errorf("%s: fits = %v, want %v (%v)", name, err == nil, slices.Contains(tt.fits, name), err)
				}
				if err != nil && codes["formats[0]"] != CodeFormatNotApplicable {
					t.Errorf("%s: codes %v", name, codes)
				}
			}
		})
	}
}

// benchExport exports records of a template in one format and returns the
// sink.
func benchExport(t *testing.T, tpl tasks.Template, format string, opts map[string]any, recs []Record) *MemorySink {
	t.Helper()
	rel := testRelease(tpl)
	sink, _ := exportTo(t, rel, mustSpec(t, &rel.Schema, []string{format}, opts), recs)
	return sink
}

// jsonArray parses a JSON array file of a sink.
func jsonArray(t *testing.T, sink *MemorySink, path string) []map[string]any {
	t.Helper()
	b, ok := sink.File(path)
	if !ok {
		t.Fatalf("no %s in %v", path, sink.Paths())
	}
	var out []map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// TestOmniRewardShownOrder follows one annotator's answer from the order it
// was shown in to the release: "A" on a swapped screen is the stored second
// response, so the record says response2.
func TestOmniRewardShownOrder(t *testing.T) {
	tpl := template(t, "omnireward-pair")
	item := tpl.Samples[0]
	tests := []struct {
		name  string
		shown string
		perm  []int
		want  string
	}{
		{"shown in stored order", "A", []int{0, 1}, "response1"},
		{"shown swapped", "A", []int{1, 0}, "response2"},
		{"swapped, B", "B", []int{1, 0}, "response1"},
		{"tie", "tie", []int{1, 0}, "tie"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shown := tasks.Answers{"preference": json.RawMessage(`"` + tt.shown + `"`)}
			canon, err := tpl.Schema.ToCanonical(shown, tasks.Shuffle{"responses": {Perm: tt.perm}})
			if err != nil {
				t.Fatal(err)
			}
			rec := Record{ID: "x", ExternalID: item.ExternalID, Inputs: item.Inputs, Meta: item.Meta,
				Answers: canon, Provenance: Provenance{Kind: ProvSingle, Revision: 1}}
			sink := benchExport(t, tpl, "omnireward", nil, []Record{rec})
			got := jsonArray(t, sink, "omnireward/test/text_to_image_preferences.json")
			if len(got) != 1 || got[0]["criteria_preference"] != tt.want {
				t.Errorf("got %v, want %s", got, tt.want)
			}
		})
	}
}

// TestOmniRewardTaskInference names the file after the types when the item
// has no "task" metadata.
func TestOmniRewardTaskInference(t *testing.T) {
	tpl := template(t, "omnireward-pair")
	cand := func(typ, val string) string {
		return `{"id":"` + typ + val + `","type":"` + typ + `","value":"` + val + `"}`
	}
	tests := []struct {
		inputs map[string]string
		c      string
		want   string
	}{
		{nil, "text", "text_to_text"},
		{map[string]string{"image": `"in.png"`}, "text", "text_image_to_text"},
		{map[string]string{"video": `"in.mp4"`}, "markdown", "text_video_to_text"},
		{map[string]string{"audio": `"in.wav"`}, "text", "text_audio_to_text"},
		{nil, "image", "text_to_image"},
		{map[string]string{"image": `"src.png"`}, "image", "text_image_to_image"},
		{nil, "video", "text_to_video"},
		{nil, "audio", "text_to_audio"},
		{nil, "model3d", "text_to_3D"},
	}
	for _, tt := range tests {
		inputs := map[string]json.RawMessage{"prompt": raw(`"p"`), "criterion": raw(`"c"`),
			"responses": raw("[" + cand(tt.c, "1") + "," + cand(tt.c, "2") + "]")}
		for k, v := range tt.inputs {
			inputs[k] = raw(v)
		}
		rec := Record{ID: "x", Inputs: inputs, Answers: tasks.Answers{"preference": raw(`"A"`)}, Provenance: Provenance{Kind: ProvSingle}}
		sink := benchExport(t, tpl, "omnireward", nil, []Record{rec})
		if _, ok := sink.File("omnireward/test/" + tt.want + "_preferences.json"); !ok {
			t.Errorf("%v %s: files %v, want %s", tt.inputs, tt.c, sink.Paths(), tt.want)
		}
	}
}

// TestJudgeAnythingSharedQuery writes a query and its responses once when
// several items share a uniq_id.
func TestJudgeAnythingSharedQuery(t *testing.T) {
	tpl := template(t, "judgeanything-score")
	base := tpl.Samples[1]
	var recs []Record
	for i, model := range []string{"m1", "m2", "m1"} {
		inputs := map[string]json.RawMessage{}
		for k, v := range base.Inputs {
			inputs[k] = v
		}
		inputs["response"] = raw(`[{"id":"r-` + model + `","type":"text","value":"answer","meta":{"model":"` + model + `"}}]`)
		recs = append(recs, Record{ID: string(rune('a' + i)), ExternalID: "item-" + string(rune('a'+i)), Inputs: inputs,
			Meta:       map[string]json.RawMessage{"uniq_id": raw(`"q-1"`), "task_name": raw(`"Image2Text"`)},
			Answers:    tasks.Answers{"overall": raw(`3`)},
			Provenance: Provenance{Kind: ProvSingle}})
	}
	sink := benchExport(t, tpl, "judgeanything", nil, recs)
	dir := "judgeanything/test/"
	if q := jsonArray(t, sink, dir+"TaskAnything.json"); len(q) != 1 || q[0]["uniq_id"] != "q-1" {
		t.Errorf("queries %v", q)
	}
	if r := jsonArray(t, sink, dir+"JudgeAnything.json"); len(r) != 2 {
		t.Errorf("responses %v, want r-m1 and r-m2 once each", r)
	}
	if c := jsonArray(t, sink, dir+"checklist.json"); len(c) != 2 {
		t.Errorf("checklists %v, want the two rubrics once", c)
	}
	rows := jsonArray(t, sink, dir+"Human_Scoring.json")
	if len(rows) != 3 || rows[0]["rubric_name"] != "overall_score" || rows[0]["score"] != 3.0 {
		t.Errorf("judgments %v", rows)
	}
}

// TestStoryBenchIncomplete marks a record missing a criterion.
func TestStoryBenchIncomplete(t *testing.T) {
	tpl := template(t, "storybench-text")
	rec := Record{ID: "x", ExternalID: "e", Inputs: tpl.Samples[0].Inputs, Meta: tpl.Samples[0].Meta,
		Answers:    tasks.Answers{"alignment_with_metadata": raw(`7`), "alignment_with_metadata_rationale": raw(`"fits well"`)},
		Provenance: Provenance{Kind: ProvSingle}}
	got := jsonArray(t, benchExport(t, tpl, "storybench", nil, []Record{rec}), "storybench/test/text/all_results.json")
	eval, _ := got[0]["human_eval"].(map[string]any)
	if got[0]["status"] != "incomplete" || len(eval) != 1 || got[0]["dataset_index"] != 412.0 {
		t.Errorf("record %v", got[0])
	}
}

// TestD3OmniUnknownDimension writes an N/A that counts as missing as null
// and leaves it out of the total score.
func TestD3OmniUnknownDimension(t *testing.T) {
	s := tasks.Schema{Version: 1,
		Inputs: []tasks.Input{{Name: "prompt", Type: tasks.InputText}, {Name: "image", Type: tasks.InputImage}},
		Questions: []tasks.Question{
			{Key: "b_second", Index: 2, Kind: tasks.KindBinary, Label: "B", AllowNA: true},
			{Key: "a_first", Index: 1, Kind: tasks.KindBinary, Label: "A", YesMeans: tasks.YesMeansDefect},
			{Key: "c_third", Index: 3, Kind: tasks.KindBinary, Label: "C"},
		}}
	rel := &Release{Schema: s, Salt: []byte("s")}
	rec := Record{ID: "x", Inputs: map[string]json.RawMessage{"prompt": raw(`"p"`), "image": raw(`"i.png"`)},
		Answers:    tasks.Answers{"a_first": raw(`"yes"`), "b_second": raw(`"na"`), "c_third": raw(`"yes"`)},
		Provenance: Provenance{Kind: ProvSingle}}
	sink, _ := exportTo(t, rel, mustSpec(t, &rel.Schema, []string{"d3omni"}, nil), []Record{rec})
	b, _ := sink.File("d3omni/test/t2i.jsonl")
	for _, want := range []string{`"labels":["No",null,"Yes"]`, `"label_vector":[0,null,1]`, `"total_score":1`, `"num_dimensions":3`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("d3omni record lacks %s: %s", want, b)
		}
	}
}

// TestWriterFailure stops the export when a file cannot be created.
func TestWriterFailure(t *testing.T) {
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl", "hf"}, nil)
	sink := &failingSink{fail: "data/"}
	_, err := Export(t.Context(), Job{Release: rel, Spec: spec, Sink: sink}, seq(sinkRecords()))
	if err == nil || !strings.Contains(err.Error(), "data/test") {
		t.Fatalf("error %v does not name the file", err)
	}
	if _, ok := sink.File("manifest.json"); ok {
		t.Error("manifest written after a failure")
	}
}

// failingSink refuses paths starting with fail.
type failingSink struct {
	MemorySink
	fail string
}

func (f *failingSink) Create(p string) (io.WriteCloser, error) {
	if strings.HasPrefix(p, f.fail) {
		return nil, errors.New("disk full")
	}
	return f.MemorySink.Create(p)
}
