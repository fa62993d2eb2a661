package tasks

import (
	"encoding/json"
	"errors"
)

// pairwiseKind prefers one of the two candidates of a candidates input: "A",
// "B" or, when allowed, "tie".
type pairwiseKind struct{}

func (pairwiseKind) fields() []string { return []string{"allow_tie", "candidates"} }

func (pairwiseKind) validate(fe FieldErrors, p string, q Question, s *Schema) {
	in, ok := comparedInput(fe, p, q, s)
	if ok && in.Count != 2 {
		fe.add(p+".candidates", CodeInvalidValue, "pairwise questions compare exactly 2 candidates; set count: 2 on input %q", in.Name)
	}
}

func (pairwiseKind) check(q Question, raw json.RawMessage, _ *Schema) *FieldError {
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

func (pairwiseKind) example(Question, *Schema) any { return AnswerA }

func (pairwiseKind) remap(raw json.RawMessage, mapSlot func(string) (string, error)) (json.RawMessage, error) {
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, errors.New(`expected "A", "B" or "tie"`)
	}
	if v == AnswerTie {
		return raw, nil
	}
	m, err := mapSlot(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

func (pairwiseKind) decode(raw json.RawMessage) (any, error) { return readString(raw) }

func (pairwiseKind) normalize(q Question, v any) any { return keep(q, v) }

func (pairwiseKind) level() Level { return LevelNominal }

func (pairwiseKind) consensus() ConsensusRule { return ConsensusEqual }

func (pairwiseKind) key(q Question, raw json.RawMessage) string { return compactKey(q, raw) }

func (pairwiseKind) distance() Distance { return DistanceLevel }

func (pairwiseKind) ratings(_ Question, raw json.RawMessage, _ RatingMode) []Rating {
	return stringRatings(raw)
}

func (pairwiseKind) judge() JudgeKind { return JudgePairwise }

func (pairwiseKind) feature(Question, bool) Feature { return Feature{Type: FeatureString} }

func (pairwiseKind) csv(Question) []CSVColumn { return answeredColumn() }

func (pairwiseKind) scale(q Question) string {
	if q.AllowTie {
		return "A / B / tie"
	}
	return "A / B"
}

// comparedInput resolves the candidates input a pairwise or ranking question
// compares, reporting at p.candidates when there is none.
func comparedInput(fe FieldErrors, p string, q Question, s *Schema) (Input, bool) {
	in, ok := s.candidatesInput(q)
	if !ok {
		fe.add(p+".candidates", CodeUnknownInput, "%s questions need a candidates input (name it in candidates when the schema has several)", q.Kind)
	}
	return in, ok
}
