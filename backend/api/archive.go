package api

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// importWithArchive handles a multipart import: a "media" part holding a zip archive, then an
// "items" part holding the NDJSON. Item inputs that name files of the archive (as strings or
// {"url": ...}) become assets, each stored once per project (by sha256).
func (s *Server) importWithArchive(c *gin.Context, fp *workflow.Project) error {
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return fail(http.StatusBadRequest, CodeBadRequest, "expected multipart/form-data with a \"media\" zip part, then an \"items\" part")
	}
	var archive *zip.Reader
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return FieldErrors{"items": {"required", "the form has no \"items\" part (it must come after \"media\")"}}.Err()
		}
		if err != nil {
			return fail(http.StatusBadRequest, CodeBadRequest, "malformed multipart body: %v", err)
		}
		switch part.FormName() {
		case "media":
			if archive, err = s.spoolZip(c, part); err != nil {
				return err
			}
		case "items":
			resolve := s.archiveResolver(fp.ID, currentUser(c).ID, archive)
			rep, err := s.flow.ImportItemsWithMedia(c.Request.Context(), fp, currentUser(c).ID, part, nil, resolve)
			if err != nil {
				return err
			}
			c.JSON(http.StatusOK, rep)
			return nil
		}
		part.Close()
	}
}

// spoolZip copies the archive part to a temporary file (zip needs random access), bounded by
// the upload limit; the file is removed when the request ends.
func (s *Server) spoolZip(c *gin.Context, part *multipart.Part) (*zip.Reader, error) {
	f, err := os.CreateTemp("", "arbiter-media-*.zip")
	if err != nil {
		return nil, err
	}
	go func() { <-c.Request.Context().Done(); f.Close(); os.Remove(f.Name()) }()
	n, err := io.Copy(f, io.LimitReader(part, s.cfg.MaxUploadBytes+1))
	if err != nil {
		return nil, err
	}
	if n > s.cfg.MaxUploadBytes {
		return nil, fail(http.StatusRequestEntityTooLarge, CodePayloadTooLarge, "media archive exceeds %d bytes", s.cfg.MaxUploadBytes)
	}
	z, err := zip.NewReader(f, n)
	if err != nil {
		return nil, FieldErrors{"media": {"invalid_archive", "the media part is not a zip archive: " + err.Error()}}.Err()
	}
	return z, nil
}

// archiveResolver stores archive files as assets on first use, reusing an asset of the project
// with the same bytes.
func (s *Server) archiveResolver(projectID, userID string, z *zip.Reader) workflow.MediaResolver {
	if z == nil {
		return nil
	}
	files := map[string]*zip.File{}
	for _, f := range z.File {
		if !f.FileInfo().IsDir() {
			files[path.Clean(strings.TrimPrefix(f.Name, "./"))] = f
		}
	}
	done := map[string]string{}
	return func(ctx context.Context, p string) (string, bool, error) {
		name := path.Clean(strings.TrimPrefix(p, "./"))
		f, ok := files[name]
		if !ok {
			return "", false, nil
		}
		if id, ok := done[name]; ok {
			return id, true, nil
		}
		id, err := s.archiveAsset(ctx, projectID, userID, f)
		if err != nil {
			return "", false, err
		}
		done[name] = id
		return id, true, nil
	}
}

func (s *Server) archiveAsset(ctx context.Context, projectID, userID string, f *zip.File) (string, error) {
	sum, err := zipSHA256(f)
	if err != nil {
		return "", err
	}
	if a, err := s.store.AssetBySHA256(ctx, projectID, sum); err == nil {
		return a.ID, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	r, err := f.Open()
	if err != nil {
		return "", err
	}
	defer r.Close()
	a, err := s.storeAsset(ctx, projectID, userID, f.Name, r)
	if err != nil {
		return "", err
	}
	return a.ID, nil
}

func zipSHA256(f *zip.File) (string, error) {
	r, err := f.Open()
	if err != nil {
		return "", err
	}
	defer r.Close()
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
