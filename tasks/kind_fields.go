package tasks

import "fmt"

// Validation helpers shared by several kinds.

// validateOptions checks the options of a choice or multi_choice question.
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

// validateLengths checks min_length and max_length.
func validateLengths(fe FieldErrors, p string, q Question) {
	if q.MinLength < 0 {
		fe.add(p+".min_length", CodeOutOfRange, "min_length must not be negative")
	}
	if q.MaxLength < 0 || (q.MaxLength > 0 && q.MaxLength < q.MinLength) {
		fe.add(p+".max_length", CodeOutOfRange, "max_length must be positive and at least min_length")
	}
}
