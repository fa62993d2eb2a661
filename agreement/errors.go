package agreement

import "errors"

// Sentinel errors. Metric functions wrap them with details; test with errors.Is.
var (
	// ErrNoData means the table holds no ratings.
	ErrNoData = errors.New("no ratings")
	// ErrNoPairableUnits means no unit has two or more ratings.
	ErrNoPairableUnits = errors.New("no unit has two or more ratings")
	// ErrTooFewRaters means the metric needs more raters than the data has.
	ErrTooFewRaters = errors.New("too few raters")
	// ErrNoVariation means the expected disagreement is zero (for example a
	// single category only), so a chance-corrected coefficient is undefined.
	ErrNoVariation = errors.New("no variation in the data: chance agreement is 1")
	// ErrNotNumeric means a numeric level was requested for non-numeric values.
	ErrNotNumeric = errors.New("value is not numeric")
	// ErrLevel means the metric does not apply at the table's level of measurement.
	ErrLevel = errors.New("metric does not apply at this level of measurement")
	// ErrIncomplete means the metric needs units rated by every rater and there are too few.
	ErrIncomplete = errors.New("too few units rated by every rater")
	// ErrDuplicateRating means one rater rated one unit twice.
	ErrDuplicateRating = errors.New("duplicate rating of a unit by a rater")
	// ErrInput means the input could not be parsed.
	ErrInput = errors.New("invalid input")
	// ErrMismatch means two inputs that must cover the same units do not.
	ErrMismatch = errors.New("inputs do not match")
)
