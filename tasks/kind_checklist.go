package tasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
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

// flatIntObject reads a {"key": int, ...} object without escapes or control characters in
// its keys, the usual shape of a checklist answer (compact as the server writes it, or spaced
// as PostgreSQL's JSON functions do), without the JSON decoder; ok is false for anything else,
// which the decoder then reads.
func flatIntObject(raw []byte) (map[string]int64, bool) {
	i := skipJSONSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	m := map[string]int64{}
	if i = skipJSONSpace(raw, i+1); i < len(raw) && raw[i] == '}' {
		return m, skipJSONSpace(raw, i+1) == len(raw)
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return nil, false
		}
		end := bytes.IndexByte(raw[i+1:], '"')
		if end < 0 {
			return nil, false
		}
		key := raw[i+1 : i+1+end]
		if !utf8.Valid(key) {
			return nil, false
		}
		for _, c := range key {
			if c == '\\' || c < 0x20 {
				return nil, false
			}
		}
		if i = skipJSONSpace(raw, i+end+2); i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipJSONSpace(raw, i+1)
		stop := i
		for stop < len(raw) && (raw[stop] == '-' || raw[stop] >= '0' && raw[stop] <= '9') {
			stop++
		}
		num := raw[i:stop]
		if digits := bytes.TrimPrefix(num, []byte("-")); len(digits) == 0 || digits[0] == '-' || digits[0] == '0' && len(digits) > 1 {
			return nil, false // not a JSON integer: empty, "--1", a leading zero
		}
		v, err := strconv.ParseInt(string(num), 10, 64)
		if err != nil {
			return nil, false
		}
		m[string(key)] = v
		switch i = skipJSONSpace(raw, stop); {
		case i < len(raw) && raw[i] == ',':
			i = skipJSONSpace(raw, i+1)
		case i < len(raw) && raw[i] == '}':
			return m, skipJSONSpace(raw, i+1) == len(raw)
		default:
			return nil, false
		}
	}
}

// skipJSONSpace is the first index from i that is not JSON whitespace.
func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
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
