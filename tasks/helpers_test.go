package tasks

import (
	"encoding/json"
	"errors"
	"testing"
)

func ip(n int) *int { return &n }

// kitchenSink is a schema with one question of every kind.
func kitchenSink() Schema {
	return Schema{
		Version: 1,
		Groups:  []Group{{Key: "prompt", Label: "Prompt-related"}, {Key: "modality", Label: "Modality-related"}},
		Inputs: []Input{
			{Name: "prompt", Type: InputText},
			{Name: "generator", Type: InputText, Hidden: true},
			{Name: "pair", Type: InputCandidates, Count: 2},
			{Name: "pool", Type: InputCandidates, Count: 3, Optional: true},
		},
		Questions: []Question{
			{Key: "bin", Kind: KindBinary, Label: "Binary", Group: "prompt", Required: true, AllowNA: true, NAMeans: NASatisfied},
			{Key: "defect", Kind: KindBinary, Label: "Defect", Group: "modality", YesMeans: YesMeansDefect},
			{Key: "lik", Kind: KindLikert, Label: "Likert", Required: true, Min: ip(1), Max: ip(5), Anchors: []Anchor{{1, "bad"}, {5, "good"}}},
			{Key: "lik_na", Kind: KindLikert, Label: "Likert NA", Min: ip(1), Max: ip(10), AllowNA: true},
			{Key: "ch", Kind: KindChoice, Label: "Choice", Options: []Option{{Key: "happy", Label: "Happy"}, {Key: "sad", Label: "Sad"}}},
			{Key: "mc", Kind: KindMultiChoice, Label: "Multi", Min: ip(1), Max: ip(2), Options: []Option{{Key: "a", Label: "A"}, {Key: "b", Label: "B"}, {Key: "c", Label: "C"}}},
			{Key: "pw", Kind: KindPairwise, Label: "Pair", Candidates: "pair"},
			{Key: "pw_tie", Kind: KindPairwise, Label: "Pair tie", Candidates: "pair", AllowTie: true},
			{Key: "rank", Kind: KindRanking, Label: "Rank", Candidates: "pool"},
			{Key: "cl", Kind: KindChecklist, Label: "Checklist", Items: []ChecklistItem{{Key: "x", Label: "X", Max: 2}, {Key: "y", Label: "Y", Max: 2}}},
			{Key: "txt", Kind: KindText, Label: "Text", MinLength: 3, MaxLength: 10},
			{Key: "crit", Kind: KindCriteria, Label: "Criteria", Min: ip(1), Max: ip(3), MinLength: 2, MaxLength: 20},
		},
	}
}

// codes returns the FieldErrors of err as key → code.
func codes(t *testing.T, err error) map[string]string {
	t.Helper()
	out := map[string]string{}
	if err == nil {
		return out
	}
	var fe FieldErrors
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is not FieldErrors", err)
	}
	for k, v := range fe {
		if v.Message == "" {
			t.Errorf("%s: empty message", k)
		}
		out[k] = v.Code
	}
	return out
}

// answersOf builds Answers from Go values.
func answersOf(t *testing.T, m map[string]any) Answers {
	t.Helper()
	a := Answers{}
	for k, v := range m {
		if s, ok := v.(rawJSON); ok {
			a[k] = json.RawMessage(s)
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		a[k] = b
	}
	return a
}

// rawJSON is an answer given as literal JSON text.
type rawJSON string
