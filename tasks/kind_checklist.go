package tasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// checklistKind scores every item of a checklist 0..its max.
type checklistKind struct{}

func (checklistKind) fields() []string { return []string{"items"} }

func (checklistKind) validate(fe FieldErrors, p string, q Question, _ *Schema) {
	if len(q.Items) == 0 {
		fe.add(p+".items", CodeRequired, "checklist questions need at least one item")
	}
	seen := map[string]bool{}
	for j, it := range q.Items {
		ip := fmt.Sprintf("%s.items[%d]", p, j)
		checkKey(fe, ip+".key", it.Key, seen)
		if it.Label == "" {
			fe.add(ip+".label", CodeRequired, "item label is required")
		}
		if it.Max < 1 || it.Max > maxChecklistMax {
			fe.add(ip+".max", CodeOutOfRange, "item max must be 1..%d", maxChecklistMax)
		}
	}
}

func (checklistKind) check(q Question, raw json.RawMessage, _ *Schema) *FieldError {
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

func (checklistKind) example(q Question, _ *Schema) any {
	m := map[string]int{}
	for _, it := range q.Items {
		m[it.Key] = it.Max
	}
	return m
}

func (checklistKind) decode(raw json.RawMessage) (any, error) {
	if m, ok := flatIntObject(raw); ok {
		return m, nil
	}
	var m map[string]int64
	err := json.Unmarshal(raw, &m)
	return m, err
}

// flatIntObject reads a compact {"key":int,...} object without escapes in
// its keys, the usual shape of a checklist answer, without the JSON
// decoder; ok is false for anything else.
func flatIntObject(raw []byte) (map[string]int64, bool) {
	n := len(raw)
	if n < 2 || raw[0] != '{' || raw[n-1] != '}' {
		return nil, false
	}
	m := map[string]int64{}
	body := raw[1 : n-1]
	for len(body) > 0 {
		if body[0] != '"' {
			return nil, false
		}
		end := bytes.IndexByte(body[1:], '"')
		if end < 0 || end+2 >= len(body) || body[end+2] != ':' {
			return nil, false
		}
		key := body[1 : end+1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return nil, false
		}
		rest := body[end+3:]
		stop := bytes.IndexByte(rest, ',')
		if stop < 0 {
			stop = len(rest)
		}
		v, err := strconv.ParseInt(string(rest[:stop]), 10, 64)
		if err != nil {
			return nil, false
		}
		m[string(key)] = v
		if body = rest[stop:]; len(body) > 0 {
			body = body[1:]
			if len(body) == 0 {
				return nil, false
			}
		}
	}
	return m, true
}

func (checklistKind) normalize(q Question, v any) any { return keep(q, v) }

func (checklistKind) level() Level { return LevelOrdinal }

func (checklistKind) consensus() ConsensusRule { return ConsensusItemScores }

func (checklistKind) key(q Question, raw json.RawMessage) string { return compactKey(q, raw) }

func (checklistKind) distance() Distance { return DistanceLevel }

// ratings gives every scored item its own unit, in item key order.
func (checklistKind) ratings(_ Question, raw json.RawMessage, _ RatingMode) []Rating {
	var m map[string]int64
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	out := make([]Rating, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, Rating{"/" + k, strconv.FormatInt(m[k], 10)})
	}
	return out
}

func (checklistKind) judge() JudgeKind { return JudgeNone }

func (checklistKind) feature(q Question, _ bool) Feature {
	f := Feature{Type: FeatureIntStruct}
	for _, it := range q.Items {
		f.Fields = append(f.Fields, it.Key)
	}
	return f
}

// csv gives every item a column of its own.
func (checklistKind) csv(q Question) []CSVColumn {
	cols := make([]CSVColumn, 0, len(q.Items))
	for _, it := range q.Items {
		cols = append(cols, CSVColumn{Suffix: "." + it.Key, Cell: func(answered, _ any) any {
			m, _ := answered.(map[string]int64)
			if n, ok := m[it.Key]; ok {
				return n
			}
			return nil
		}})
	}
	return cols
}

func (checklistKind) scale(q Question) string {
	items := make([]string, 0, len(q.Items))
	for _, it := range q.Items {
		items = append(items, fmt.Sprintf("%s 0-%d", it.Key, it.Max))
	}
	return strings.Join(items, ", ")
}
