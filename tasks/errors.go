package tasks

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Stable error codes reported in FieldError.Code. Clients may switch on them.
const (
	CodeRequired        = "required"
	CodeOutOfRange      = "out_of_range"
	CodeInvalidKind     = "invalid_kind"
	CodeInvalidValue    = "invalid_value"
	CodeUnknownOption   = "unknown_option"
	CodeUnknownInput    = "unknown_input"
	CodeUnknownItem     = "unknown_item"
	CodeNANotAllowed    = "na_not_allowed"
	CodeTieNotAllowed   = "tie_not_allowed"
	CodeTooShort        = "too_short"
	CodeTooLong         = "too_long"
	CodeTooFew          = "too_few"
	CodeTooMany         = "too_many"
	CodeUnknownQuestion = "unknown_question"
	CodeInvalidType     = "invalid_type"
	CodeDuplicateKey    = "duplicate_key"
	CodeInvalidKey      = "invalid_key"
	CodeInvalidSyntax   = "invalid_syntax"
	CodeInvalidRole     = "invalid_role"
	// CodeNotMissing: "missing" was given for a question whose inputs are
	// all there (or by a person rather than the system).
	CodeNotMissing = "not_missing"
	// CodeInputMissing: a question was answered although the item lacks an
	// input it needs; the system answers it "missing".
	CodeInputMissing = "input_missing"
)

// FieldError is one problem with one field: a stable machine-readable code and
// a message a person can act on.
type FieldError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// FieldErrors maps a field path (for a schema, e.g. "questions[3].anchors")
// or a question key (for answers) to its error. It implements error so that
// it can be returned directly; use Err to turn an empty map into nil.
type FieldErrors map[string]FieldError

// Error lists every problem in key order, one per line.
func (fe FieldErrors) Error() string {
	keys := make([]string, 0, len(fe))
	for k := range fe {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s (%s)", k, fe[k].Message, fe[k].Code)
	}
	return b.String()
}

// Err returns nil when there are no errors and fe otherwise, so callers can
// write `if err := s.Validate(); err != nil`.
func (fe FieldErrors) Err() error {
	if len(fe) == 0 {
		return nil
	}
	return fe
}

// add records the first error for a path; later errors on the same path are
// dropped so the client sees the most basic problem first.
func (fe FieldErrors) add(path, code, format string, args ...any) {
	if _, ok := fe[path]; ok {
		return
	}
	fe[path] = FieldError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Add records a problem with a field; the first problem recorded for a path wins.
func (fe FieldErrors) Add(path, code, format string, args ...any) {
	fe.add(path, code, format, args...)
}

// Field returns an error for one field, for callers that find one problem and stop.
func Field(path, code, format string, args ...any) error {
	fe := FieldErrors{}
	fe.add(path, code, format, args...)
	return fe
}

// Prefixed puts prefix before every path of err's field errors ("schema." + "questions[2]");
// any other error is returned as it is.
func Prefixed(err error, prefix string) error {
	var fe FieldErrors
	if !errors.As(err, &fe) {
		return err
	}
	out := make(FieldErrors, len(fe))
	for k, v := range fe {
		out[prefix+k] = v
	}
	return out
}
