package releases

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// downloadTTL is how long a signed URL to a release file stays valid.
const downloadTTL = 15 * time.Minute

// redirectTTL is how long the object store's URL a signed download link redirects to stays
// valid: only for the download it starts, so that the link's own checks decide who gets it.
const redirectTTL = time.Minute

// localOpener is a blob store whose files the server serves itself (the local directory).
type localOpener interface {
	Open(key string) (*os.File, error)
}

// Download is how one release file reaches a client: an open local file the server serves
// (with range requests), or a signed URL of the object store to redirect to.
type Download struct {
	File  store.ReleaseFile
	Local *os.File
	URL   string
}

// done returns a done release of the project.
func (s *Service) done(ctx context.Context, projectID, id string) (*store.Release, error) {
	r, err := s.store.Release(ctx, projectID, id)
	if err != nil {
		return nil, store.Missing(err, "release")
	}
	if r.Status != flow.ReleaseDone {
		return nil, ErrNotDone
	}
	return r, nil
}

// File finds a listed file of a done release. Only listed files are served: a failed
// release's leftovers never are.
func (s *Service) File(ctx context.Context, projectID, releaseID, p string) (*Download, error) {
	return s.file(ctx, projectID, releaseID, p, downloadTTL)
}

// file finds a listed file of a done release; an object store's URL to it is valid for ttl.
func (s *Service) file(ctx context.Context, projectID, releaseID, p string, ttl time.Duration) (*Download, error) {
	r, err := s.done(ctx, projectID, releaseID)
	if err != nil {
		return nil, err
	}
	f, err := s.store.ReleaseFileAt(ctx, r.ID, strings.TrimPrefix(p, "/"))
	if err != nil {
		return nil, store.Missing(err, "release file")
	}
	if o, ok := s.blobs.(localOpener); ok {
		fh, err := o.Open(f.BlobKey)
		if err != nil {
			return nil, store.Missing(translateBlob(err), "release file")
		}
		return &Download{File: *f, Local: fh}, nil
	}
	url, err := s.blobs.SignedURL(ctx, f.BlobKey, ttl, f.ContentType)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(url, "/") {
		url = s.publicURL + url
	}
	return &Download{File: *f, URL: url}, nil
}

func translateBlob(err error) error {
	if errors.Is(err, blob.ErrNotFound) {
		return store.ErrNotFound
	}
	return err
}

// Archive is a done release ready to be written as one zip.
type Archive struct {
	// Name is the zip's file name, from the project and release names.
	Name  string
	dir   string
	at    time.Time
	files []store.ReleaseFile
	blobs blob.Store
}

// unsafeName matches what a file name of an archive should not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Archive prepares the zip of a done release; nothing is read until WriteTo.
func (s *Service) Archive(ctx context.Context, projectID, releaseID, projectName string) (*Archive, error) {
	r, err := s.done(ctx, projectID, releaseID)
	if err != nil {
		return nil, err
	}
	files, err := s.store.ReleaseFiles(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	dir := strings.Trim(unsafeName.ReplaceAllString(projectName+"-"+r.Name, "-"), "-.")
	if dir == "" {
		dir = "release-" + r.ID
	}
	at := r.CreatedAt
	if r.FinishedAt != nil {
		at = *r.FinishedAt
	}
	return &Archive{Name: dir + ".zip", dir: dir, at: at, files: files, blobs: s.blobs}, nil
}

// stored are the types kept as they are in an archive: already compressed.
func stored(f store.ReleaseFile) bool {
	return f.Format == "media" || strings.HasSuffix(f.Path, ".parquet")
}

// WriteTo streams the zip to w, each file read from the blob store in turn, under one folder.
// An error after the first byte leaves w with a truncated zip, which no unzip accepts.
func (a *Archive) WriteTo(ctx context.Context, w io.Writer) error {
	zw := zip.NewWriter(w)
	for _, f := range a.files {
		h := &zip.FileHeader{Name: a.dir + "/" + f.Path, Method: zip.Deflate, Modified: a.at.UTC()}
		if stored(f) {
			h.Method = zip.Store
		}
		dst, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		r, err := a.blobs.Get(ctx, f.BlobKey)
		if err != nil {
			return fmt.Errorf("read %s: %w", f.Path, err)
		}
		_, err = io.Copy(dst, r)
		r.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", f.Path, err)
		}
	}
	return zw.Close()
}
