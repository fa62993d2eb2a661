package tasks

import (
	"strings"
	"testing"
)

func TestValidateSchemaPaths(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(s *Schema)
		path   string
		code   string
	}{
		{"version", func(s *Schema) { s.Version = 0 }, "version", CodeOutOfRange},
		{"format", func(s *Schema) { s.Format = 9 }, "format", CodeInvalidValue},
		{"no questions", func(s *Schema) { s.Questions = nil }, "questions", CodeRequired},
		{"input type", func(s *Schema) { s.Inputs[0].Type = "pdf" }, "inputs[0].type", CodeInvalidType},
		{"input dup", func(s *Schema) { s.Inputs[1].Name = "prompt" }, "inputs[1].name", CodeDuplicateKey},
		{"input bad name", func(s *Schema) { s.Inputs[0].Name = "Prompt Text" }, "inputs[0].name", CodeInvalidKey},
		{"input visible_to", func(s *Schema) { s.Inputs[1].VisibleTo = []Role{"boss"} }, "inputs[1].visible_to[0]", CodeInvalidRole},
		{"count on text", func(s *Schema) { s.Inputs[0].Count = 2 }, "inputs[0].count", CodeInvalidValue},
		{"group label", func(s *Schema) { s.Groups[0].Label = "" }, "groups[0].label", CodeRequired},
		{"question dup key", func(s *Schema) { s.Questions[1].Key = "bin" }, "questions[1].key", CodeDuplicateKey},
		{"question no key", func(s *Schema) { s.Questions[1].Key = "" }, "questions[1].key", CodeRequired},
		{"question label", func(s *Schema) { s.Questions[2].Label = "" }, "questions[2].label", CodeRequired},
		{"kind", func(s *Schema) { s.Questions[3].Kind = "slider" }, "questions[3].kind", CodeInvalidKind},
		{"unknown group", func(s *Schema) { s.Questions[0].Group = "other" }, "questions[0].group", CodeUnknownOption},
		{"unknown level", func(s *Schema) { s.Questions[0].Level = "cardinal" }, "questions[0].level", CodeInvalidValue},
		{"unknown input ref", func(s *Schema) { s.Questions[0].Inputs = []string{"image"} }, "questions[0].inputs[0]", CodeUnknownInput},
		{"dup index", func(s *Schema) { s.Questions[0].Index, s.Questions[1].Index = 1, 1 }, "questions[1].index", CodeDuplicateKey},
		{"anchors on binary", func(s *Schema) { s.Questions[0].Anchors = []Anchor{{1, "x"}} }, "questions[0].anchors", CodeInvalidValue},
		{"yes_means", func(s *Schema) { s.Questions[1].YesMeans = "bad" }, "questions[1].yes_means", CodeInvalidValue},
		{"na_means without allow_na", func(s *Schema) { s.Questions[1].NAMeans = NASatisfied }, "questions[1].na_means", CodeInvalidValue},
		{"likert no max", func(s *Schema) { s.Questions[2].Max = nil }, "questions[2].min", CodeRequired},
		{"likert inverted", func(s *Schema) { s.Questions[2].Min = ip(5); s.Questions[2].Max = ip(1) }, "questions[2].max", CodeOutOfRange},
		{"anchor range", func(s *Schema) { s.Questions[2].Anchors[1].Value = 6 }, "questions[2].anchors[1].value", CodeOutOfRange},
		{"anchor dup", func(s *Schema) { s.Questions[2].Anchors[1].Value = 1 }, "questions[2].anchors[1].value", CodeDuplicateKey},
		{"anchor label", func(s *Schema) { s.Questions[2].Anchors[0].Label = "" }, "questions[2].anchors[0].label", CodeRequired},
		{"one option", func(s *Schema) { s.Questions[4].Options = s.Questions[4].Options[:1] }, "questions[4].options", CodeTooFew},
		{"option dup", func(s *Schema) { s.Questions[4].Options[1].Key = "happy" }, "questions[4].options[1].key", CodeDuplicateKey},
		{"option label", func(s *Schema) { s.Questions[4].Options[0].Label = "" }, "questions[4].options[0].label", CodeRequired},
		{"multi max above options", func(s *Schema) { s.Questions[5].Max = ip(4) }, "questions[5].max", CodeOutOfRange},
		{"multi negative min", func(s *Schema) { s.Questions[5].Min = ip(-1) }, "questions[5].min", CodeOutOfRange},
		{"pairwise unknown candidates", func(s *Schema) { s.Questions[6].Candidates = "prompt" }, "questions[6].candidates", CodeUnknownInput},
		{"pairwise of three", func(s *Schema) { s.Questions[6].Candidates = "pool" }, "questions[6].candidates", CodeInvalidValue},
		{"ranking ambiguous", func(s *Schema) { s.Questions[8].Candidates = "" }, "questions[8].candidates", CodeUnknownInput},
		{"tie on ranking", func(s *Schema) { s.Questions[8].AllowTie = true }, "questions[8].allow_tie", CodeInvalidValue},
		{"checklist empty", func(s *Schema) { s.Questions[9].Items = nil }, "questions[9].items", CodeRequired},
		{"checklist max", func(s *Schema) { s.Questions[9].Items[0].Max = 0 }, "questions[9].items[0].max", CodeOutOfRange},
		{"checklist dup", func(s *Schema) { s.Questions[9].Items[1].Key = "x" }, "questions[9].items[1].key", CodeDuplicateKey},
		{"text lengths", func(s *Schema) { s.Questions[10].MaxLength = 2 }, "questions[10].max_length", CodeOutOfRange},
		{"text negative", func(s *Schema) { s.Questions[10].MinLength = -1 }, "questions[10].min_length", CodeOutOfRange},
		{"criteria max", func(s *Schema) { s.Questions[11].Max = ip(0) }, "questions[11].max", CodeOutOfRange},
		{"options on text", func(s *Schema) { s.Questions[10].Options = []Option{{Key: "a", Label: "A"}} }, "questions[10].options", CodeInvalidValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := kitchenSink()
			tt.mutate(&s)
			got := codes(t, s.Validate())
			if got[tt.path] != tt.code {
				t.Errorf("got %v, want %s → %s", got, tt.path, tt.code)
			}
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	s := kitchenSink()
	s.Version = 0
	s.Questions[0].Kind = "nope"
	s.Questions[2].Anchors[0].Value = 99
	s.Questions[4].Options[1].Key = "Bad Key"
	got := codes(t, s.Validate())
	for _, p := range []string{"version", "questions[0].kind", "questions[2].anchors[0].value", "questions[4].options[1].key"} {
		if _, ok := got[p]; !ok {
			t.Errorf("missing %s in %v", p, got)
		}
	}
}

func TestMeasurementLevel(t *testing.T) {
	want := map[Kind]Level{
		KindBinary: LevelNominal, KindChoice: LevelNominal, KindMultiChoice: LevelNominal, KindPairwise: LevelNominal,
		KindLikert: LevelOrdinal, KindRanking: LevelOrdinal, KindChecklist: LevelOrdinal,
		KindText: LevelNone, KindCriteria: LevelNone, KindListEdit: LevelNominal,
	}
	for _, k := range Kinds {
		if got := (Question{Kind: k}).MeasurementLevel(); got != want[k] {
			t.Errorf("%s: got %s, want %s", k, got, want[k])
		}
	}
	if got := (Question{Kind: KindLikert, Level: LevelInterval}).MeasurementLevel(); got != LevelInterval {
		t.Errorf("override: got %s", got)
	}
}

func TestParseYAMLAndJSON(t *testing.T) {
	const doc = `
version: 2
inputs:
  - {name: prompt, type: text}
questions:
  - key: ok
    kind: likert
    label: OK?
    min: 1
    max: 5
    anchors: [{value: 1, label: bad}, {value: 5, label: good}]
`
	s, err := ParseYAML(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Version != 2 || *s.Questions[0].Max != 5 || s.Questions[0].Anchors[1].Label != "good" {
		t.Errorf("parsed %+v", s)
	}
	if _, err := ParseJSON(strings.NewReader(`{"version":1,"inputs":[],"questions":[],"bogus":1}`)); err == nil {
		t.Error("unknown field accepted")
	}
	if _, err := ParseYAML(strings.NewReader("version: [")); err == nil {
		t.Error("bad YAML accepted")
	}
}
