package tasks

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// rankingKind orders every candidate of a candidates input, best first, by
// slot ("A", "B", ...).
type rankingKind struct{}

func (rankingKind) fields() []string { return []string{"candidates"} }

func (rankingKind) validate(fe FieldErrors, p string, q Question, s *Schema) {
	in, ok := comparedInput(fe, p, q, s)
	if ok && in.Count == 1 {
		fe.add(p+".candidates", CodeInvalidValue, "ranking needs at least 2 candidates; input %q has count 1", in.Name)
	}
}

func (rankingKind) check(q Question, raw json.RawMessage, s *Schema) *FieldError {
	vs, e := decodeStrings(raw)
	if e != nil {
		return ferr(CodeInvalidType, `expected a list of slots such as ["B", "A"]`)
	}
	n := s.rankingSize(q)
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

// rankingSize returns the fixed candidate count for a ranking, or 0.
func (s *Schema) rankingSize(q Question) int {
	in, ok := s.candidatesInput(q)
	if !ok {
		return 0
	}
	return in.Count
}

func (rankingKind) example(q Question, s *Schema) any {
	slots := make([]string, max(s.rankingSize(q), 2))
	for i := range slots {
		slots[i] = SlotLabel(i)
	}
	return slots
}

func (rankingKind) remap(raw json.RawMessage, mapSlot func(string) (string, error)) (json.RawMessage, error) {
	var vs []string
	if err := json.Unmarshal(raw, &vs); err != nil {
		return nil, errors.New("expected a list of slots")
	}
	for i, v := range vs {
		m, err := mapSlot(v)
		if err != nil {
			return nil, err
		}
		vs[i] = m
	}
	return json.Marshal(vs)
}

func (rankingKind) decode(raw json.RawMessage) (any, error) { return readStrings(raw) }

func (rankingKind) normalize(q Question, v any) any { return keep(q, v) }

func (rankingKind) level() Level { return LevelOrdinal }

func (rankingKind) consensus() ConsensusRule { return ConsensusEqual }

func (rankingKind) key(q Question, raw json.RawMessage) string { return compactKey(q, raw) }

func (rankingKind) distance() Distance { return DistanceLevel }

// ratings gives every ranked slot its rank, from 1.
func (rankingKind) ratings(_ Question, raw json.RawMessage, _ RatingMode) []Rating {
	var order []string
	if json.Unmarshal(raw, &order) != nil {
		return nil
	}
	out := make([]Rating, 0, len(order))
	for i, o := range order {
		out = append(out, Rating{"/" + o, strconv.Itoa(i + 1)})
	}
	return out
}

func (rankingKind) judge() JudgeKind { return JudgeNone }

func (rankingKind) feature(Question, bool) Feature { return Feature{Type: FeatureStringList} }

// csv writes the slots best first, joined by ">".
func (rankingKind) csv(Question) []CSVColumn {
	return []CSVColumn{{Cell: func(answered, _ any) any {
		vs, _ := answered.([]string)
		return strings.Join(vs, ">")
	}}}
}

func (rankingKind) scale(Question) string { return string(KindRanking) }
