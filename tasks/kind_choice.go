package tasks

import (
	"encoding/json"
	"strconv"
	"strings"
)

// choiceKind is one option of a closed set.
type choiceKind struct{}

func (choiceKind) fields() []string { return []string{"options"} }

func (choiceKind) validate(fe FieldErrors, p string, q Question, _ *Schema) {
	validateOptions(fe, p, q)
}

func (choiceKind) check(q Question, raw json.RawMessage, _ *Schema) *FieldError {
	v, e := decodeString(raw)
	if e != nil {
		return ferr(CodeInvalidType, "expected an option key")
	}
	if !hasOption(q, v) {
		return ferr(CodeUnknownOption, strconv.Quote(v)+" is not an option")
	}
	return nil
}

func (choiceKind) example(q Question, _ *Schema) any {
	if len(q.Options) > 0 {
		return q.Options[0].Key
	}
	return nil
}

func (choiceKind) decode(raw json.RawMessage) (any, error) { return readString(raw) }

func (choiceKind) normalize(q Question, v any) any { return keep(q, v) }

func (choiceKind) level() Level { return LevelNominal }

func (choiceKind) consensus() ConsensusRule { return ConsensusEqual }

func (choiceKind) key(q Question, raw json.RawMessage) string { return compactKey(q, raw) }

func (choiceKind) distance() Distance { return DistanceLevel }

func (choiceKind) ratings(_ Question, raw json.RawMessage, _ RatingMode) []Rating {
	return stringRatings(raw)
}

func (choiceKind) judge() JudgeKind { return JudgeNone }

func (choiceKind) feature(Question, bool) Feature { return Feature{Type: FeatureString} }

func (choiceKind) csv(Question) []CSVColumn { return answeredColumn() }

func (choiceKind) scale(q Question) string { return strings.Join(optionKeys(q), " / ") }
