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
		if _, ok := s.Question(key); !ok {
			fe.add(key, CodeUnknownQuestion, "%q is not a question of this schema", key)
		}
	}
	for _, q := range s.Questions {
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
		if err := s.checkAnswer(q, raw); err != nil {
			fe[q.Key] = *err
		}
	}
	return fe.Err()
}

// isNull reports whether raw is empty or JSON null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// ferr builds a FieldError.
func ferr(code, msg string) *FieldError { return &FieldError{Code: code, Message: msg} }

// checkAnswer validates one present, non-null answer.
func (s *Schema) checkAnswer(q Question, raw json.RawMessage) *FieldError {
	switch q.Kind {
	case KindBinary:
		return checkBinary(q, raw)
	case KindLikert:
		return checkLikert(q, raw)
	case KindChoice:
		return checkChoice(q, raw)
	case KindMultiChoice:
		return checkMultiChoice(q, raw)
	case KindPairwise:
		return checkPairwise(q, raw)
	case KindRanking:
		return checkRanking(q, raw, s.rankingSize(q))
	case KindChecklist:
		return checkChecklist(q, raw)
	case KindText:
		return checkText(q, raw)
	case KindCriteria:
		return checkCriteria(q, raw)
	case KindListEdit:
		return checkListEdit(q, raw)
	}
	return ferr(CodeInvalidKind, "question has an unknown kind")
}

// decodeString reads a JSON string answer.
func decodeString(raw json.RawMessage) (string, *FieldError) {
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", ferr(CodeInvalidType, "expected a string")
	}
	return v, nil
}

// decodeStrings reads a JSON list of strings.
func decodeStrings(raw json.RawMessage) ([]string, *FieldError) {
	var v []string
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, ferr(CodeInvalidType, "expected a list of strings")
	}
	return v, nil
}

func checkBinary(q Question, raw json.RawMessage) *FieldError {
	v, e := decodeString(raw)
	if e != nil {
		return ferr(CodeInvalidType, `expected "yes", "no" or "na"`)
	}
	switch v {
	case AnswerYes, AnswerNo:
		return nil
	case AnswerNA:
		if !q.AllowNA {
			return ferr(CodeNANotAllowed, "N/A is not allowed for this question")
		}
		return nil
	}
	return ferr(CodeInvalidValue, `expected "yes", "no" or "na"`)
}

func checkLikert(q Question, raw json.RawMessage) *FieldError {
	if s, e := decodeString(raw); e == nil {
		if s == AnswerNA {
			if !q.AllowNA {
				return ferr(CodeNANotAllowed, "N/A is not allowed for this question")
			}
			return nil
		}
		return ferr(CodeInvalidType, `expected an integer or "na"`)
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	if err != nil {
		return ferr(CodeInvalidType, `expected an integer or "na"`)
	}
	if q.Min == nil || q.Max == nil || n < int64(*q.Min) || n > int64(*q.Max) {
		return ferr(CodeOutOfRange, "value "+strconv.FormatInt(n, 10)+" is outside "+rangeText(q))
	}
	return nil
}

// rangeText renders a likert range for messages.
func rangeText(q Question) string {
	if q.Min == nil || q.Max == nil {
		return "the scale"
	}
	return strconv.Itoa(*q.Min) + ".." + strconv.Itoa(*q.Max)
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

func checkChoice(q Question, raw json.RawMessage) *FieldError {
	v, e := decodeString(raw)
	if e != nil {
		return ferr(CodeInvalidType, "expected an option key")
	}
	if !hasOption(q, v) {
		return ferr(CodeUnknownOption, strconv.Quote(v)+" is not an option")
	}
	return nil
}

func checkMultiChoice(q Question, raw json.RawMessage) *FieldError {
	vs, e := decodeStrings(raw)
	if e != nil {
		return ferr(CodeInvalidType, "expected a list of option keys")
	}
	seen := map[string]bool{}
	for _, v := range vs {
		if !hasOption(q, v) {
			return ferr(CodeUnknownOption, strconv.Quote(v)+" is not an option")
		}
		if seen[v] {
			return ferr(CodeDuplicateKey, strconv.Quote(v)+" is chosen twice")
		}
		seen[v] = true
	}
	if len(vs) == 0 && q.Required {
		return ferr(CodeRequired, "choose at least one option")
	}
	return checkCount(q, len(vs), "options")
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

func checkPairwise(q Question, raw json.RawMessage) *FieldError {
	v, e := decodeString(raw)
	if e != nil {
		return ferr(CodeInvalidType, `expected "A", "B" or "tie"`)
	}
	switch v {
	case AnswerA, AnswerB:
		return nil
	case AnswerTie:
		if !q.AllowTie {
			return ferr(CodeTieNotAllowed, "a tie is not allowed for this question")
		}
		return nil
	}
	return ferr(CodeInvalidValue, `expected "A", "B" or "tie"`)
}

// rankingSize returns the fixed candidate count for a ranking, or 0.
func (s *Schema) rankingSize(q Question) int {
	in, ok := s.candidatesInput(q)
	if !ok {
		return 0
	}
	return in.Count
}

func checkRanking(_ Question, raw json.RawMessage, size int) *FieldError {
	vs, e := decodeStrings(raw)
	if e != nil {
		return ferr(CodeInvalidType, `expected a list of slots such as ["B", "A"]`)
	}
	n := size
	if n == 0 {
		n = len(vs)
	}
	if len(vs) < n || len(vs) < 2 {
		return ferr(CodeTooFew, "rank all "+strconv.Itoa(max(n, 2))+" candidates")
	}
	if len(vs) > n || n > maxSlots {
		return ferr(CodeTooMany, "rank exactly "+strconv.Itoa(n)+" candidates")
	}
	seen := make([]bool, n)
	for _, v := range vs {
		i := slotIndex(v)
		if i < 0 || i >= n {
			return ferr(CodeUnknownOption, strconv.Quote(v)+" is not a candidate slot")
		}
		if seen[i] {
			return ferr(CodeDuplicateKey, "slot "+v+" is ranked twice")
		}
		seen[i] = true
	}
	return nil
}

func checkChecklist(q Question, raw json.RawMessage) *FieldError {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return ferr(CodeInvalidType, "expected an object of item scores")
	}
	for k := range m {
		if !hasItem(q, k) {
			return ferr(CodeUnknownItem, strconv.Quote(k)+" is not an item of this checklist")
		}
	}
	for _, it := range q.Items {
		v, ok := m[it.Key]
		if !ok || isNull(v) {
			return ferr(CodeRequired, it.Label+": a score is required")
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
		if err != nil {
			return ferr(CodeInvalidType, it.Label+": expected an integer")
		}
		if n < 0 || n > int64(it.Max) {
			return ferr(CodeOutOfRange, it.Label+": score must be 0.."+strconv.Itoa(it.Max))
		}
	}
	return nil
}

// hasItem reports whether key is one of q's checklist items.
func hasItem(q Question, key string) bool {
	for _, it := range q.Items {
		if it.Key == key {
			return true
		}
	}
	return false
}

func checkText(q Question, raw json.RawMessage) *FieldError {
	v, e := decodeString(raw)
	if e != nil {
		return e
	}
	if strings.TrimSpace(v) == "" && q.Required {
		return ferr(CodeRequired, q.Label+": an answer is required")
	}
	return checkLength(q, v, "text")
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

func checkCriteria(q Question, raw json.RawMessage) *FieldError {
	vs, e := decodeStrings(raw)
	if e != nil {
		return e
	}
	if len(vs) == 0 && q.Required {
		return ferr(CodeRequired, "write at least one criterion")
	}
	if err := checkCount(q, len(vs), "criteria"); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, v := range vs {
		what := "criterion " + strconv.Itoa(i+1)
		norm := strings.ToLower(strings.TrimSpace(v))
		if norm == "" {
			return ferr(CodeTooShort, what+" is empty")
		}
		if err := checkLength(q, v, what); err != nil {
			return err
		}
		if seen[norm] {
			return ferr(CodeDuplicateKey, what+" repeats an earlier criterion")
		}
		seen[norm] = true
	}
	return nil
}
