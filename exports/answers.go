package exports

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"slices"

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
	kinds  map[string]tasks.QuestionKind
	// compared keeps, per question, the normalised value of short answers agreement compares,
	// so that a value labels give again and again (a score, a checklist) is decoded once
	compared map[string]map[string]any
}

// comparedCacheSize bounds the values kept per question, and comparedCacheLen the length of
// an answer kept.
const (
	comparedCacheSize = 1024
	comparedCacheLen  = 256
)

func newDecoder(s *tasks.Schema) *decoder {
	d := &decoder{s: s, single: map[string]*tasks.Schema{}, valid: map[string]map[string]bool{},
		kinds: map[string]tasks.QuestionKind{}, compared: map[string]map[string]any{}}
	for _, q := range s.Questions {
		d.kinds[q.Key] = tasks.KindOf(q)
		d.compared[q.Key] = map[string]any{}
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
// value as answered and normalised (tasks.QuestionKind's Decode and
// Normalize), keyed by question; bad names the first offending question.
// Questions the system answered "missing" are listed in missing instead. Required
// questions left unanswered are not an error here: ground truth may leave
// optional parts out.
func (d *decoder) decode(a tasks.Answers) (answered, normalized map[string]any, missing []string, bad string, err error) {
	unknown, found := "", false // note: the first unknown key in sorted order, found without sorting the keys of every record
	for key := range a {
		if _, ok := d.single[key]; !ok && (!found || key < unknown) {
			unknown, found = key, true
		}
	}
	if found {
		return nil, nil, nil, unknown, tasks.FieldErrors{unknown: {Code: tasks.CodeUnknownQuestion, Message: unknown + " is not a question of this schema"}}
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
		k := d.kinds[q.Key]
		v, err := k.Decode(raw)
		if err != nil {
			return nil, nil, nil, q.Key, err
		}
		answered[q.Key] = v
		normalized[q.Key] = k.Normalize(v)
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
		if v, err := tasks.KindOf(q).Decode(raw); err == nil {
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

// itemAgreement computes per-item agreement from labels: per question whose
// answers consensus compares (not free text or criteria), the share of label pairs whose normalised answers
// are equal, over pairs that both answered (N/A mapped to missing does not
// count); overall, the mean of those shares. Labels that do not fit the
// schema are left out. Nil without labels.
func itemAgreement(s *tasks.Schema, labels []Label) *ItemAgreement {
	return newDecoder(s).itemAgreement(labels)
}

func (d *decoder) itemAgreement(labels []Label) *ItemAgreement {
	if len(labels) == 0 {
		return nil
	}
	norms := make([]map[string]any, 0, len(labels))
	for _, l := range labels {
		norms = append(norms, d.normalizeCompared(l.Answers))
	}
	out := &ItemAgreement{Labels: len(labels)}
	sum, count := 0.0, 0
	for _, q := range d.s.Questions {
		if d.kinds[q.Key].Consensus() == tasks.ConsensusNone {
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
// (not free text or criteria); values that do not decode are left out.
//
// note: a value kept in d.compared is shared by every label that gave it; it is only compared.
func (d *decoder) normalizeCompared(a tasks.Answers) map[string]any {
	out := make(map[string]any, len(a))
	for _, q := range d.s.Questions {
		raw, ok := a[q.Key]
		k := d.kinds[q.Key]
		if !ok || k.Consensus() == tasks.ConsensusNone {
			continue
		}
		memo := d.compared[q.Key]
		if v, ok := memo[string(raw)]; ok {
			if v != nil {
				out[q.Key] = v
			}
			continue
		}
		var v any
		if !isNull(raw) && !tasks.IsMissing(raw) {
			if dv, err := k.Decode(raw); err == nil {
				v = k.Normalize(dv)
				out[q.Key] = v
			}
		}
		if len(raw) <= comparedCacheLen && len(memo) < comparedCacheSize {
			memo[string(raw)] = v
		}
	}
	return out
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
