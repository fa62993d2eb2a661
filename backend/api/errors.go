package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// Stable error codes of the API. Clients branch on these, never on messages.
const (
	CodeBadRequest       = "bad_request"
	CodeInvalidJSON      = "invalid_json"
	CodeValidation       = "validation_failed"
	CodeUnauthorized     = "unauthorized"
	CodeTokenExpired     = "token_expired"
	CodeRefreshReused    = "refresh_token_reused"
	CodeForbidden        = "forbidden"
	CodeNotFound         = "not_found"
	CodeConflict         = "conflict"
	CodePayloadTooLarge  = "payload_too_large"
	CodeUnsupportedMedia = "unsupported_media_type"
	CodeRateLimited      = "rate_limited"
	CodeInternal         = "internal"
	CodeUnavailable      = "unavailable"
)

// Error is an error with an HTTP status, a stable code and a message a person can act on.
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

// notFound is the answer for anything the caller may not know exists.
func notFound(what string) *Error {
	return fail(http.StatusNotFound, CodeNotFound, "%s not found", what)
}

// FieldErrors are per-field problems, keyed by a path such as "roles[1]" or a question key.
type FieldErrors map[string]FieldError

// FieldError is one field's problem.
type FieldError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Err returns a validation *Error, or nil when there is no problem.
func (fe FieldErrors) Err() error {
	if len(fe) == 0 {
		return nil
	}
	return &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidation, Message: "the request has invalid fields", Details: fe}
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

// wrap turns a handler into a gin.HandlerFunc with one error writer.
func wrap(h handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := h(c); err != nil {
			writeError(c, err)
		}
	}
}

// writeError writes the one JSON error shape; unexpected errors are logged, never shown.
func writeError(c *gin.Context, err error) {
	var e *Error
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &e):
	case errors.Is(err, store.ErrNotFound):
		e = notFound("resource")
	case errors.Is(err, store.ErrConflict):
		e = fail(http.StatusConflict, CodeConflict, "the resource already exists or was changed by someone else")
	case errors.As(err, &mbe):
		e = fail(http.StatusRequestEntityTooLarge, CodePayloadTooLarge, "request body exceeds %d bytes", mbe.Limit)
	case errors.Is(err, context.Canceled):
		e = fail(499, "client_closed_request", "the client went away")
	default:
		slog.ErrorContext(c.Request.Context(), "request failed", "err", err, "request_id", c.GetString(ctxRequestID))
		e = fail(http.StatusInternalServerError, CodeInternal, "internal error (request id %s)", c.GetString(ctxRequestID))
	}
	c.Header("Cache-Control", "no-store")
	c.AbortWithStatusJSON(e.Status, errorBody{errorPayload{e.Code, e.Message, e.Details}})
}

// maxJSONBody bounds JSON request bodies.
const maxJSONBody = 1 << 20

// bindJSON decodes exactly one JSON object into dst; unknown fields are refused so that a
// client cannot set what it should not (mass assignment) and typos do not pass silently.
func bindJSON(c *gin.Context, dst any) error {
	ct := c.ContentType()
	if ct != "" && ct != "application/json" {
		return fail(http.StatusUnsupportedMediaType, CodeUnsupportedMedia, "expected application/json, got %s", ct)
	}
	dec := json.NewDecoder(http.MaxBytesReader(c.Writer, c.Request.Body, maxJSONBody))
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
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &Error{Status: http.StatusBadRequest, Code: CodeInvalidJSON,
			Message: fmt.Sprintf("unknown field %q", field), Details: map[string]any{"field": field}}
	}
	return fail(http.StatusBadRequest, CodeInvalidJSON, "malformed JSON: %v", err)
}
