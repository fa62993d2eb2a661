package releases

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"path"
	"sync"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	quota "github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/exports"
)

// folder is where a release's files live in the blob store.
func folder(projectID, releaseID string) string { return "releases/" + projectID + "/" + releaseID }

// keyPrefix is the start of the keys of a release's files.
func keyPrefix(projectID, releaseID string) string { return folder(projectID, releaseID) + "/" }

// contentTypes are the types release files are stored and served with, by extension.
var contentTypes = map[string]string{
	".json": "application/json", ".jsonl": "application/x-ndjson", ".csv": "text/csv; charset=utf-8",
	".parquet": "application/vnd.apache.parquet", ".md": "text/markdown; charset=utf-8",
}

// contentTypeOf is the type of a release file written by exports.
func contentTypeOf(p string) string {
	if ct, ok := contentTypes[path.Ext(p)]; ok {
		return ct
	}
	return blob.Download
}

// written is one file the sink stored whole.
type written struct {
	Bytes       int64
	SHA256      string
	ContentType string
	Key         string
}

// reserveChunk is how many bytes a release reserves of its project's storage quota at a time.
const reserveChunk = 8 << 20

// blobSink is the exports.Sink of a release: each file streams through a pipe into one blob
// Put (S3 uploads of unknown size go up in parts), so nothing is held whole in memory. It
// hashes what it stores; a failed release removes its whole folder. Every byte is reserved
// of the project's storage quota before it is written, and a reservation the quota refuses
// fails the release.
type blobSink struct {
	ctx     context.Context
	blobs   blob.Store
	prefix  string
	reserve func(n int64) error

	mu    sync.Mutex
	files map[string]written

	charge            sync.Mutex
	written, reserved int64
}

var _ exports.Sink = (*blobSink)(nil)

func newBlobSink(ctx context.Context, blobs blob.Store, prefix string, reserve func(n int64) error) *blobSink {
	return &blobSink{ctx: ctx, blobs: blobs, prefix: prefix, reserve: reserve, files: map[string]written{}}
}

// take counts n more bytes written, reserving room for them first when what was reserved is
// used up: reserveChunk at a time, or only what is needed when the quota has less room left.
func (s *blobSink) take(n int64) error {
	s.charge.Lock()
	defer s.charge.Unlock()
	if need := s.written + n - s.reserved; need > 0 {
		more := max(reserveChunk, need)
		err := s.reserve(more)
		if errors.Is(err, quota.ErrQuotaExceeded) {
			more, err = need, s.reserve(need)
		}
		if err != nil {
			return err
		}
		s.reserved += more
	}
	s.written += n
	return nil
}

// Create starts a release file.
func (s *blobSink) Create(p string) (io.WriteCloser, error) { return s.create(p, contentTypeOf(p)) }

// errAborted ends a file whose upload stopped before the writer finished.
var errAborted = errors.New("the blob store stopped reading the file")

func (s *blobSink) create(p, contentType string) (*blobFile, error) {
	key := s.prefix + p
	if err := blob.ValidKey(key); err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	f := &blobFile{sink: s, path: p, key: key, contentType: contentType, pw: pw, hash: sha256.New(), done: make(chan error, 1)}
	go func() {
		err := s.blobs.Put(s.ctx, key, pr, -1, contentType)
		// note: a Put that returns early (the store is down) must not leave the writer blocked
		cause := errAborted
		if err != nil {
			cause = fmt.Errorf("the blob store did not take %s: %w", p, err)
		}
		pr.CloseWithError(cause)
		f.done <- err
	}()
	return f, nil
}

// stored returns what the sink stored under a release path.
func (s *blobSink) stored(p string) (written, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.files[p]
	return w, ok
}

// blobFile is one file on its way into the blob store.
type blobFile struct {
	sink        *blobSink
	path, key   string
	contentType string
	pw          *io.PipeWriter
	hash        hash.Hash
	n           int64
	done        chan error
	closed      bool
}

// Write sends p to the blob store, hashing and counting it, once the quota has room for it.
func (f *blobFile) Write(p []byte) (int, error) {
	if err := f.sink.take(int64(len(p))); err != nil {
		return 0, err
	}
	n, err := f.pw.Write(p)
	f.hash.Write(p[:n])
	f.n += int64(n)
	return n, err
}

// Close ends the file and waits for the blob store to have it whole.
func (f *blobFile) Close() error {
	if f.closed {
		return errors.New("release file closed twice")
	}
	f.closed = true
	f.pw.Close()
	if err := <-f.done; err != nil {
		return fmt.Errorf("the blob store did not take %s: %w", f.path, err)
	}
	s := f.sink
	s.mu.Lock()
	s.files[f.path] = written{Bytes: f.n, SHA256: hex.EncodeToString(f.hash.Sum(nil)), ContentType: f.contentType, Key: f.key}
	s.mu.Unlock()
	return nil
}
