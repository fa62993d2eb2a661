package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/calibration"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Stable error codes of the API. Clients branch on these, never on messages.
const (
	CodeBadRequest        = "bad_request"
	CodeInvalidJSON       = "invalid_json"
	CodeValidation        = "validation_failed"
	CodeUnauthorized      = "unauthorized"
	CodeTokenExpired      = "token_expired"
	CodeRefreshReused     = "refresh_token_reused"
	CodeForbidden         = "forbidden"
	CodeInsufficientScope = "insufficient_scope"
	CodeCSRF              = "csrf_rejected"
	CodeNotFound          = "not_found"
	CodeConflict          = "conflict"
	CodePayloadTooLarge   = "payload_too_large"
	CodeUnsupportedMedia  = "unsupported_media_type"
	CodeRateLimited       = "rate_limited"
	CodeTooManyJobs       = "too_many_jobs"
	CodeInternal          = "internal"
	CodeUnavailable       = "unavailable"
)

// Error is an error with an HTTP status, a stable code and a message a person can act on,
// for the few answers that belong to HTTP itself (a wrong content type, a malformed body).
type Error struct {
	Status  int
	Code    string
	Message string
	Details any
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// fail returns an *Error.
func fail(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// rule maps one sentinel error of a service to its status and code. The message is the
// sentinel's own text, written for people, unless the rule gives one.
type rule struct {
	err     error
	status  int
	code    string
	message string
}

// rules is the one table from the services' errors to responses; the first match wins, so
// more specific errors come first.
var rules = []rule{
	{workflow.ErrStaleVersion, http.StatusConflict, "stale_version", ""},
	{workflow.ErrLeaseLost, http.StatusConflict, "lease_lost", ""},
	{workflow.ErrAlreadyDone, http.StatusConflict, "already_submitted", ""},
	{workflow.ErrHasDraft, http.StatusConflict, "has_draft", ""},
	{workflow.ErrNotActive, http.StatusConflict, CodeConflict, ""},
	{workflow.ErrItemNotInFlow, http.StatusConflict, CodeConflict, ""},
	{workflow.ErrNoSchema, http.StatusConflict, "no_schema", ""},
	{workflow.ErrArchived, http.StatusConflict, "archived", ""},
	{projects.ErrLastLead, http.StatusConflict, "last_lead", ""},
	{workflow.ErrPaused, http.StatusForbidden, "paused", ""},
	{workflow.ErrRoundClosed, http.StatusConflict, "round_closed", ""},
	{calibration.ErrRoundOpen, http.StatusConflict, "round_open", ""},
	{workflow.ErrNotQualified, http.StatusForbidden, "not_qualified", ""},
	{workflow.ErrRoleRequired, http.StatusForbidden, CodeForbidden, ""},
	{workflow.ErrOwnWork, http.StatusForbidden, CodeForbidden, ""},
	{workflow.ErrHiddenInPass, http.StatusForbidden, "hidden_in_pass", ""},
	{projects.ErrCannotCreate, http.StatusForbidden, CodeForbidden, ""},
	{imports.ErrNoJobs, http.StatusServiceUnavailable, CodeUnavailable, ""},
	{releases.ErrNoJobs, http.StatusServiceUnavailable, CodeUnavailable, ""},
	{releases.ErrNotDone, http.StatusConflict, "release_not_done", ""},
	{releases.ErrBadLink, http.StatusForbidden, CodeForbidden, ""},
	{auth.ErrEmailTaken, http.StatusConflict, CodeConflict, ""},
	{auth.ErrUnavailable, http.StatusServiceUnavailable, CodeUnavailable, ""},
	{auth.ErrBusy, http.StatusServiceUnavailable, CodeUnavailable, ""},
	{blob.ErrUnavailable, http.StatusServiceUnavailable, CodeUnavailable, ""},
	{auth.ErrOwnAccount, http.StatusConflict, "own_account", ""},
	{auth.ErrResetInvalid, http.StatusBadRequest, "reset_link_invalid", ""},
	{auth.ErrBadCredentials, http.StatusUnauthorized, CodeUnauthorized, "email or password is wrong"},
	{auth.ErrRefreshReused, http.StatusUnauthorized, CodeRefreshReused, ""},
	{auth.ErrRefreshInvalid, http.StatusUnauthorized, CodeUnauthorized, ""},
	{auth.ErrTokenExpired, http.StatusUnauthorized, CodeTokenExpired, "access token expired; refresh it"},
	{auth.ErrTokenInvalid, http.StatusUnauthorized, CodeUnauthorized, "invalid credentials"},
	{auth.ErrUnauthenticated, http.StatusUnauthorized, CodeUnauthorized, "invalid credentials"},
	{workflow.ErrNotYours, http.StatusNotFound, CodeNotFound, "assignment not found"},
	{store.ErrNotFound, http.StatusNotFound, CodeNotFound, "not found"},
	{store.ErrConflict, http.StatusConflict, CodeConflict, "the resource already exists or was changed by someone else"},
	{blob.ErrTooLarge, http.StatusRequestEntityTooLarge, CodePayloadTooLarge, ""},
	{media.ErrQuotaExceeded, http.StatusRequestEntityTooLarge, "quota_exceeded", ""},
	{media.ErrAdminOnly, http.StatusForbidden, CodeForbidden, ""},
}

// toError maps any error to the one error shape. Unknown errors become 500 and are logged
// with their cause by writeError; their text never reaches the client.
func toError(err error) (*Error, bool) {
	var e *Error
	var fe tasks.FieldErrors
	var nf *store.NotFoundError
	var tl *blob.TooLargeError
	var mbe *http.MaxBytesError
	var th *auth.ThrottledError
	var ie *imports.ImportError
	var tj *flow.TooManyJobsError
	switch {
	case errors.As(err, &e):
		return e, true
	case errors.As(err, &fe):
		return &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidation, Message: "the request has invalid fields", Details: fe}, true
	case errors.As(err, &nf):
		return fail(http.StatusNotFound, CodeNotFound, "%s", nf.Error()), true
	case errors.As(err, &tl):
		return fail(http.StatusRequestEntityTooLarge, CodePayloadTooLarge, "%s", tl.Error()), true
	case errors.As(err, &mbe):
		return fail(http.StatusRequestEntityTooLarge, CodePayloadTooLarge, "%s", (&blob.TooLargeError{Limit: mbe.Limit}).Error()), true
	case errors.As(err, &th):
		return &Error{Status: http.StatusTooManyRequests, Code: CodeRateLimited, Message: th.Error(),
			Details: map[string]any{"retry_after_seconds": th.RetrySeconds()}}, true
	case errors.As(err, &tj):
		return &Error{Status: http.StatusTooManyRequests, Code: CodeTooManyJobs, Message: tj.Error(),
			Details: map[string]any{"limit": tj.Limit}}, true
	case errors.Is(err, context.Canceled):
		return fail(499, "client_closed_request", "the client went away"), true
	case errors.As(err, &ie):
		// note: the client learns how far the import got; the cause goes to the log
		return &Error{Status: http.StatusInternalServerError, Code: "import_stopped", Details: ie.Report,
			Message: fmt.Sprintf("the import stopped after line %d; the lines before it are stored and importing the file again completes it", ie.Report.Lines)}, true
	}
	if store.Unavailable(err) && !errors.Is(err, blob.ErrUnavailable) {
		return fail(http.StatusServiceUnavailable, CodeUnavailable, "the database is unavailable; try again shortly"), true
	}
	for _, r := range rules {
		if errors.Is(err, r.err) {
			msg := r.message
			if msg == "" {
				msg = r.err.Error()
			}
			return &Error{Status: r.status, Code: r.code, Message: msg}, true
		}
	}
	return nil, false
}

type errorBody struct {
	Error errorPayload `json:"error"`
}

type errorPayload struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details any    `json:"details"`
}

// handler is a gin handler that returns its error instead of writing it.
type handler func(c *gin.Context) error

// wrap turns a handler into a gin.HandlerFunc with the server's one error writer.
func (s *Server) wrap(h handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := h(c); err != nil {
			s.writeError(c, err)
		}
	}
}

// writeError writes the one JSON error shape; unexpected errors are logged through the
// server's logger with the request id, never shown.
func (s *Server) writeError(c *gin.Context, err error) {
	e, ok := toError(err)
	if !ok || e.Status >= 500 {
		s.log.ErrorContext(c.Request.Context(), "request failed", "err", err, "request_id", c.GetString(ctxRequestID))
	}
	if !ok {
		e = fail(http.StatusInternalServerError, CodeInternal, "internal error (request id %s)", c.GetString(ctxRequestID))
	}
	var th *auth.ThrottledError
	var tj *flow.TooManyJobsError
	switch {
	case errors.As(err, &th):
		c.Header("Retry-After", strconv.Itoa(th.RetrySeconds()))
	case errors.As(err, &tj):
		c.Header("Retry-After", strconv.Itoa(retryJobsSeconds))
	case errors.Is(err, auth.ErrBusy):
		c.Header("Retry-After", "1")
	case e.Status == http.StatusServiceUnavailable:
		c.Header("Retry-After", strconv.Itoa(retryUnavailableSeconds))
	}
	c.Header("Cache-Control", "no-store")
	c.AbortWithStatusJSON(e.Status, errorBody{errorPayload{e.Code, e.Message, e.Details}})
}

// retryUnavailableSeconds is the Retry-After of a 503: long enough for a database to fail
// over, short enough that a person waiting does not give up.
const retryUnavailableSeconds = 5

// retryJobsSeconds is the Retry-After of a job refused because its project has too many.
const retryJobsSeconds = 30

// maxJSONBody bounds JSON request bodies.
const maxJSONBody = 1 << 20

// bindJSON decodes exactly one JSON object into dst; unknown fields are refused so that a
// client cannot set what it should not (mass assignment) and typos do not pass silently.
func bindJSON(c *gin.Context, dst any) error {
	ct := c.ContentType()
	if ct != "" && ct != "application/json" {
		return fail(http.StatusUnsupportedMediaType, CodeUnsupportedMedia, "expected application/json, got %s", ct)
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxJSONBody))
	if err != nil {
		return err
	}
	// note: text that SQLite and PostgreSQL would store differently (invalid UTF-8, NUL) is
	// refused here, naming its field, on both alike
	if err := tasks.CheckText(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fail(http.StatusBadRequest, CodeInvalidJSON, "the body must hold a single JSON value")
	}
	return nil
}

func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return err
	case errors.Is(err, io.EOF):
		return fail(http.StatusBadRequest, CodeInvalidJSON, "the request body is empty")
	case errors.As(err, &syn):
		return &Error{Status: http.StatusBadRequest, Code: CodeInvalidJSON,
			Message: fmt.Sprintf("malformed JSON at byte %d: %v", syn.Offset, syn), Details: map[string]any{"offset": syn.Offset}}
	case errors.As(err, &typ):
		return &Error{Status: http.StatusBadRequest, Code: CodeInvalidJSON,
			Message: fmt.Sprintf("field %q must be %s, not %s", typ.Field, typ.Type, typ.Value), Details: map[string]any{"field": typ.Field}}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// note: encoding/json has no typed error for unknown fields; this is its documented text
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &Error{Status: http.StatusBadRequest, Code: CodeInvalidJSON,
			Message: fmt.Sprintf("unknown field %q", field), Details: map[string]any{"field": field}}
	}
	return fail(http.StatusBadRequest, CodeInvalidJSON, "malformed JSON: %v", err)
}
