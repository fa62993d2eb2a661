package tasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// likertKind is an integer scale min..max with optional anchors and N/A.
type likertKind struct{}

func (likertKind) fields() []string { return []string{"min", "max", "anchors", "allow_na"} }

func (likertKind) validate(fe FieldErrors, p string, q Question, _ *Schema) {
	if q.Min == nil || q.Max == nil {
		fe.add(p+".min", CodeRequired, "likert questions need min and max")
		return
	}
	lo, hi := *q.Min, *q.Max
	if lo >= hi || hi-lo+1 > maxLikertPoints {
		fe.add(p+".max", CodeOutOfRange, "max must be above min with at most %d points, got %d..%d", maxLikertPoints, lo, hi)
		return
	}
	seen := map[int]bool{}
	for j, a := range q.Anchors {
		ap := fmt.Sprintf("%s.anchors[%d]", p, j)
		switch {
		case a.Value < lo || a.Value > hi:
			fe.add(ap+".value", CodeOutOfRange, "anchor %d is outside %d..%d", a.Value, lo, hi)
		case seen[a.Value]:
			fe.add(ap+".value", CodeDuplicateKey, "anchor %d is given twice", a.Value)
		case a.Label == "":
			fe.add(ap+".label", CodeRequired, "anchor label is required")
		}
		seen[a.Value] = true
	}
}

func (likertKind) check(q Question, raw json.RawMessage, _ *Schema) *FieldError {
	if s, e := decodeString(raw); e == nil {
		if s == AnswerNA {
			if !q.AllowNA {
				return ferr(CodeNANotAllowed, "N/A is not allowed for this question")
			}
			return nil
		}
		return ferr(CodeInvalidType, `expected an integer or "na"`)
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	if err != nil {
		return ferr(CodeInvalidType, `expected an integer or "na"`)
	}
	if q.Min == nil || q.Max == nil || n < int64(*q.Min) || n > int64(*q.Max) {
		return ferr(CodeOutOfRange, "value "+strconv.FormatInt(n, 10)+" is outside "+rangeText(q))
	}
	return nil
}

// rangeText renders a likert range for messages.
func rangeText(q Question) string {
	if q.Min == nil || q.Max == nil {
		return "the scale"
	}
	return strconv.Itoa(*q.Min) + ".." + strconv.Itoa(*q.Max)
}

func (likertKind) example(q Question, _ *Schema) any {
	if q.Max != nil {
		return *q.Max
	}
	return nil
}

func (likertKind) decode(raw json.RawMessage) (any, error) {
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n, nil
	}
	return readString(raw)
}

func (likertKind) normalize(_ Question, v any) any {
	if n, ok := v.(int64); ok {
		return n
	}
	return nil
}

func (likertKind) level() Level { return LevelOrdinal }

func (likertKind) consensus() ConsensusRule { return ConsensusScore }

func (likertKind) key(q Question, raw json.RawMessage) string { return compactKey(q, raw) }

func (likertKind) distance() Distance { return DistanceLevel }

func (likertKind) ratings(_ Question, raw json.RawMessage, mode RatingMode) []Rating {
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return []Rating{{"", strconv.FormatInt(n, 10)}}
	}
	if mode == RatingsAnswered {
		var v string
		if json.Unmarshal(raw, &v) == nil && v != "" {
			return []Rating{{"", v}} // note: N/A, a category of its own
		}
	}
	return nil
}

func (likertKind) judge() JudgeKind { return JudgeScore }

func (likertKind) feature(q Question, normalized bool) Feature {
	if normalized || !q.AllowNA {
		return Feature{Type: FeatureInt64}
	}
	return Feature{Type: FeatureString}
}

func (likertKind) csv(Question) []CSVColumn { return answeredColumn() }

func (likertKind) scale(q Question) string {
	if q.Min == nil || q.Max == nil {
		return string(KindLikert)
	}
	s := fmt.Sprintf("%d-%d", *q.Min, *q.Max)
	if q.AllowNA {
		s += " or N/A"
	}
	return s
}
