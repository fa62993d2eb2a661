package exports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
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

// TestJudgeAnythingComments: under consensus every rubric row carries the
// comment of every annotator, pseudonymised; adjudicated rows carry the
// adjudicator's comment first.
func TestJudgeAnythingComments(t *testing.T) {
	tpl := template(t, "judgeanything-pair")
	texts := map[string][]TextAnswer{}
	for _, q := range tpl.Schema.Questions {
		if strings.HasSuffix(q.Key, "_comment") {
			for _, who := range []string{"user-a", "user-b", "user-c"} {
				texts[q.Key] = append(texts[q.Key], TextAnswer{Author: who, Role: "annotator", Text: who + " on " + q.Key})
			}
		}
	}
	answers := tasks.Answers{}
	for _, q := range tpl.Schema.Questions {
		if q.Kind == tasks.KindPairwise {
			answers[q.Key] = raw(`"A"`)
		}
	}
	adjAnswers := maps.Clone(answers)
	adjAnswers["overall_comment"] = raw(`"the adjudicator's reason"`)
	adjTexts := map[string][]TextAnswer{"overall_comment": append([]TextAnswer{{Author: "user-adj", Role: "adjudicator", Text: "the adjudicator's reason"}},
		texts["overall_comment"]...)}
	s0, s1 := tpl.Samples[0], tpl.Samples[1]
	recs := []Record{
		{ID: "1", ExternalID: s0.ExternalID, Inputs: s0.Inputs, Meta: s0.Meta, Answers: answers, Texts: texts, Provenance: Provenance{Kind: ProvMajority}},
		{ID: "2", ExternalID: s1.ExternalID, Inputs: s1.Inputs, Meta: s1.Meta, Answers: adjAnswers, Texts: adjTexts,
			Provenance: Provenance{Kind: ProvAdjudicated, Adjudicator: "user-adj"}},
	}
	sink := benchExport(t, tpl, "judgeanything", nil, recs)
	rows := jsonArray(t, sink, "judgeanything/test/Human_Pairing.json")
	pseudo := newPseudonyms([]byte("test-salt"))
	for _, r := range rows {
		comments, _ := r["comments"].([]any)
		rubric := r["rubric_name"].(string)
		if rubric == "overall_score" {
			rubric = "overall"
		}
		switch {
		case r["uniq_id"] == uniqID(s0):
			if len(comments) != 3 || r["comment"] != "user-a on "+rubric+"_comment" {
				t.Errorf("consensus row %s: comment %q, comments %v", rubric, r["comment"], comments)
			}
			for i, c := range comments {
				if who := []string{"user-a", "user-b", "user-c"}[i]; c.(map[string]any)["author"] != pseudo.of(who) {
					t.Errorf("row %s comment %d by %v, want %s's pseudonym", rubric, i, c, who)
				}
			}
		case rubric == "overall":
			if len(comments) != 4 || r["comment"] != "the adjudicator's reason" {
				t.Errorf("adjudicated overall row: %v", r)
			}
		}
	}
	if b, _ := sink.File("judgeanything/test/Human_Pairing.json"); bytes.Contains(b, []byte("user-a")) && !bytes.Contains(b, []byte("user-a on")) {
		t.Error("a raw user id reached Human_Pairing.json")
	}
}

func uniqID(it tasks.Item) string {
	var s string
	json.Unmarshal(it.Meta["uniq_id"], &s)
	if s == "" {
		return it.ExternalID
	}
	return s
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
