package tasks

import (
	"encoding/json"
	"strings"
)

// textKind is a free-text answer within min_length..max_length characters.
type textKind struct{}

func (textKind) fields() []string { return []string{"min_length", "max_length", "placeholder"} }

func (textKind) validate(fe FieldErrors, p string, q Question, _ *Schema) {
	validateLengths(fe, p, q)
}

func (textKind) check(q Question, raw json.RawMessage, _ *Schema) *FieldError {
	v, e := decodeString(raw)
	if e != nil {
		return e
	}
	if strings.TrimSpace(v) == "" && q.Required {
		return ferr(CodeRequired, q.Label+": an answer is required")
	}
	return checkLength(q, v, "text")
}

func (textKind) example(q Question, _ *Schema) any { return exampleText(q, "Example answer") }

func (textKind) decode(raw json.RawMessage) (any, error) { return readString(raw) }

func (textKind) normalize(q Question, v any) any { return keep(q, v) }

func (textKind) level() Level { return LevelNone }

func (textKind) consensus() ConsensusRule { return ConsensusNone }

func (textKind) key(q Question, raw json.RawMessage) string { return compactKey(q, raw) }

func (textKind) distance() Distance { return DistanceLevel }

func (textKind) ratings(_ Question, raw json.RawMessage, _ RatingMode) []Rating {
	return stringRatings(raw)
}

func (textKind) judge() JudgeKind { return JudgeNone }

func (textKind) feature(Question, bool) Feature { return Feature{Type: FeatureString} }

func (textKind) csv(Question) []CSVColumn { return answeredColumn() }

func (textKind) scale(Question) string { return string(KindText) }
