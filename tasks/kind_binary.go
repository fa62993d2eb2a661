package tasks

import "encoding/json"

// binaryKind is a yes/no question, optionally with N/A; analysis reads it as
// "requirement satisfied" after its polarity (yes_means) and N/A mapping
// (na_means).
type binaryKind struct{}

func (binaryKind) fields() []string { return []string{"allow_na", "na_means", "yes_means"} }

func (binaryKind) validate(fe FieldErrors, p string, q Question, _ *Schema) {
	if q.YesMeans != "" && q.YesMeans != YesMeansSatisfied && q.YesMeans != YesMeansDefect {
		fe.add(p+".yes_means", CodeInvalidValue, "yes_means must be %q or %q", YesMeansSatisfied, YesMeansDefect)
	}
	switch q.NAMeans {
	case "", NAMissing, NASatisfied, NANotSatisfied:
	default:
		fe.add(p+".na_means", CodeInvalidValue, "na_means must be %q, %q or %q", NAMissing, NASatisfied, NANotSatisfied)
	}
	if q.NAMeans != "" && !q.AllowNA {
		fe.add(p+".na_means", CodeInvalidValue, "na_means needs allow_na")
	}
}

func (binaryKind) check(q Question, raw json.RawMessage, _ *Schema) *FieldError {
	v, e := decodeString(raw)
	if e != nil {
		return ferr(CodeInvalidType, `expected "yes", "no" or "na"`)
	}
	switch v {
	case AnswerYes, AnswerNo:
		return nil
	case AnswerNA:
		if !q.AllowNA {
			return ferr(CodeNANotAllowed, "N/A is not allowed for this question")
		}
		return nil
	}
	return ferr(CodeInvalidValue, `expected "yes", "no" or "na"`)
}

func (binaryKind) example(Question, *Schema) any { return AnswerYes }

func (binaryKind) decode(raw json.RawMessage) (any, error) { return readString(raw) }

func (binaryKind) normalize(q Question, v any) any {
	s, _ := v.(string)
	switch q.Satisfied(s) {
	case Satisfied:
		return true
	case NotSatisfied:
		return false
	}
	return nil
}

func (binaryKind) level() Level { return LevelNominal }

func (binaryKind) consensus() ConsensusRule { return ConsensusEqual }

func (binaryKind) key(q Question, raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	if sat := q.Satisfied(s); sat != Unknown {
		return sat.String()
	}
	return s
}

func (binaryKind) distance() Distance { return DistanceLevel }

func (binaryKind) ratings(q Question, raw json.RawMessage, mode RatingMode) []Rating {
	rs := stringRatings(raw)
	if rs == nil || mode == RatingsAnswered {
		return rs
	}
	switch sat := q.Satisfied(rs[0].Value); sat {
	case Satisfied, NotSatisfied:
		return []Rating{{"", sat.String()}}
	}
	return nil
}

func (binaryKind) judge() JudgeKind { return JudgeBinary }

func (binaryKind) feature(_ Question, normalized bool) Feature {
	if normalized {
		return Feature{Type: FeatureBool}
	}
	return Feature{Type: FeatureString}
}

func (binaryKind) csv(Question) []CSVColumn {
	return []CSVColumn{
		{Cell: answeredCell},
		{Suffix: ".satisfied", Cell: func(_, normalized any) any { return normalized }},
	}
}

func (binaryKind) scale(q Question) string {
	if q.AllowNA {
		return "yes / no / N/A"
	}
	return "yes / no"
}
