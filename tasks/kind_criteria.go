package tasks

import (
	"encoding/json"
	"strconv"
	"strings"
)

// criteriaKind is a list of distinct free-text criteria, min..max of them,
// each within min_length..max_length characters.
type criteriaKind struct{}

func (criteriaKind) fields() []string {
	return []string{"min", "max", "min_length", "max_length", "placeholder"}
}

func (criteriaKind) validate(fe FieldErrors, p string, q Question, _ *Schema) {
	validateCount(fe, p, q, 0)
	validateLengths(fe, p, q)
}

func (criteriaKind) check(q Question, raw json.RawMessage, _ *Schema) *FieldError {
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

func (criteriaKind) example(q Question, _ *Schema) any {
	lo, _ := countBounds(q)
	var cs []string
	for i := range max(lo, 1) {
		cs = append(cs, exampleText(q, "Example criterion "+strconv.Itoa(i+1)))
	}
	return cs
}

func (criteriaKind) decode(raw json.RawMessage) (any, error) { return readStrings(raw) }

func (criteriaKind) normalize(q Question, v any) any { return keep(q, v) }

func (criteriaKind) level() Level { return LevelNone }

func (criteriaKind) consensus() ConsensusRule { return ConsensusNone }

func (criteriaKind) key(q Question, raw json.RawMessage) string { return compactKey(q, raw) }

func (criteriaKind) distance() Distance { return DistanceLevel }

func (criteriaKind) ratings(_ Question, raw json.RawMessage, _ RatingMode) []Rating {
	return stringRatings(raw) // note: a list of criteria is no string, so it gives none
}

func (criteriaKind) judge() JudgeKind { return JudgeNone }

func (criteriaKind) feature(Question, bool) Feature { return Feature{Type: FeatureStringList} }

// csv writes the criteria as a JSON list.
func (criteriaKind) csv(Question) []CSVColumn { return answeredColumn() }

func (criteriaKind) scale(Question) string { return string(KindCriteria) }
