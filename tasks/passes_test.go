package tasks

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// twoPasses is a RoboJudge-like schema: a video-only pass, then one with the
// instruction.
func twoPasses() Schema {
	return Schema{
		Version: 1,
		Groups:  []Group{{Key: "pa", Label: "PA"}, {Key: "ia", Label: "IA"}},
		Inputs: []Input{
			{Name: "video", Type: InputVideo},
			{Name: "instruction", Type: InputText},
			{Name: "pair", Type: InputCandidates, Count: 2},
			{Name: "generator", Type: InputText, Hidden: true},
		},
		Questions: []Question{
			{Key: "pa", Kind: KindLikert, Label: "PA", Group: "pa", Required: true, Min: ip(1), Max: ip(5), Inputs: []string{"video"}},
			{Key: "pa_note", Kind: KindText, Label: "PA note", Group: "pa"},
			{Key: "ia", Kind: KindLikert, Label: "IA", Group: "ia", Required: true, Min: ip(1), Max: ip(5), Inputs: []string{"instruction", "video"}},
			{Key: "better", Kind: KindPairwise, Label: "Better", Group: "ia", Candidates: "pair"},
		},
		Passes: []Pass{
			{Key: "pa", Label: "Physical adherence", Inputs: []string{"video"}, Questions: []string{"pa", "pa_note"}},
			{Key: "ia", Label: "Instruction alignment", Inputs: []string{"instruction", "video", "pair"}, Questions: []string{"ia", "better"}},
		},
	}
}

func TestValidatePasses(t *testing.T) {
	if err := func() *Schema { s := twoPasses(); return &s }().Validate(); err != nil {
		t.Fatalf("valid schema refused: %v", err)
	}
	tests := []struct {
		name   string
		mutate func(s *Schema)
		path   string
		code   string
	}{
		{"unknown question", func(s *Schema) { s.Passes[0].Questions = append(s.Passes[0].Questions, "nope") }, "passes[0].questions[2]", CodeUnknownQuestion},
		{"question in two passes", func(s *Schema) { s.Passes[1].Questions = append(s.Passes[1].Questions, "pa") }, "passes[1].questions[2]", CodeDuplicateKey},
		{"question in no pass", func(s *Schema) { s.Passes[0].Questions = s.Passes[0].Questions[:1] }, "questions[1]", CodeNotInPass},
		{"unknown input", func(s *Schema) { s.Passes[0].Inputs = []string{"video", "audio"} }, "passes[0].inputs[1]", CodeUnknownInput},
		{"input twice", func(s *Schema) { s.Passes[0].Inputs = []string{"video", "video"} }, "passes[0].inputs[1]", CodeDuplicateKey},
		{"no inputs", func(s *Schema) { s.Passes[0].Inputs = nil }, "passes[0].inputs", CodeRequired},
		{"no questions", func(s *Schema) { s.Passes = append(s.Passes, Pass{Key: "x", Label: "X", Inputs: []string{"video"}}) }, "passes[2].questions", CodeRequired},
		{"compared candidates not shown", func(s *Schema) { s.Passes[1].Inputs = []string{"instruction", "video"} }, "passes[1].questions[1]", CodeInputMissing},
		{"needed input not shown", func(s *Schema) {
			s.Questions[0].Needs = []string{"video"}
			s.Passes[0].Inputs = []string{"instruction"}
		}, "passes[0].questions[0]", CodeInputMissing},
		{"question sees nothing of the pass", func(s *Schema) { s.Passes[0].Inputs = []string{"instruction"} }, "passes[0].questions[0]", CodeInputMissing},
		{"pass key twice", func(s *Schema) { s.Passes[1].Key = "pa" }, "passes[1].key", CodeDuplicateKey},
		{"pass label", func(s *Schema) { s.Passes[0].Label = "" }, "passes[0].label", CodeRequired},
		{"unknown mode", func(s *Schema) { s.PassMode = "round_robin" }, "pass_mode", CodeInvalidValue},
		{"mode without passes", func(s *Schema) { s.Passes = nil; s.PassMode = PassSamePerson }, "pass_mode", CodeInvalidValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := twoPasses()
			tt.mutate(&s)
			got := codes(t, s.Validate())
			if got[tt.path] != tt.code {
				t.Errorf("want %s at %s, got %v", tt.code, tt.path, got)
			}
		})
	}
}

// TestPassFormShowsOnlyItsInputs proves a pass's view carries neither the
// values nor the declarations of the other passes' inputs and questions.
func TestPassFormShowsOnlyItsInputs(t *testing.T) {
	s := twoPasses()
	item := Item{Inputs: map[string]json.RawMessage{
		"video":       json.RawMessage(`"media/v.mp4"`),
		"instruction": json.RawMessage(`"Pick up the SECRET-CUBE"`),
		"generator":   json.RawMessage(`"gen-7"`),
		"pair":        json.RawMessage(`[{"id":"m1","type":"text","value":"a"},{"id":"m2","type":"text","value":"b"}]`),
	}}
	form, err := s.PassForm(0)
	if err != nil {
		t.Fatal(err)
	}
	v, err := form.ViewFor(RoleAnnotator, item, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	for _, leak := range []string{"SECRET-CUBE", "instruction", "\"ia\"", "pair", "gen-7", "passes"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("pass 1 view contains %s: %s", leak, b)
		}
	}
	if len(v.Schema.Questions) != 2 || len(v.Schema.Groups) != 1 {
		t.Errorf("pass 1 form: %+v", v.Schema)
	}
	form2, _ := s.PassForm(1)
	v2, _ := form2.ViewFor(RoleAnnotator, item, 3)
	if string(v2.Item.Inputs["instruction"]) != `"Pick up the SECRET-CUBE"` || v2.Shuffle["pair"].Perm == nil {
		t.Errorf("pass 2 view lacks its inputs: %+v", v2.Item.Inputs)
	}
	full, _ := s.ViewFor(RoleAnnotator, item, 3)
	if !equalPerm(full.Shuffle["pair"].Perm, v2.Shuffle["pair"].Perm) {
		t.Errorf("a pass shows candidates in another order than the whole form: %v vs %v", full.Shuffle, v2.Shuffle)
	}
	if _, err := s.PassForm(2); err == nil {
		t.Error("pass 3 of 2 accepted")
	}
	if s.PassOf("ia") != 1 || s.PassOf("nope") != -1 {
		t.Error("PassOf")
	}
}

// TestPassFormInputsInPassOrder: a pass shows its inputs in the order it lists them, so that
// RoboJudge's second pass opens on the instruction it adds, above the video.
func TestPassFormInputsInPassOrder(t *testing.T) {
	tpl, _ := LookupTemplate("robojudge")
	form, err := tpl.Schema.PassForm(1)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range form.Inputs {
		names = append(names, in.Name)
	}
	if want := []string{"instruction", "first_frame", "video"}; !slices.Equal(names, want) {
		t.Errorf("pass 2 inputs %v, want %v", names, want)
	}
}

func equalPerm(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPassFormValidatesOnlyItsQuestions: a pass's answers are complete
// without the other pass's, and an answer of another pass is refused.
func TestPassFormValidatesOnlyItsQuestions(t *testing.T) {
	s := twoPasses()
	form, _ := s.PassForm(0)
	if err := form.ValidateAnswers(answersOf(t, map[string]any{"pa": 4})); err != nil {
		t.Errorf("pass 1 answers refused: %v", err)
	}
	got := codes(t, form.ValidateAnswers(answersOf(t, map[string]any{"pa": 4, "ia": 2})))
	if got["ia"] != CodeUnknownQuestion {
		t.Errorf("an answer of pass 2 in pass 1: %v", got)
	}
}

// TestRubricVariants: the per-rubric Judge-Anything variants ask every
// question of the base template, one rubric (score and comment) per pass,
// the overall judgment last.
func TestRubricVariants(t *testing.T) {
	for base, id := range rubricVariants {
		b, _ := LookupTemplate(base)
		v, ok := LookupTemplate(id)
		if !ok {
			t.Fatalf("no template %s", id)
		}
		if err := v.Schema.Validate(); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if len(v.Schema.Questions) != len(b.Schema.Questions) || b.Schema.HasPasses() {
			t.Errorf("%s asks other questions than %s", id, base)
		}
		ps := v.Schema.Passes
		if len(ps) != 7 || ps[0].Key != "relevance" || ps[len(ps)-1].Key != "overall" {
			t.Errorf("%s passes: %+v", id, ps)
		}
		if !slices.Equal(ps[0].Questions, []string{"relevance", "relevance_comment"}) {
			t.Errorf("%s first pass: %v", id, ps[0].Questions)
		}
	}
}
