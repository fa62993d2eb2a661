package api

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

var errTooLarge = errors.New("upload too large")

// uploadAsset streams one multipart file part into the blob store, hashing and counting it on
// the way; nothing is buffered whole and nothing is recorded unless the upload completes.
func (s *Server) uploadAsset(c *gin.Context) error {
	p := currentProject(c)
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return fail(http.StatusBadRequest, CodeBadRequest, "expected a multipart/form-data body with a \"file\" part")
	}
	part, err := filePart(mr)
	if err != nil {
		return err
	}
	defer part.Close()
	a, err := s.storeAsset(c.Request.Context(), p.ID, currentUser(c).ID, part.FileName(), part)
	if err != nil {
		return err
	}
	c.JSON(http.StatusCreated, a)
	return nil
}

func isMaxBytes(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

// countingReader hashes (when h is set) and counts what passes and fails once more than limit bytes have.
type countingReader struct {
	r     io.Reader
	h     hash.Hash
	n     int64
	limit int64
}

func (cr *countingReader) Read(p []byte) (int, error) {
	n, err := cr.r.Read(p)
	cr.n += int64(n)
	if cr.h != nil {
		cr.h.Write(p[:n])
	}
	if cr.n > cr.limit {
		return n, errTooLarge
	}
	return n, err
}

// storeAsset streams r into the blob store, hashing, counting and sniffing it on the way, and
// records the asset; nothing is recorded unless the bytes are stored whole.
func (s *Server) storeAsset(ctx context.Context, projectID, userID, filename string, r io.Reader) (*store.Asset, error) {
	id := store.NewAssetID()
	key := "projects/" + projectID + "/assets/" + id
	body := &countingReader{r: r, h: sha256.New(), limit: s.cfg.MaxUploadBytes}
	br := bufio.NewReaderSize(body, 4096)
	head, _ := br.Peek(512)
	ct := sniffContentType(head, filename)
	if err := s.blobs.Put(ctx, key, br, -1, ct); err != nil {
		s.blobs.Delete(ctx, key)
		if errors.Is(err, errTooLarge) || isMaxBytes(err) {
			return nil, fail(http.StatusRequestEntityTooLarge, CodePayloadTooLarge, "file exceeds the upload limit of %d bytes", s.cfg.MaxUploadBytes)
		}
		return nil, err
	}
	a := &store.Asset{ID: id, ProjectID: projectID, BlobKey: key, Filename: path.Base(filename), ContentType: ct,
		Bytes: body.n, SHA256: hex.EncodeToString(body.h.Sum(nil)), CreatedBy: userID, CreatedAt: time.Now().UTC()}
	if err := s.store.CreateAsset(ctx, a); err != nil {
		s.blobs.Delete(ctx, key)
		return nil, err
	}
	return a, nil
}

// genericTypes are sniffed types that say little; the file extension may say more.
var genericTypes = map[string]bool{"application/octet-stream": true, "text/plain; charset=utf-8": true}

// extraTypes covers media the standard library does not know by extension.
var extraTypes = map[string]string{".glb": "model/gltf-binary", ".gltf": "model/gltf+json", ".wav": "audio/wav",
	".mp3": "audio/mpeg", ".flac": "audio/flac", ".webm": "video/webm", ".mp4": "video/mp4", ".m4a": "audio/mp4"}

// sniffContentType decides the stored type from the bytes first, then the extension. HTML is
// never stored as HTML, so a signed URL can never serve active content.
func sniffContentType(head []byte, filename string) string {
	ct := http.DetectContentType(head)
	if genericTypes[ct] {
		ext := strings.ToLower(path.Ext(filename))
		if t, ok := extraTypes[ext]; ok {
			return t
		}
		if t := mime.TypeByExtension(ext); t != "" && !strings.Contains(t, "html") && !strings.Contains(t, "javascript") {
			return t
		}
	}
	if strings.HasPrefix(ct, "text/html") || strings.Contains(ct, "xml") {
		return "text/plain; charset=utf-8"
	}
	return ct
}

// assetURL returns a short-lived signed URL for an asset of a project the caller belongs to.
func (s *Server) assetURL(c *gin.Context) error {
	ctx := c.Request.Context()
	a, err := s.store.Asset(ctx, c.Param("aid"))
	if err != nil {
		return mapNotFound(err, "asset")
	}
	if u := currentUser(c); !u.IsAdmin {
		if _, err := s.store.Member(ctx, a.ProjectID, u.ID); err != nil {
			return mapNotFound(err, "asset")
		}
	}
	ttl := s.cfg.SignedURLTTL
	url, err := s.blobs.SignedURL(ctx, a.BlobKey, ttl, a.ContentType)
	if err != nil {
		return err
	}
	if strings.HasPrefix(url, "/") {
		url = strings.TrimRight(s.cfg.PublicURL, "/") + url
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, gin.H{"url": url, "expires_at": time.Now().Add(ttl).UTC(), "content_type": a.ContentType})
	return nil
}

// serveBlob serves a local blob to anyone holding a valid signed URL, with range requests so
// video and audio can seek.
func (s *Server) serveBlob(c *gin.Context) error {
	local, ok := s.blobs.(*blob.Local)
	if !ok {
		return notFound("blob")
	}
	key := strings.TrimPrefix(c.Param("key"), "/")
	ct, err := local.Verify(key, c.Request.URL.Query())
	if err != nil {
		return fail(http.StatusForbidden, CodeForbidden, "%s", err.Error())
	}
	f, err := local.Open(key)
	if err != nil {
		return mapNotFound(translateBlob(err), "blob")
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	h := c.Writer.Header()
	h.Set("Content-Type", ct)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox")
	h.Set("Cache-Control", "private, max-age=600")
	http.ServeContent(c.Writer, c.Request, "", st.ModTime(), f)
	return nil
}

func translateBlob(err error) error {
	if errors.Is(err, blob.ErrNotFound) {
		return store.ErrNotFound
	}
	return err
}

// filePart returns the part named "file", skipping other fields.
func filePart(mr *multipart.Reader) (*multipart.Part, error) {
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, &Error{Status: http.StatusBadRequest, Code: CodeBadRequest, Message: "the form has no \"file\" part",
				Details: FieldErrors{"file": {"required", "attach the file as the form field \"file\""}}}
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
