package tasks

import (
	"encoding/json"
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

// exampleValue is a valid answer value of q, as its kind makes one.
func (s *Schema) exampleValue(q Question) any { return KindOf(q).def.example(q, s) }

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
