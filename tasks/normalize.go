package tasks

import "encoding/json"

// Satisfaction is a binary answer normalised to "requirement satisfied".
type Satisfaction int

// Satisfaction values. Unknown covers N/A mapped to missing, and no answer.
const (
	Unknown Satisfaction = iota
	Satisfied
	NotSatisfied
)

// String returns "satisfied", "not_satisfied" or "unknown".
func (v Satisfaction) String() string {
	switch v {
	case Satisfied:
		return "satisfied"
	case NotSatisfied:
		return "not_satisfied"
	}
	return "unknown"
}

// MarshalJSON encodes Satisfied as true, NotSatisfied as false and Unknown
// as null, the shape benchmark exports use.
func (v Satisfaction) MarshalJSON() ([]byte, error) {
	switch v {
	case Satisfied:
		return []byte("true"), nil
	case NotSatisfied:
		return []byte("false"), nil
	}
	return []byte("null"), nil
}

// Satisfied normalises a canonical binary answer ("yes", "no", "na") to
// whether the requirement behind the question is satisfied, taking the
// question's polarity (yes_means) and N/A mapping (na_means) into account.
// For a question phrased as a defect ("Is there background noise?"), "yes"
// is NotSatisfied. Anything else, or a non-binary question, is Unknown.
func (q Question) Satisfied(answer string) Satisfaction {
	if q.Kind != KindBinary {
		return Unknown
	}
	yes, no := Satisfied, NotSatisfied
	if q.YesMeans == YesMeansDefect {
		yes, no = NotSatisfied, Satisfied
	}
	switch answer {
	case AnswerYes:
		return yes
	case AnswerNo:
		return no
	case AnswerNA:
		switch q.NAMeans {
		case NASatisfied:
			return Satisfied
		case NANotSatisfied:
			return NotSatisfied
		}
	}
	return Unknown
}

// SatisfactionVector returns, for every binary question in schema order,
// its normalised answer: the "requirement satisfied" vector that D3-Omni
// style exports write as ["Yes", "No", ...]. Unanswered or invalid answers
// are Unknown.
func (s *Schema) SatisfactionVector(answers Answers) []Satisfaction {
	var out []Satisfaction
	for _, q := range s.Questions {
		if q.Kind != KindBinary {
			continue
		}
		var v string
		if raw, ok := answers[q.Key]; ok {
			_ = json.Unmarshal(raw, &v) // a non-string leaves v empty: Unknown
		}
		out = append(out, q.Satisfied(v))
	}
	return out
}
