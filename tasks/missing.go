package tasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// AnswerMissing is the answer the system gives a question when the item
// lacks an optional input the question needs (Question.Needs): the output
// to judge does not exist, so nobody is asked. It is not an abstention (N/A
// or a skip); consensus and agreement leave it out and exports state it.
const AnswerMissing = "missing"

// missingJSON is AnswerMissing as a stored answer.
var missingJSON = json.RawMessage(`"missing"`)

// isMissing reports whether raw is the AnswerMissing string.
func isMissing(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), missingJSON)
}

// IsMissing reports whether a stored answer is AnswerMissing.
func IsMissing(raw json.RawMessage) bool { return isMissing(raw) }

// MissingQuestions returns, in schema order, the keys of the questions the
// item cannot have answered: those that need an optional input the item
// lacks.
func (s *Schema) MissingQuestions(item Item) []string {
	var out []string
	for _, q := range s.Questions {
		for _, name := range q.Needs {
			if raw, ok := item.Inputs[name]; !ok || isNull(raw) {
				out = append(out, q.Key)
				break
			}
		}
	}
	return out
}

// ValidateItemAnswers validates a submission for one item and returns it
// completed: the questions the item cannot have answered (MissingQuestions)
// are set to AnswerMissing (a person's answer to one is refused with
// input_missing), kept list_edit entries get their original text, and every
// other answer is checked as by ValidateAnswers, with list_edit answers also
// checked against the item's list. The input map is not changed.
func (s *Schema) ValidateItemAnswers(item Item, answers Answers) (Answers, error) {
	out := maps.Clone(answers)
	if out == nil {
		out = Answers{}
	}
	fe := FieldErrors{}
	missing := map[string]bool{}
	for _, key := range s.MissingQuestions(item) {
		missing[key] = true
		if raw, ok := out[key]; ok && !isNull(raw) && !isMissing(raw) {
			q, _ := s.Question(key)
			fe.add(key, CodeInputMissing, "%s: the item has no %s, so this question is answered %q by the system", q.Label, neededAbsent(q, item), AnswerMissing)
		}
		out[key] = missingJSON
	}
	if err := s.validateAnswers(out, missing); err != nil {
		if ve, ok := err.(FieldErrors); ok {
			maps.Copy(fe, ve)
		} else {
			return nil, err
		}
	}
	for i := range s.Questions {
		q := &s.Questions[i] // note: a Question is large; the loop copies only the ones it completes
		ib, bound := kindTable[q.Kind].(itemBound)
		if !bound {
			continue
		}
		raw, ok := out[q.Key]
		if missing[q.Key] || !ok || isNull(raw) || fe[q.Key] != (FieldError{}) {
			continue
		}
		done, e := ib.complete(*q, item, raw)
		if e != nil {
			fe[q.Key] = *e
			continue
		}
		out[q.Key] = done
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// neededAbsent names the first input q needs that item lacks.
func neededAbsent(q Question, item Item) string {
	for _, name := range q.Needs {
		if raw, ok := item.Inputs[name]; !ok || isNull(raw) {
			return fmt.Sprintf("%q", name)
		}
	}
	return "input"
}

// validateNeeds checks a question's needs: declared inputs the question may
// see, each listed once.
func (s *Schema) validateNeeds(fe FieldErrors, p string, q Question) {
	seen := map[string]bool{}
	for j, name := range q.Needs {
		np := fmt.Sprintf("%s.needs[%d]", p, j)
		switch {
		case seen[name]:
			fe.add(np, CodeDuplicateKey, "input %q is listed twice", name)
		case !s.hasInput(name):
			fe.add(np, CodeUnknownInput, "input %q is not declared in inputs", name)
		case !s.sees(q, name):
			fe.add(np, CodeUnknownInput, "the question needs input %q but may not see it (add it to inputs)", name)
		}
		seen[name] = true
	}
}

func (s *Schema) hasInput(name string) bool {
	_, ok := s.Input(name)
	return ok
}

// ReadsItem reports whether validating answers needs the item: some question needs an input
// or edits a list given with the item. Without such questions ValidateItemAnswers ignores the
// item, so callers may skip loading it.
func (s *Schema) ReadsItem() bool {
	for _, q := range s.Questions {
		if _, bound := KindOf(q).def.(itemBound); bound || len(q.Needs) > 0 {
			return true
		}
	}
	return false
}

// ValidateGivenItemAnswers is ValidateItemAnswers for answers that decide
// only some questions (a rule's: RoboJudge's real demonstrations are PA = IA
// = 5 with no checklist or evidence): a question left out is no error, even
// a required one; every answer given is checked and the answers completed
// as ValidateItemAnswers does.
func (s *Schema) ValidateGivenItemAnswers(item Item, answers Answers) (Answers, error) {
	given := *s
	given.Questions = slices.Clone(s.Questions)
	for i := range given.Questions {
		given.Questions[i].Required = false
	}
	return given.ValidateItemAnswers(item, answers)
}
