package exports

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// decodeAnswers checks a set of answers against the schema and returns each
// answered question's value as answered and normalised, keyed by question.
//
// As answered: binary "yes"|"no"|"na", likert int64 or "na", choice and
// pairwise strings, multi_choice and ranking and criteria []string,
// checklist map[string]int64, text string. Normalised: binary true, false
// or nil (requirement satisfied, with polarity and N/A mapping applied),
// likert int64 or nil for N/A, multi_choice in option order; other kinds
// are unchanged. Required questions left unanswered are not an error here.
func decodeAnswers(s *tasks.Schema, a tasks.Answers) (answered, normalized map[string]any, bad string, err error) {
	if verr := s.ValidateAnswers(a); verr != nil {
		if key, e := firstAnswerError(verr); key != "" {
			return nil, nil, key, e
		}
	}
	answered, normalized = map[string]any{}, map[string]any{}
	for _, q := range s.Questions {
		raw, ok := a[q.Key]
		if !ok || isNull(raw) {
			continue
		}
		v, derr := decodeValue(q, raw)
		if derr != nil {
			return nil, nil, q.Key, derr
		}
		answered[q.Key] = v
		normalized[q.Key] = normalize(q, v)
	}
	return answered, normalized, "", nil
}

// firstAnswerError returns the first validation error that is not a missing
// required answer (ground truth may leave optional parts unanswered).
func firstAnswerError(err error) (string, error) {
	fe, ok := err.(tasks.FieldErrors)
	if !ok {
		return "answers", err
	}
	keys := make([]string, 0, len(fe))
	for k := range fe {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if fe[k].Code != tasks.CodeRequired {
			return k, tasks.FieldErrors{k: fe[k]}
		}
	}
	return "", nil
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
		var n int64
		if err := json.Unmarshal(raw, &n); err == nil {
			return n, nil
		}
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case tasks.KindMultiChoice, tasks.KindRanking, tasks.KindCriteria:
		var vs []string
		err := json.Unmarshal(raw, &vs)
		if vs == nil {
			vs = []string{}
		}
		return vs, err
	case tasks.KindChecklist:
		var m map[string]int64
		err := json.Unmarshal(raw, &m)
		return m, err
	default:
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
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
		if _, n, _, err := decodeAnswers(s, l.Answers); err == nil {
			norms = append(norms, n)
		}
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

// pairShare is the share of agreeing pairs among labels answering key.
func pairShare(key string, norms []map[string]any) (float64, bool) {
	var vals []string
	for _, n := range norms {
		if v, ok := n[key]; ok && v != nil {
			b, _ := json.Marshal(v)
			vals = append(vals, string(b))
		}
	}
	pairs, agree := 0, 0
	for i := range vals {
		for j := i + 1; j < len(vals); j++ {
			pairs++
			if vals[i] == vals[j] {
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
