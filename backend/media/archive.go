package media

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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

// ArchiveFiles are the files of an archive as the media of one project's import.
type ArchiveFiles struct {
	a                 *Archive
	projectID, userID string
	done              map[string]string // cleaned name → asset id
}

// Files gives the archive's files to an import into the project by the user.
func (a *Archive) Files(projectID, userID string) *ArchiveFiles {
	return &ArchiveFiles{a: a, projectID: projectID, userID: userID, done: map[string]string{}}
}

// Check refuses a path the archive does not hold, or a file whose bytes are not a medium of
// type t, as its upload would sniff them.
func (f *ArchiveFiles) Check(p string, t tasks.InputType) *tasks.FieldError {
	zf, ok := f.a.files[cleanName(p)]
	if !ok {
		return &tasks.FieldError{Code: CodeMissingMedia, Message: fmt.Sprintf("the media archive holds no file %q", p)}
	}
	r, err := zf.Open()
	if err != nil {
		return &tasks.FieldError{Code: CodeMissingMedia, Message: fmt.Sprintf("%s cannot be read from the archive: %v", p, err)}
	}
	defer r.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(r, head)
	if ct := SniffContentType(head[:n], zf.Name); !Fits(t, ct) {
		return &tasks.FieldError{Code: CodeWrongMedia, Message: fmt.Sprintf("%s is %s, not %s", p, Describe(ct), Medium(t))}
	}
	return nil
}

// AssetID returns the project's asset with the bytes of the archive's file at p, storing the
// file on first use and reusing an asset of the project with the same bytes.
func (f *ArchiveFiles) AssetID(ctx context.Context, p string) (string, error) {
	name := cleanName(p)
	zf, ok := f.a.files[name]
	if !ok {
		return "", fmt.Errorf("the media archive holds no file %q", p)
	}
	if id, ok := f.done[name]; ok {
		return id, nil
	}
	id, err := f.a.m.fromArchive(ctx, f.projectID, f.userID, zf)
	if err != nil {
		return "", err
	}
	f.done[name] = id
	return id, nil
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
