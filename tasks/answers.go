package tasks

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Answers is one submission: question key → canonical answer value.
//
// Canonical values by kind: binary "yes" | "no" | "na"; likert an integer or
// "na"; choice an option key; multi_choice a list of option keys; pairwise
// "A" | "B" | "tie"; ranking a list of slots ("A", "B", ...) best first;
// checklist {item_key: int}; text a string; criteria a list of strings;
// list_edit a list of ListEdit. Any kind may hold "missing" (AnswerMissing),
// given by the system when the item lacks an input the question needs.
// Pairwise and ranking slots refer to candidates in canonical order once
// stored, and in shown order in what a browser sends (see Shuffle).
type Answers map[string]json.RawMessage

// Canonical answer constants.
const (
	AnswerYes = "yes"
	AnswerNo  = "no"
	AnswerNA  = "na"
	AnswerA   = "A"
	AnswerB   = "B"
	AnswerTie = "tie"
)

// maxSlots is the number of candidate slots, A to Z.
const maxSlots = 26

// SlotLabel returns the slot letter for position i (0 → "A").
func SlotLabel(i int) string { return string(rune('A' + i)) }

// slotIndex returns the position of a slot letter, or -1.
func slotIndex(s string) int {
	if len(s) != 1 || s[0] < 'A' || s[0] >= 'A'+maxSlots {
		return -1
	}
	return int(s[0] - 'A')
}

// ValidateAnswers checks a whole submission: every answered key is a
// question, every required question is answered, and every value has the
// right type and lies within the question's range, options, counts and
// lengths. Errors are keyed by question key. It returns nil when valid.
//
// AnswerMissing is refused here: only the system gives it, when the item
// lacks an input the question needs (see ValidateItemAnswers).
func (s *Schema) ValidateAnswers(answers Answers) error {
	return s.validateAnswers(answers, nil)
}

// validateAnswers validates answers; questions in missing are answered
// AnswerMissing by the system and skipped.
func (s *Schema) validateAnswers(answers Answers, missing map[string]bool) error {
	fe := FieldErrors{}
	for key := range answers {
		if !s.hasQuestion(key) {
			fe.add(key, CodeUnknownQuestion, "%q is not a question of this schema", key)
		}
	}
	for i := range s.Questions {
		q := &s.Questions[i] // note: a Question is large; the loop copies none
		raw, ok := answers[q.Key]
		if missing[q.Key] {
			continue
		}
		if ok && isMissing(raw) {
			fe.add(q.Key, CodeNotMissing, "%s: %q is given only by the system, when the item lacks an input the question needs", q.Label, AnswerMissing)
			continue
		}
		if !ok || isNull(raw) {
			if q.Required {
				fe.add(q.Key, CodeRequired, "%s: an answer is required", q.Label)
			}
			continue
		}
		if err := s.checkAnswer(*q, raw); err != nil {
			fe[q.Key] = *err
		}
	}
	return fe.Err()
}

// hasQuestion reports whether key is a question of s.
func (s *Schema) hasQuestion(key string) bool {
	for i := range s.Questions {
		if s.Questions[i].Key == key {
			return true
		}
	}
	return false
}

// isNull reports whether raw is empty or JSON null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// ferr builds a FieldError.
func ferr(code, msg string) *FieldError { return &FieldError{Code: code, Message: msg} }

// checkAnswer validates one present answer that is neither null nor
// missing, as the question's kind says.
func (s *Schema) checkAnswer(q Question, raw json.RawMessage) *FieldError {
	return KindOf(q).def.check(q, raw, s)
}

// decodeString reads a JSON string answer.
//
// note: a string of printable ASCII without escapes is its bytes between the quotes; anything
// else is left to json.Unmarshal (FuzzDecodeString holds the two to the same result).
func decodeString(raw json.RawMessage) (string, *FieldError) {
	if v, ok := plainASCII(raw); ok {
		return v, nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", ferr(CodeInvalidType, "expected a string")
	}
	return v, nil
}

// plainASCII is the value of a JSON string of printable ASCII without escapes, as it stands
// between its quotes; ok is false for any other raw value.
func plainASCII(raw []byte) (string, bool) {
	n := len(raw)
	if n < 2 || raw[0] != '"' || raw[n-1] != '"' {
		return "", false
	}
	for _, c := range raw[1 : n-1] {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return "", false
		}
	}
	return string(raw[1 : n-1]), true
}

// decodeStrings reads a JSON list of strings.
func decodeStrings(raw json.RawMessage) ([]string, *FieldError) {
	var v []string
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, ferr(CodeInvalidType, "expected a list of strings")
	}
	return v, nil
}

// hasOption reports whether key is one of q's options.
func hasOption(q Question, key string) bool {
	for _, o := range q.Options {
		if o.Key == key {
			return true
		}
	}
	return false
}

// checkCount applies min/max as count bounds.
func checkCount(q Question, n int, what string) *FieldError {
	lo, hi := countBounds(q)
	if n < lo {
		return ferr(CodeTooFew, "give at least "+strconv.Itoa(lo)+" "+what)
	}
	if hi >= 0 && n > hi {
		return ferr(CodeTooMany, "give at most "+strconv.Itoa(hi)+" "+what)
	}
	return nil
}

// checkLength applies min_length/max_length in characters after trimming.
func checkLength(q Question, v, what string) *FieldError {
	n := utf8.RuneCountInString(strings.TrimSpace(v))
	if n < q.MinLength {
		return ferr(CodeTooShort, what+" must be at least "+strconv.Itoa(q.MinLength)+" characters")
	}
	if q.MaxLength > 0 && n > q.MaxLength {
		return ferr(CodeTooLong, what+" must be at most "+strconv.Itoa(q.MaxLength)+" characters")
	}
	return nil
}
