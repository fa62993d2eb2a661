package tasks

import "encoding/json"

// unknownKind is what KindOf gives a kind that is not in kindTable. Schema
// validation refuses such questions, so it is never asked about a valid
// schema; it reads answers as plain strings and never validates one.
type unknownKind struct{}

func (unknownKind) fields() []string { return nil }

func (unknownKind) validate(FieldErrors, string, Question, *Schema) {}

func (unknownKind) check(Question, json.RawMessage, *Schema) *FieldError {
	return ferr(CodeInvalidKind, "question has an unknown kind")
}

func (unknownKind) example(Question, *Schema) any { return nil }

func (unknownKind) decode(raw json.RawMessage) (any, error) { return readString(raw) }

func (unknownKind) normalize(q Question, v any) any { return keep(q, v) }

func (unknownKind) level() Level { return LevelNominal }

func (unknownKind) consensus() ConsensusRule { return ConsensusEqual }

func (unknownKind) key(q Question, raw json.RawMessage) string { return compactKey(q, raw) }

func (unknownKind) distance() Distance { return DistanceLevel }

func (unknownKind) ratings(_ Question, raw json.RawMessage, _ RatingMode) []Rating {
	return stringRatings(raw)
}

func (unknownKind) judge() JudgeKind { return JudgeNone }

func (unknownKind) feature(Question, bool) Feature { return Feature{Type: FeatureString} }

func (unknownKind) csv(Question) []CSVColumn { return answeredColumn() }

func (unknownKind) scale(q Question) string { return string(q.Kind) }
