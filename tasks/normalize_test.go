package tasks

import (
	"encoding/json"
	"testing"
)

func TestSatisfied(t *testing.T) {
	sat := Question{Kind: KindBinary}
	defect := Question{Kind: KindBinary, YesMeans: YesMeansDefect}
	naYes := Question{Kind: KindBinary, AllowNA: true, NAMeans: NASatisfied}
	naNo := Question{Kind: KindBinary, AllowNA: true, NAMeans: NANotSatisfied, YesMeans: YesMeansDefect}
	naMissing := Question{Kind: KindBinary, AllowNA: true}
	tests := []struct {
		name string
		q    Question
		ans  string
		want Satisfaction
	}{
		{"yes satisfied", sat, "yes", Satisfied},
		{"no satisfied", sat, "no", NotSatisfied},
		{"yes defect", defect, "yes", NotSatisfied},
		{"no defect", defect, "no", Satisfied},
		{"na as satisfied", naYes, "na", Satisfied},
		{"na as not satisfied ignores polarity", naNo, "na", NotSatisfied},
		{"na missing", naMissing, "na", Unknown},
		{"empty", sat, "", Unknown},
		{"garbage", sat, "Yes", Unknown},
		{"not binary", Question{Kind: KindLikert}, "yes", Unknown},
	}
	for _, tt := range tests {
		if got := tt.q.Satisfied(tt.ans); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSatisfactionVector(t *testing.T) {
	s := kitchenSink()
	a := answersOf(t, map[string]any{"bin": "na", "defect": "yes", "lik": 3})
	got, _ := json.Marshal(s.SatisfactionVector(a))
	if string(got) != "[true,false]" {
		t.Errorf("got %s", got)
	}
	got, _ = json.Marshal(s.SatisfactionVector(answersOf(t, map[string]any{"bin": 5})))
	if string(got) != "[null,null]" {
		t.Errorf("got %s", got)
	}
}
