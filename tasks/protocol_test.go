package tasks

import (
	"encoding/json"
	"strings"
	"testing"
)

// missingSchema judges an optional output: the score and the note need it.
func missingSchema() *Schema {
	return &Schema{Version: 1,
		Inputs: []Input{{Name: "prompt", Type: InputText}, {Name: "output", Type: InputText, Optional: true}},
		Questions: []Question{
			{Key: "score", Kind: KindLikert, Label: "Score", Required: true, Min: ip(1), Max: ip(10), Needs: []string{"output"}},
			{Key: "note", Kind: KindText, Label: "Note", Needs: []string{"output"}},
			{Key: "prompt_ok", Kind: KindBinary, Label: "Prompt fine", Required: true},
		}}
}

func TestValidateItemAnswersMissing(t *testing.T) {
	s := missingSchema()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	absent := Item{Inputs: map[string]json.RawMessage{"prompt": json.RawMessage(`"p"`)}}
	present := Item{Inputs: map[string]json.RawMessage{"prompt": json.RawMessage(`"p"`), "output": json.RawMessage(`"o"`)}}
	tests := []struct {
		name    string
		item    Item
		answers string
		codes   map[string]string
		want    map[string]string
	}{
		{"absent output: system answers missing", absent, `{"prompt_ok":"yes"}`, nil, map[string]string{"score": `"missing"`, "note": `"missing"`, "prompt_ok": `"yes"`}},
		{"absent output: missing given back is fine", absent, `{"prompt_ok":"yes","score":"missing"}`, nil, map[string]string{"score": `"missing"`}},
		{"absent output: a person may not score it", absent, `{"prompt_ok":"yes","score":7}`, map[string]string{"score": CodeInputMissing}, nil},
		{"present output: missing is refused", present, `{"prompt_ok":"yes","score":"missing"}`, map[string]string{"score": CodeNotMissing}, nil},
		{"present output: required still required", present, `{"prompt_ok":"yes"}`, map[string]string{"score": CodeRequired}, nil},
		{"present output: scored", present, `{"prompt_ok":"no","score":3}`, nil, map[string]string{"score": `3`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a Answers
			if err := json.Unmarshal([]byte(tt.answers), &a); err != nil {
				t.Fatal(err)
			}
			out, err := s.ValidateItemAnswers(tt.item, a)
			if tt.codes != nil {
				fe, _ := err.(FieldErrors)
				for k, code := range tt.codes {
					if fe[k].Code != code {
						t.Errorf("%s: got %v, want %s", k, err, code)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.want {
				if string(out[k]) != v {
					t.Errorf("%s = %s, want %s", k, out[k], v)
				}
			}
		})
	}
	if err := s.ValidateAnswers(Answers{"prompt_ok": json.RawMessage(`"yes"`), "score": json.RawMessage(`"missing"`)}); err == nil {
		t.Error("ValidateAnswers accepts a person's missing")
	}
}

func TestNeedsValidation(t *testing.T) {
	s := missingSchema()
	s.Questions[0].Needs = []string{"nope"}
	s.Questions[1].Inputs = []string{"prompt"}
	fe, _ := s.Validate().(FieldErrors)
	if fe["questions[0].needs[0]"].Code != CodeUnknownInput || fe["questions[1].needs[0]"].Code != CodeUnknownInput {
		t.Errorf("needs errors: %v", fe)
	}
}

// listSchema edits a model-drafted checklist held per rubric.
func listSchema() *Schema {
	return &Schema{Version: 1,
		Inputs: []Input{{Name: "checklist", Type: InputJSON}},
		Questions: []Question{{Key: "relevance_items", Kind: KindListEdit, Label: "Relevance checklist", Required: true,
			List: "checklist", ListKey: "relevance", Min: ip(1), Max: ip(3), MaxLength: 200}}}
}

func TestListEdit(t *testing.T) {
	s := listSchema()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	item := Item{Inputs: map[string]json.RawMessage{"checklist": json.RawMessage(`{"relevance": ["On topic", "Answers the question", "Cites the image"]}`)}}
	tests := []struct {
		name, answer, code, edited string
	}{
		{"keep, drop, reword, add", `[{"op":"keep","from":0},{"op":"drop","from":1},{"op":"reword","from":2,"text":"Refers to the image"},{"op":"add","text":"No invented details"}]`, "", `["On topic","Refers to the image","No invented details"]`},
		{"reword to the same text is a keep", `[{"op":"reword","from":0,"text":"On topic"},{"op":"drop","from":1},{"op":"drop","from":2}]`, "", `["On topic"]`},
		{"an entry undecided", `[{"op":"keep","from":0},{"op":"drop","from":1}]`, CodeTooFew, ""},
		{"an entry twice", `[{"op":"keep","from":0},{"op":"drop","from":0},{"op":"drop","from":1},{"op":"drop","from":2}]`, CodeDuplicateKey, ""},
		{"out of the list", `[{"op":"keep","from":0},{"op":"drop","from":1},{"op":"drop","from":2},{"op":"keep","from":3}]`, CodeOutOfRange, ""},
		{"too many left", `[{"op":"keep","from":0},{"op":"keep","from":1},{"op":"keep","from":2},{"op":"add","text":"x"}]`, CodeTooMany, ""},
		{"nothing left", `[{"op":"drop","from":0},{"op":"drop","from":1},{"op":"drop","from":2}]`, CodeTooFew, ""},
		{"reword without text", `[{"op":"reword","from":0},{"op":"drop","from":1},{"op":"drop","from":2}]`, CodeTooShort, ""},
		{"unknown op", `[{"op":"merge","from":0}]`, CodeInvalidValue, ""},
		{"unknown field", `[{"op":"keep","from":0,"why":"x"}]`, CodeInvalidType, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := s.ValidateItemAnswers(item, Answers{"relevance_items": json.RawMessage(tt.answer)})
			if tt.code != "" {
				fe, _ := err.(FieldErrors)
				if fe["relevance_items"].Code != tt.code {
					t.Fatalf("got %v, want %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			list, err := EditedList(out["relevance_items"])
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := json.Marshal(list); string(b) != tt.edited {
				t.Errorf("edited list %s, want %s", b, tt.edited)
			}
			if !strings.Contains(string(out["relevance_items"]), `"text":"On topic"`) {
				t.Errorf("a kept entry lacks its text: %s", out["relevance_items"])
			}
		})
	}
	bad := listSchema()
	bad.Questions[0].List = ""
	bad.Questions[0].Min = ip(4)
	fe, _ := bad.Validate().(FieldErrors)
	if fe["questions[0].list"].Code != CodeRequired || fe["questions[0].max"].Code != CodeOutOfRange {
		t.Errorf("schema errors: %v", fe)
	}
}

func TestMetaClosedList(t *testing.T) {
	s := missingSchema()
	s.Meta = []MetaField{{Key: "task_name", Options: []string{"Text2Image", "Image2Text"}, Required: true}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	item := func(meta string) Item {
		it := Item{Inputs: map[string]json.RawMessage{"prompt": json.RawMessage(`"p"`)}}
		if meta != "" {
			it.Meta = map[string]json.RawMessage{"task_name": json.RawMessage(meta)}
		}
		return it
	}
	if err := s.ValidateItem(item(`"Text2Image"`)); err != nil {
		t.Errorf("a listed category is refused: %v", err)
	}
	for meta, code := range map[string]string{`"Text2Speech"`: CodeUnknownOption, `3`: CodeUnknownOption, "": CodeRequired} {
		fe, _ := s.ValidateItem(item(meta)).(FieldErrors)
		if fe["meta.task_name"].Code != code {
			t.Errorf("%s: got %v, want %s", meta, fe, code)
		}
	}
	s.Meta = append(s.Meta, MetaField{Key: "task_name"})
	if fe, _ := s.Validate().(FieldErrors); fe["meta[1].key"].Code != CodeDuplicateKey {
		t.Errorf("a repeated meta key is accepted: %v", fe)
	}
}

// TestD3OmniOneNARule: the D3-Omni guidelines give one rule for dimensions that do not apply
// (choose N/A, which counts as Yes), and every defect-phrased question says how N/A reads.
func TestD3OmniOneNARule(t *testing.T) {
	for _, id := range []string{"d3omni-t2i", "d3omni-t2v", "d3omni-tts"} {
		tpl, ok := LookupTemplate(id)
		if !ok {
			t.Fatalf("no template %s", id)
		}
		g := strings.Join(strings.Fields(tpl.Guidelines), " ")
		if strings.Contains(g, "Answer Yes if a requirement is not violated or not applicable") {
			t.Errorf("%s: the guidelines still say to answer Yes when a dimension does not apply", id)
		}
		if !strings.Contains(g, "choose N/A") {
			t.Errorf("%s: the guidelines do not say to choose N/A", id)
		}
		for _, q := range tpl.Schema.Questions {
			if q.YesMeans == YesMeansDefect && q.AllowNA && !strings.Contains(q.Help, "N/A") {
				t.Errorf("%s.%s: a defect question does not say how N/A counts", id, q.Key)
			}
		}
	}
}

// TestJudgeAnythingCategories: the Judge-Anything templates declare the 15 task categories as a
// closed list, and their samples fit it.
func TestJudgeAnythingCategories(t *testing.T) {
	for _, id := range []string{"judgeanything-score", "judgeanything-pair"} {
		tpl, _ := LookupTemplate(id)
		if len(tpl.Schema.Meta) != 1 || tpl.Schema.Meta[0].Key != "task_name" || len(tpl.Schema.Meta[0].Options) != 15 {
			t.Fatalf("%s: meta = %+v", id, tpl.Schema.Meta)
		}
		it := tpl.Samples[0]
		it.Meta = map[string]json.RawMessage{"task_name": json.RawMessage(`"Text2Speech"`)}
		if fe, _ := tpl.Schema.ValidateItem(it).(FieldErrors); fe["meta.task_name"].Code != CodeUnknownOption {
			t.Errorf("%s: an unknown category is accepted: %v", id, fe)
		}
	}
}

func TestReadsItem(t *testing.T) {
	plain := missingSchema()
	for i := range plain.Questions {
		plain.Questions[i].Needs = nil
	}
	if !missingSchema().ReadsItem() || !listSchema().ReadsItem() || plain.ReadsItem() {
		t.Error("ReadsItem does not follow needs and list_edit")
	}
}
