package tasks

import (
	"encoding/json"
	"strconv"
	"strings"
)

// ExampleAnswers returns a valid submission that answers every question:
// "yes", the top of each scale, the first options, slots in order, full
// checklist scores, and placeholder text of an allowed length. It is meant
// for documentation, tests and smoke checks, never as a default answer.
func (s *Schema) ExampleAnswers() Answers {
	out := Answers{}
	for _, q := range s.Questions {
		v := s.exampleValue(q)
		b, err := json.Marshal(v)
		if err == nil {
			out[q.Key] = b
		}
	}
	return out
}

func (s *Schema) exampleValue(q Question) any {
	switch q.Kind {
	case KindBinary:
		return AnswerYes
	case KindLikert:
		if q.Max != nil {
			return *q.Max
		}
	case KindChoice:
		if len(q.Options) > 0 {
			return q.Options[0].Key
		}
	case KindMultiChoice:
		return exampleOptions(q)
	case KindPairwise:
		return AnswerA
	case KindRanking:
		n := max(s.rankingSize(q), 2)
		slots := make([]string, n)
		for i := range slots {
			slots[i] = SlotLabel(i)
		}
		return slots
	case KindChecklist:
		m := map[string]int{}
		for _, it := range q.Items {
			m[it.Key] = it.Max
		}
		return m
	case KindText:
		return exampleText(q, "Example answer")
	case KindListEdit:
		lo, _ := countBounds(q)
		var es []ListEdit
		for i := range max(lo, 1) {
			es = append(es, ListEdit{Op: EditAdd, Text: exampleText(q, "Example entry "+strconv.Itoa(i+1))})
		}
		return es
	case KindCriteria:
		lo, _ := countBounds(q)
		var cs []string
		for i := range max(lo, 1) {
			cs = append(cs, exampleText(q, "Example criterion "+strconv.Itoa(i+1)))
		}
		return cs
	}
	return nil
}

func exampleOptions(q Question) []string {
	lo, _ := countBounds(q)
	var keys []string
	for i := 0; i < max(lo, 1) && i < len(q.Options); i++ {
		keys = append(keys, q.Options[i].Key)
	}
	return keys
}

// exampleText pads or cuts base to fit the question's length bounds.
func exampleText(q Question, base string) string {
	if n := len([]rune(base)); n < q.MinLength {
		base += strings.Repeat(".", q.MinLength-n)
	}
	if q.MaxLength > 0 && len([]rune(base)) > q.MaxLength {
		base = string([]rune(base)[:q.MaxLength])
	}
	return base
}
