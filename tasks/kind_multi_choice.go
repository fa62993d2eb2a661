package tasks

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// multiChoiceKind is a set of options of a closed set, min..max of them.
type multiChoiceKind struct{}

func (multiChoiceKind) fields() []string { return []string{"options", "min", "max"} }

func (multiChoiceKind) validate(fe FieldErrors, p string, q Question, _ *Schema) {
	validateOptions(fe, p, q)
	validateCount(fe, p, q, len(q.Options))
}

func (multiChoiceKind) check(q Question, raw json.RawMessage, _ *Schema) *FieldError {
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

func (multiChoiceKind) example(q Question, _ *Schema) any {
	lo, _ := countBounds(q)
	var keys []string
	for i := 0; i < max(lo, 1) && i < len(q.Options); i++ {
		keys = append(keys, q.Options[i].Key)
	}
	return keys
}

func (multiChoiceKind) decode(raw json.RawMessage) (any, error) { return readStrings(raw) }

// normalize puts the chosen options in option order.
func (multiChoiceKind) normalize(q Question, v any) any {
	chosen, _ := v.([]string)
	out := []string{}
	for _, o := range q.Options {
		if slices.Contains(chosen, o.Key) {
			out = append(out, o.Key)
		}
	}
	return out
}

func (multiChoiceKind) level() Level { return LevelNominal }

func (multiChoiceKind) consensus() ConsensusRule { return ConsensusEqual }

// key compares answers as sets.
func (multiChoiceKind) key(_ Question, raw json.RawMessage) string {
	var keys []string
	json.Unmarshal(raw, &keys)
	slices.Sort(keys)
	b, _ := json.Marshal(keys)
	return string(b)
}

func (multiChoiceKind) distance() Distance { return DistanceMASI }

func (multiChoiceKind) ratings(_ Question, raw json.RawMessage, _ RatingMode) []Rating {
	var set []string
	if json.Unmarshal(raw, &set) != nil {
		return nil
	}
	slices.Sort(set)
	return []Rating{{"", strings.Join(set, SetSeparator)}}
}

func (multiChoiceKind) judge() JudgeKind { return JudgeNone }

func (multiChoiceKind) feature(Question, bool) Feature { return Feature{Type: FeatureStringList} }

// csv writes the options chosen, in option order, joined by "|".
func (multiChoiceKind) csv(Question) []CSVColumn {
	return []CSVColumn{{Cell: func(_, normalized any) any {
		vs, _ := normalized.([]string)
		return strings.Join(vs, "|")
	}}}
}

func (multiChoiceKind) scale(q Question) string { return strings.Join(optionKeys(q), " / ") }
