package tasks

import (
	"testing"
)

// validBase answers every required question of kitchenSink.
func validBase() map[string]any { return map[string]any{"bin": "yes", "lik": 3} }

func TestValidateAnswersEveryKind(t *testing.T) {
	s := kitchenSink()
	if err := s.Validate(); err != nil {
		t.Fatalf("kitchen sink schema invalid: %v", err)
	}
	tests := []struct {
		name string
		key  string
		val  any
		code string // "" means valid
	}{
		{"binary yes", "bin", "yes", ""},
		{"binary no", "bin", "no", ""},
		{"binary na allowed", "bin", "na", ""},
		{"binary na not allowed", "defect", "na", CodeNANotAllowed},
		{"binary bad value", "bin", "maybe", CodeInvalidValue},
		{"binary wrong case", "bin", "Yes", CodeInvalidValue},
		{"binary bool", "bin", true, CodeInvalidType},
		{"likert in range", "lik", 5, ""},
		{"likert low", "lik", 0, CodeOutOfRange},
		{"likert high", "lik", 6, CodeOutOfRange},
		{"likert float", "lik", rawJSON("3.5"), CodeInvalidType},
		{"likert string number", "lik", "3", CodeInvalidType},
		{"likert na not allowed", "lik", "na", CodeNANotAllowed},
		{"likert na allowed", "lik_na", "na", ""},
		{"likert 10", "lik_na", 10, ""},
		{"choice ok", "ch", "happy", ""},
		{"choice unknown", "ch", "angry", CodeUnknownOption},
		{"choice list", "ch", []string{"happy"}, CodeInvalidType},
		{"multi ok", "mc", []string{"a", "c"}, ""},
		{"multi unknown", "mc", []string{"z"}, CodeUnknownOption},
		{"multi duplicate", "mc", []string{"a", "a"}, CodeDuplicateKey},
		{"multi too many", "mc", []string{"a", "b", "c"}, CodeTooMany},
		{"multi too few", "mc", []string{}, CodeTooFew},
		{"multi string", "mc", "a", CodeInvalidType},
		{"pairwise A", "pw", "A", ""},
		{"pairwise B", "pw", "B", ""},
		{"pairwise tie not allowed", "pw", "tie", CodeTieNotAllowed},
		{"pairwise tie allowed", "pw_tie", "tie", ""},
		{"pairwise C", "pw", "C", CodeInvalidValue},
		{"pairwise lower", "pw", "a", CodeInvalidValue},
		{"ranking ok", "rank", []string{"C", "A", "B"}, ""},
		{"ranking short", "rank", []string{"A", "B"}, CodeTooFew},
		{"ranking long", "rank", []string{"A", "B", "C", "D"}, CodeTooMany},
		{"ranking dup", "rank", []string{"A", "A", "B"}, CodeDuplicateKey},
		{"ranking unknown slot", "rank", []string{"A", "B", "D"}, CodeUnknownOption},
		{"checklist ok", "cl", map[string]int{"x": 0, "y": 2}, ""},
		{"checklist missing item", "cl", map[string]int{"x": 1}, CodeRequired},
		{"checklist unknown item", "cl", map[string]int{"x": 1, "y": 1, "z": 1}, CodeUnknownItem},
		{"checklist out of range", "cl", map[string]int{"x": 3, "y": 0}, CodeOutOfRange},
		{"checklist negative", "cl", map[string]int{"x": -1, "y": 0}, CodeOutOfRange},
		{"checklist non-int", "cl", map[string]any{"x": "1", "y": 0}, CodeInvalidType},
		{"checklist list", "cl", []int{1, 2}, CodeInvalidType},
		{"text ok", "txt", "fine", ""},
		{"text short", "txt", "ab", CodeTooShort},
		{"text trimmed short", "txt", "  ab  ", CodeTooShort},
		{"text long", "txt", "abcdefghijk", CodeTooLong},
		{"text unicode counts runes", "txt", "ééééééééé", ""},
		{"text number", "txt", 12, CodeInvalidType},
		{"criteria ok", "crit", []string{"audio is clear", "no artifacts"}, ""},
		{"criteria too many", "crit", []string{"aa", "bb", "cc", "dd"}, CodeTooMany},
		{"criteria too few", "crit", []string{}, CodeTooFew},
		{"criteria empty", "crit", []string{"  "}, CodeTooShort},
		{"criteria short", "crit", []string{"a"}, CodeTooShort},
		{"criteria long", "crit", []string{"this criterion is far too long"}, CodeTooLong},
		{"criteria duplicate", "crit", []string{"Clear audio", "clear audio "}, CodeDuplicateKey},
		{"null is unanswered", "txt", rawJSON("null"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := validBase()
			m[tt.key] = tt.val
			got := codes(t, s.ValidateAnswers(answersOf(t, m)))
			if got[tt.key] != tt.code || (tt.code == "" && len(got) > 0) {
				t.Errorf("got %v, want %s → %q", got, tt.key, tt.code)
			}
		})
	}
}

func TestValidateAnswersRequiredAndUnknown(t *testing.T) {
	s := kitchenSink()
	got := codes(t, s.ValidateAnswers(answersOf(t, map[string]any{"nope": 1, "lik": rawJSON("null")})))
	want := map[string]string{"nope": CodeUnknownQuestion, "bin": CodeRequired, "lik": CodeRequired}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, c := range want {
		if got[k] != c {
			t.Errorf("%s: got %q, want %q", k, got[k], c)
		}
	}
	if err := s.ValidateAnswers(answersOf(t, validBase())); err != nil {
		t.Errorf("minimal answers: %v", err)
	}
}

func TestValidateAnswersRequiredEmptyValues(t *testing.T) {
	s := Schema{Version: 1, Questions: []Question{
		{Key: "t", Kind: KindText, Label: "T", Required: true},
		{Key: "m", Kind: KindMultiChoice, Label: "M", Required: true, Options: []Option{{Key: "a", Label: "A"}, {Key: "b", Label: "B"}}},
		{Key: "c", Kind: KindCriteria, Label: "C", Required: true},
	}}
	got := codes(t, s.ValidateAnswers(answersOf(t, map[string]any{"t": " ", "m": []string{}, "c": []string{}})))
	for _, k := range []string{"t", "m", "c"} {
		if got[k] != CodeRequired {
			t.Errorf("%s: got %q, want required", k, got[k])
		}
	}
}

func TestFieldErrorsErr(t *testing.T) {
	if (FieldErrors{}).Err() != nil {
		t.Error("empty FieldErrors.Err() should be nil")
	}
	fe := FieldErrors{"b": {Code: "x", Message: "m2"}, "a": {Code: "y", Message: "m1"}}
	if fe.Err() == nil || fe.Error() != "a: m1 (y); b: m2 (x)" {
		t.Errorf("Error() = %q", fe.Error())
	}
}

// TestValidateGivenItemAnswers: answers that decide only some questions leave the others out,
// required ones too; what is given is checked as ever, and the schema keeps its required
// questions.
func TestValidateGivenItemAnswers(t *testing.T) {
	s := kitchenSink()
	got, err := s.ValidateGivenItemAnswers(Item{}, answersOf(t, map[string]any{"lik": 5}))
	if err != nil || len(got) != 1 || string(got["lik"]) != "5" {
		t.Fatalf("a rule's one answer: %v %v", got, err)
	}
	bad := codes(t, func() error {
		_, err := s.ValidateGivenItemAnswers(Item{}, answersOf(t, map[string]any{"lik": 6, "nope": 1}))
		return err
	}())
	if len(bad) != 2 || bad["lik"] != CodeOutOfRange || bad["nope"] != CodeUnknownQuestion {
		t.Fatalf("bad answers: %v", bad)
	}
	if q, _ := s.Question("bin"); !q.Required {
		t.Fatal("the schema lost its required question")
	}
	if _, err := s.ValidateItemAnswers(Item{}, answersOf(t, map[string]any{"lik": 5})); codes(t, err)["bin"] != CodeRequired {
		t.Fatalf("a full validation of the same answers: %v", err)
	}
}
