package api

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// uploadAsset streams one multipart file part into the project's media; nothing is buffered
// whole and nothing is recorded unless the upload completes.
func (s *Server) uploadAsset(c *gin.Context) error {
	// note: every byte of the body counts, the form's other fields too
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.cfg.MaxUploadBytes+multipartSlack)
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return fail(http.StatusBadRequest, CodeBadRequest, "expected a multipart/form-data body with a \"file\" part")
	}
	part, err := filePart(mr)
	if err != nil {
		return err
	}
	defer part.Close()
	a, err := s.media.Upload(c.Request.Context(), currentProject(c).ID, currentUser(c).ID, part.FileName(), part)
	if err != nil {
		return err
	}
	c.JSON(http.StatusCreated, media.AssetViewOf(a))
	return nil
}

func isMaxBytes(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

// projectStorage says how many bytes the project stores, against its quota.
func (s *Server) projectStorage(c *gin.Context) error {
	st, err := s.media.Storage(c.Request.Context(), currentProject(c))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, st)
	return nil
}

type quotaRequest struct {
	QuotaBytes *int64 `json:"quota_bytes"`
}

// setStorageQuota sets the project's storage quota (administrators).
func (s *Server) setStorageQuota(c *gin.Context) error {
	var req quotaRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	st, err := s.media.SetQuota(c.Request.Context(), currentUser(c), currentProject(c), req.QuotaBytes)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, st)
	return nil
}

// assetURL returns a short-lived signed URL for an asset of a project the caller belongs to,
// unless the caller's open pass hides it.
func (s *Server) assetURL(c *gin.Context) error {
	u, err := s.flow.AssetURL(c.Request.Context(), currentUser(c), c.Param("aid"))
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, u)
	return nil
}

// serveBlob serves a local blob to anyone holding a valid signed URL, with range requests so
// video and audio can seek.
func (s *Server) serveBlob(c *gin.Context) error {
	local, ok := s.blobs.(*blob.Local)
	if !ok {
		return &store.NotFoundError{What: "blob"}
	}
	key := strings.TrimPrefix(c.Param("key"), "/")
	ct, err := local.Verify(key, c.Request.URL.Query())
	if err != nil {
		return fail(http.StatusForbidden, CodeForbidden, "%s", err.Error())
	}
	f, err := local.Open(key)
	if err != nil {
		return store.Missing(translateBlob(err), "blob")
	}
	defer f.Close()
	h := c.Writer.Header()
	ct, disposition := blob.Served(ct)
	h.Set("Content-Type", ct)
	h.Set("Content-Disposition", disposition)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox")
	h.Set("Cache-Control", "private, max-age=600")
	// note: no Last-Modified: upload times would tell the order in which candidates were stored
	http.ServeContent(c.Writer, c.Request, "", time.Time{}, f)
	return nil
}

func translateBlob(err error) error {
	if errors.Is(err, blob.ErrNotFound) {
		return store.ErrNotFound
	}
	return err
}

// multipartSlack is what a multipart upload may carry beyond its file's size limit: part
// headers, boundaries and a few small form fields.
const multipartSlack = 1 << 20

// maxFormParts bounds the parts of an upload's form; the product's forms have two or three.
const maxFormParts = 16

// errTooManyParts refuses a form of more parts than maxFormParts.
var errTooManyParts = fail(http.StatusBadRequest, CodeBadRequest, "the form has more than %d parts", maxFormParts)

// filePart returns the part named "file", skipping at most a few other fields.
func filePart(mr *multipart.Reader) (*multipart.Part, error) {
	for n := 0; ; n++ {
		if n == maxFormParts {
			return nil, errTooManyParts
		}
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, &Error{Status: http.StatusBadRequest, Code: CodeBadRequest, Message: "the form has no \"file\" part",
				Details: tasks.FieldErrors{"file": {Code: "required", Message: "attach the file as the form field \"file\""}}}
		}
		if isMaxBytes(err) {
			return nil, err
		}
		if err != nil {
			return nil, fail(http.StatusBadRequest, CodeBadRequest, "malformed multipart body: %v", err)
		}
		if part.FormName() == "file" {
			return part, nil
		}
		part.Close()
	}
}
