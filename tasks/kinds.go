package tasks

import (
	"fmt"
	"slices"
)

// kindFields lists, per kind, the kind-specific fields that apply to it.
// Any other kind-specific field that is set is reported, which catches
// typos such as anchors on a binary question.
var kindFields = map[Kind][]string{
	KindBinary:      {"allow_na", "na_means", "yes_means"},
	KindLikert:      {"min", "max", "anchors", "allow_na"},
	KindChoice:      {"options"},
	KindMultiChoice: {"options", "min", "max"},
	KindPairwise:    {"allow_tie", "candidates"},
	KindRanking:     {"candidates"},
	KindChecklist:   {"items"},
	KindText:        {"min_length", "max_length", "placeholder"},
	KindCriteria:    {"min", "max", "min_length", "max_length", "placeholder"},
	KindListEdit:    {"min", "max", "min_length", "max_length", "list", "list_key"},
}

// setFields returns the kind-specific fields of q that are set.
func setFields(q Question) []string {
	var out []string
	flag := func(name string, set bool) {
		if set {
			out = append(out, name)
		}
	}
	flag("min", q.Min != nil)
	flag("max", q.Max != nil)
	flag("anchors", len(q.Anchors) > 0)
	flag("options", len(q.Options) > 0)
	flag("items", len(q.Items) > 0)
	flag("allow_na", q.AllowNA)
	flag("na_means", q.NAMeans != "")
	flag("yes_means", q.YesMeans != "")
	flag("allow_tie", q.AllowTie)
	flag("candidates", q.Candidates != "")
	flag("min_length", q.MinLength != 0)
	flag("max_length", q.MaxLength != 0)
	flag("placeholder", q.Placeholder != "")
	flag("list", q.List != "")
	flag("list_key", q.ListKey != "")
	return out
}

// validateKind checks the fields that depend on the question's kind.
func validateKind(fe FieldErrors, p string, q Question, s *Schema) {
	for _, f := range setFields(q) {
		if !slices.Contains(kindFields[q.Kind], f) {
			fe.add(p+"."+f, CodeInvalidValue, "%s does not apply to %s questions", f, q.Kind)
		}
	}
	switch q.Kind {
	case KindBinary:
		validateBinary(fe, p, q)
	case KindLikert:
		validateLikert(fe, p, q)
	case KindChoice, KindMultiChoice:
		validateOptions(fe, p, q)
	case KindPairwise, KindRanking:
		validateComparison(fe, p, q, s)
	case KindChecklist:
		validateChecklist(fe, p, q)
	case KindText:
		validateLengths(fe, p, q)
	case KindCriteria:
		validateCount(fe, p, q, 0)
		validateLengths(fe, p, q)
	case KindListEdit:
		validateListEdit(fe, p, q, s)
	}
}

func validateBinary(fe FieldErrors, p string, q Question) {
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

func validateLikert(fe FieldErrors, p string, q Question) {
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

func validateOptions(fe FieldErrors, p string, q Question) {
	if len(q.Options) < 2 || len(q.Options) > maxOptions {
		fe.add(p+".options", CodeTooFew, "%s questions need 2 to %d options", q.Kind, maxOptions)
	}
	seen := map[string]bool{}
	for j, o := range q.Options {
		op := fmt.Sprintf("%s.options[%d]", p, j)
		checkKey(fe, op+".key", o.Key, seen)
		if o.Label == "" {
			fe.add(op+".label", CodeRequired, "option label is required")
		}
	}
	if q.Kind == KindMultiChoice {
		validateCount(fe, p, q, len(q.Options))
	}
}

// validateCount checks min/max used as an answer count; limit caps max
// when positive.
func validateCount(fe FieldErrors, p string, q Question, limit int) {
	lo, hi := countBounds(q)
	if lo < 0 {
		fe.add(p+".min", CodeOutOfRange, "min must not be negative")
	}
	if q.Max != nil && (hi < 1 || hi < lo) {
		fe.add(p+".max", CodeOutOfRange, "max must be at least 1 and at least min")
	}
	if limit > 0 && (lo > limit || (q.Max != nil && hi > limit)) {
		fe.add(p+".max", CodeOutOfRange, "count bounds exceed the %d options", limit)
	}
}

// countBounds returns the answer-count bounds; a missing max is unbounded (-1).
func countBounds(q Question) (lo, hi int) {
	hi = -1
	if q.Min != nil {
		lo = *q.Min
	}
	if q.Max != nil {
		hi = *q.Max
	}
	return lo, hi
}

func validateComparison(fe FieldErrors, p string, q Question, s *Schema) {
	in, ok := s.candidatesInput(q)
	if !ok {
		fe.add(p+".candidates", CodeUnknownInput, "%s questions need a candidates input (name it in candidates when the schema has several)", q.Kind)
		return
	}
	if q.Kind == KindPairwise && in.Count != 2 {
		fe.add(p+".candidates", CodeInvalidValue, "pairwise questions compare exactly 2 candidates; set count: 2 on input %q", in.Name)
	}
	if q.Kind == KindRanking && in.Count == 1 {
		fe.add(p+".candidates", CodeInvalidValue, "ranking needs at least 2 candidates; input %q has count 1", in.Name)
	}
}

func validateChecklist(fe FieldErrors, p string, q Question) {
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

func validateLengths(fe FieldErrors, p string, q Question) {
	if q.MinLength < 0 {
		fe.add(p+".min_length", CodeOutOfRange, "min_length must not be negative")
	}
	if q.MaxLength < 0 || (q.MaxLength > 0 && q.MaxLength < q.MinLength) {
		fe.add(p+".max_length", CodeOutOfRange, "max_length must be positive and at least min_length")
	}
}
