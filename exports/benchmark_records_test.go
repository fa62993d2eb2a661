package exports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// d3omniRecords are a seed family of the d3omni-t2i template: an all-Yes
// seed in English, its negative in Chinese, a seed that is not all-Yes,
// and a negative the blind spot check rejected on material_detail.
func d3omniRecords(t *testing.T) (tasks.Template, []Record) {
	t.Helper()
	tpl := template(t, "d3omni-t2i")
	yes := tasks.Answers{}
	for _, q := range tpl.Schema.Questions {
		yes[q.Key] = raw(`"yes"`)
	}
	with := func(key, v string) tasks.Answers {
		a := maps.Clone(yes)
		a[key] = raw(v)
		return a
	}
	meta := func(seed bool) map[string]json.RawMessage {
		m := map[string]json.RawMessage{"seed_id": raw(`"s1"`), "is_seed": raw(`false`)}
		if seed {
			m["is_seed"] = raw(`true`)
		}
		return m
	}
	in := func(img string) map[string]json.RawMessage {
		return map[string]json.RawMessage{"prompt": raw(`"an apple"`), "image": raw(`"` + img + `"`), "generator": raw(`"model-secret"`)}
	}
	return tpl, []Record{
		{ID: "1", ExternalID: "seed", Language: "en", Inputs: in("a.png"), Meta: meta(true), Answers: yes, Provenance: Provenance{Kind: ProvUnanimous}},
		{ID: "2", ExternalID: "neg-zh", Language: "zh-Hans", Inputs: in("b.png"), Meta: meta(false), Answers: with("edge_clarity", `"no"`),
			Provenance: Provenance{Kind: ProvConstructed}},
		{ID: "3", ExternalID: "seed-with-no", Language: "en", Inputs: in("c.png"), Meta: meta(true),
			Answers: with("object_anatomy", `"no"`), Provenance: Provenance{Kind: ProvAdjudicated, Adjudicator: "adj"}},
		{ID: "4", ExternalID: "neg-leaky", Language: "en", Inputs: in("d.png"), Meta: meta(false), Answers: with("edge_clarity", `"no"`),
			Provenance: Provenance{Kind: ProvConstructed}, SpotCheck: &SpotCheckFailure{Questions: []string{"material_detail"}}},
	}
}

// TestD3OmniRecords: each record carries its language, never the hidden
// generator unless asked; a seed that is not all-Yes is not released as a
// seed; an item the spot check rejected is released nowhere; the tally
// names each loss.
func TestD3OmniRecords(t *testing.T) {
	tpl, recs := d3omniRecords(t)
	rel := testRelease(tpl)
	sink, m := exportTo(t, rel, mustSpec(t, &rel.Schema, []string{"jsonl", "d3omni"}, nil), recs)
	lines := jsonLines(t, sink, "d3omni/test/t2i.jsonl")
	var got []string
	for _, l := range lines {
		got = append(got, l["id"].(string)+"/"+str(l["language"]))
		if _, ok := l["generator"]; ok {
			t.Errorf("record %s carries the hidden generator", l["id"])
		}
		if meta := l["meta"].(map[string]any); meta["is_seed"] == true && l["total_score"] != float64(len(tpl.Schema.Questions)) {
			t.Errorf("seed %s released with total score %v", l["id"], l["total_score"])
		}
	}
	if want := []string{"seed/en", "neg-zh/zh-Hans"}; !slices.Equal(got, want) {
		t.Errorf("d3omni records %v, want %v", got, want)
	}
	if b, _ := sink.File("jsonl/test.jsonl"); bytes.Contains(b, []byte("neg-leaky")) {
		t.Error("the item the spot check rejected is in jsonl")
	}
	r := m.Records
	wantLeft := []Loss{{Kind: LossSpotCheck, Reason: "disagreed on material_detail", Items: 1}}
	wantD3 := []Loss{{Kind: LossSeedNotAllYes, Reason: "not Yes on object_anatomy", Items: 1}}
	if r.Read != 4 || r.Total != 3 || !slices.Equal(r.LeftOut, wantLeft) || r.Formats["d3omni"].Records != 2 ||
		!slices.Equal(r.Formats["d3omni"].LeftOut, wantD3) || r.Formats["jsonl"].Records != 3 {
		t.Errorf("tally %+v", r)
	}
	card, _ := sink.File("README.md")
	for _, want := range []string{"| left out: the blind spot check (disagreed on material_detail) | 1 |",
		"- d3omni leaves out 1 of the 3 records: a seed that is not all-Yes (not Yes on object_anatomy) 1."} {
		if !bytes.Contains(card, []byte(want)) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}

	sink, _ = exportTo(t, rel, mustSpec(t, &rel.Schema, []string{"d3omni"}, map[string]any{"hidden_inputs": true}), recs)
	for _, l := range jsonLines(t, sink, "d3omni/test/t2i.jsonl") {
		if l["generator"] != "model-secret" {
			t.Errorf("hidden_inputs=true: record %s generator %v", l["id"], l["generator"])
		}
	}
}

// jsonLines reads a JSON Lines file of a sink.
func jsonLines(t *testing.T, sink *MemorySink, p string) []map[string]any {
	t.Helper()
	b, ok := sink.File(p)
	if !ok {
		t.Fatalf("no file %s in %v", p, sink.Paths())
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
