package media

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Archive is an uploaded zip of media, spooled to a temporary file (zip needs random access).
type Archive struct {
	m     *Service
	file  *os.File
	zip   *zip.Reader
	files map[string]*zip.File
}

// OpenArchive spools r to a temporary file, bounded by the upload limit, and opens it as a
// zip. Close removes the file.
func (m *Service) OpenArchive(r io.Reader) (*Archive, error) {
	f, err := os.CreateTemp("", "arbiter-media-*.zip")
	if err != nil {
		return nil, err
	}
	a := &Archive{m: m, file: f}
	n, err := io.Copy(f, &blob.Counter{R: r, Limit: m.maxBytes})
	if err != nil {
		a.Close()
		return nil, TooLarge(err, m.maxBytes)
	}
	if a.zip, err = zip.NewReader(f, n); err != nil {
		a.Close()
		return nil, tasks.Field("media", "invalid_archive", "the media part is not a zip archive: %v", err)
	}
	if err := m.checkUnpacked(a.zip); err != nil {
		a.Close()
		return nil, err
	}
	a.files = map[string]*zip.File{}
	for _, zf := range a.zip.File {
		if !zf.FileInfo().IsDir() {
			a.files[cleanName(zf.Name)] = zf
		}
	}
	return a, nil
}

// MaxRatio is the largest compression ratio an archive entry may have: media files barely
// compress, and a zip bomb's entries compress a thousandfold.
const MaxRatio = 100

// checkUnpacked refuses an archive whose files would unpack to more than the upload limit in
// all, or whose entries, or all of them together, compress more than MaxRatio. The declared sizes can be trusted: the
// zip reader fails an entry whose bytes differ from its declared size.
func (m *Service) checkUnpacked(z *zip.Reader) error {
	var total, packed uint64
	for _, f := range z.File {
		if f.UncompressedSize64 > 1<<20 && f.UncompressedSize64 > MaxRatio*max(f.CompressedSize64, 1) {
			return tasks.Field("media", "compression_ratio", "%s unpacks %d times its packed size (at most %d)",
				f.Name, f.UncompressedSize64/max(f.CompressedSize64, 1), MaxRatio)
		}
		// note: checked entry by entry, so declared sizes near 2^64 cannot wrap the sum round
		total += f.UncompressedSize64
		if m.maxBytes > 0 && (f.UncompressedSize64 > uint64(m.maxBytes) || total > uint64(m.maxBytes)) {
			return &blob.TooLargeError{Limit: m.maxBytes}
		}
		packed += f.CompressedSize64
	}
	// note: the whole archive too, so that many small entries (each under the entry check's
	// floor) cannot unpack a thousandfold between them
	if total > 1<<20 && total > MaxRatio*max(packed, 1) {
		return tasks.Field("media", "compression_ratio", "the archive unpacks %d times its packed size (at most %d)", total/max(packed, 1), MaxRatio)
	}
	return nil
}

// Close removes the spooled file.
func (a *Archive) Close() error {
	a.file.Close()
	return os.Remove(a.file.Name())
}

func cleanName(p string) string { return path.Clean(strings.TrimPrefix(p, "./")) }

// Resolver maps a path inside the archive to an asset of the project, storing the file on
// first use and reusing an asset of the project with the same bytes. Paths the archive does
// not hold report ok=false.
func (a *Archive) Resolver(projectID, userID string) func(ctx context.Context, p string) (assetID string, ok bool, err error) {
	done := map[string]string{}
	return func(ctx context.Context, p string) (string, bool, error) {
		name := cleanName(p)
		f, ok := a.files[name]
		if !ok {
			return "", false, nil
		}
		if id, ok := done[name]; ok {
			return id, true, nil
		}
		id, err := a.m.fromArchive(ctx, projectID, userID, f)
		if err != nil {
			return "", false, err
		}
		done[name] = id
		return id, true, nil
	}
}

// fromArchive returns the project's asset with the file's bytes, storing it if there is none.
func (m *Service) fromArchive(ctx context.Context, projectID, userID string, f *zip.File) (string, error) {
	sum, err := zipSHA256(f)
	if err != nil {
		return "", err
	}
	if a, err := m.store.AssetBySHA256(ctx, projectID, sum); err == nil {
		return a.ID, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	r, err := f.Open()
	if err != nil {
		return "", err
	}
	defer r.Close()
	a, err := m.Upload(ctx, projectID, userID, f.Name, r)
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
