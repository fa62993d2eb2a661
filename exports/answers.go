package exports

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// validCacheSize bounds the distinct valid answers remembered per question.
const validCacheSize = 64

// decoder decodes and checks answers against a schema. Each question is
// validated by the tasks package through a one-question schema; the valid
// raw answers of the first validCacheSize distinct values per question are
// remembered, since ground truth repeats the same few values (yes, no, 1-5)
// millions of times.
type decoder struct {
	s      *tasks.Schema
	single map[string]*tasks.Schema
	valid  map[string]map[string]bool
}

func newDecoder(s *tasks.Schema) *decoder {
	d := &decoder{s: s, single: map[string]*tasks.Schema{}, valid: map[string]map[string]bool{}}
	for _, q := range s.Questions {
		q.Required = false
		d.single[q.Key] = &tasks.Schema{Inputs: s.Inputs, Questions: []tasks.Question{q}}
		d.valid[q.Key] = map[string]bool{}
	}
	return d
}

// check validates one answer; the key is a question of the schema.
func (d *decoder) check(key string, raw json.RawMessage) error {
	cache := d.valid[key]
	if cache[string(raw)] {
		return nil
	}
	if err := d.single[key].ValidateAnswers(tasks.Answers{key: raw}); err != nil {
		return err
	}
	if len(cache) < validCacheSize {
		cache[string(raw)] = true
	}
	return nil
}

// decode checks a set of answers and returns each answered question's
// value as answered and normalised, keyed by question; bad names the first
// offending question.
//
// As answered: binary "yes"|"no"|"na", likert int64 or "na", choice and
// pairwise strings, multi_choice and ranking and criteria []string,
// checklist map[string]int64, text string. Normalised: binary true, false
// or nil (requirement satisfied, with polarity and N/A mapping applied),
// likert int64 or nil for N/A, multi_choice in option order; other kinds
// are unchanged; list_edit is the edited list ([]string). Questions the
// system answered "missing" are listed in missing instead. Required
// questions left unanswered are not an error here: ground truth may leave
// optional parts out.
func (d *decoder) decode(a tasks.Answers) (answered, normalized map[string]any, missing []string, bad string, err error) {
	for _, key := range slices.Sorted(maps.Keys(a)) {
		if _, ok := d.single[key]; !ok {
			return nil, nil, nil, key, tasks.FieldErrors{key: {Code: tasks.CodeUnknownQuestion, Message: key + " is not a question of this schema"}}
		}
	}
	answered, normalized = make(map[string]any, len(a)), make(map[string]any, len(a))
	for _, q := range d.s.Questions {
		raw, ok := a[q.Key]
		if !ok || isNull(raw) {
			continue
		}
		if tasks.IsMissing(raw) {
			missing = append(missing, q.Key)
			continue
		}
		if err := d.check(q.Key, raw); err != nil {
			return nil, nil, nil, q.Key, err
		}
		v, err := decodeValue(q, raw)
		if err != nil {
			return nil, nil, nil, q.Key, err
		}
		answered[q.Key] = v
		normalized[q.Key] = normalize(q, v)
	}
	return answered, normalized, missing, "", nil
}

// decodeLenient decodes answers without checking them, for labels and
// reviews: values that do not decode are left out.
func decodeLenient(s *tasks.Schema, a tasks.Answers) map[string]any {
	out := make(map[string]any, len(a))
	for _, q := range s.Questions {
		raw, ok := a[q.Key]
		if !ok || isNull(raw) || tasks.IsMissing(raw) {
			continue
		}
		if v, err := decodeValue(q, raw); err == nil {
			out[q.Key] = v
		}
	}
	return out
}

// isNull reports whether raw is empty or JSON null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// decodeValue reads one validated answer into its Go value.
func decodeValue(q tasks.Question, raw json.RawMessage) (any, error) {
	switch q.Kind {
	case tasks.KindLikert:
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return n, nil
		}
		return decodeString(raw)
	case tasks.KindListEdit:
		return tasks.EditedList(raw)
	case tasks.KindMultiChoice, tasks.KindRanking, tasks.KindCriteria:
		var vs []string
		err := json.Unmarshal(raw, &vs)
		if vs == nil {
			vs = []string{}
		}
		return vs, err
	case tasks.KindChecklist:
		if m, ok := flatIntObject(raw); ok {
			return m, nil
		}
		var m map[string]int64
		err := json.Unmarshal(raw, &m)
		return m, err
	default:
		return decodeString(raw)
	}
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

// decodeString reads a JSON string; plain strings without escapes skip the
// JSON decoder.
func decodeString(raw json.RawMessage) (string, error) {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' && !bytes.ContainsAny(raw[1:n-1], "\\\"") {
		return string(raw[1 : n-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// normalize maps an answered value to its analysis value.
func normalize(q tasks.Question, v any) any {
	switch q.Kind {
	case tasks.KindBinary:
		switch q.Satisfied(v.(string)) {
		case tasks.Satisfied:
			return true
		case tasks.NotSatisfied:
			return false
		}
		return nil
	case tasks.KindLikert:
		if n, ok := v.(int64); ok {
			return n
		}
		return nil
	case tasks.KindMultiChoice:
		chosen := v.([]string)
		out := []string{}
		for _, o := range q.Options {
			if slices.Contains(chosen, o.Key) {
				out = append(out, o.Key)
			}
		}
		return out
	}
	return v
}

// itemAgreement computes per-item agreement from labels: per question (not
// free text or criteria), the share of label pairs whose normalised answers
// are equal, over pairs that both answered (N/A mapped to missing does not
// count); overall, the mean of those shares. Labels that do not fit the
// schema are left out. Nil without labels.
func itemAgreement(s *tasks.Schema, labels []Label) *ItemAgreement {
	if len(labels) == 0 {
		return nil
	}
	norms := make([]map[string]any, 0, len(labels))
	for _, l := range labels {
		norms = append(norms, normalizeCompared(s, l.Answers))
	}
	out := &ItemAgreement{Labels: len(labels)}
	sum, count := 0.0, 0
	for _, q := range s.Questions {
		if q.Kind == tasks.KindText || q.Kind == tasks.KindCriteria {
			continue
		}
		share, ok := pairShare(q.Key, norms)
		if !ok {
			continue
		}
		if out.Questions == nil {
			out.Questions = map[string]float64{}
		}
		out.Questions[q.Key] = round4(share)
		sum += share
		count++
	}
	if count > 0 {
		v := round4(sum / float64(count))
		out.PercentAgreement = &v
	}
	return out
}

// normalizeCompared decodes and normalises the answers agreement compares
// (not free text or criteria); values that do not decode to their kind's
// type are left out.
func normalizeCompared(s *tasks.Schema, a tasks.Answers) map[string]any {
	out := make(map[string]any, len(a))
	for _, q := range s.Questions {
		raw, ok := a[q.Key]
		if !ok || isNull(raw) || tasks.IsMissing(raw) || q.Kind == tasks.KindText || q.Kind == tasks.KindCriteria {
			continue
		}
		if v, err := decodeValue(q, raw); err == nil && fitsKind(q, v) {
			out[q.Key] = normalize(q, v)
		}
	}
	return out
}

// fitsKind reports whether a decoded value has the Go type of its kind.
func fitsKind(q tasks.Question, v any) bool {
	switch v.(type) {
	case string:
		return q.Kind != tasks.KindMultiChoice && q.Kind != tasks.KindRanking && q.Kind != tasks.KindCriteria && q.Kind != tasks.KindChecklist && q.Kind != tasks.KindListEdit
	case int64:
		return q.Kind == tasks.KindLikert
	case []string:
		return q.Kind == tasks.KindMultiChoice || q.Kind == tasks.KindRanking || q.Kind == tasks.KindCriteria || q.Kind == tasks.KindListEdit
	case map[string]int64:
		return q.Kind == tasks.KindChecklist
	}
	return false
}

// sameValue compares two normalised values.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case []string:
		y, ok := b.([]string)
		return ok && slices.Equal(x, y)
	case map[string]int64:
		y, ok := b.(map[string]int64)
		return ok && maps.Equal(x, y)
	}
	return a == b
}

// pairShare is the share of agreeing pairs among labels answering key.
func pairShare(key string, norms []map[string]any) (float64, bool) {
	var vals []any
	for _, n := range norms {
		if v, ok := n[key]; ok && v != nil {
			vals = append(vals, v)
		}
	}
	pairs, agree := 0, 0
	for i := range vals {
		for j := i + 1; j < len(vals); j++ {
			pairs++
			if sameValue(vals[i], vals[j]) {
				agree++
			}
		}
	}
	if pairs == 0 {
		return 0, false
	}
	return float64(agree) / float64(pairs), true
}

// round4 rounds to four decimals, the precision of per-item figures.
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
