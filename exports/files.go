package exports

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"slices"
	"strings"
	"sync"
)

// FileEntry is one file of a release as the manifest lists it.
type FileEntry struct {
	// Path is relative to the release root, slash-separated.
	Path string `json:"path"`
	// Format is the format that wrote the file ("jsonl", "hf", ...), or
	// "release" for the manifest's companions (README.md, agreement.json).
	Format string `json:"format"`
	// Bytes is the file size.
	Bytes int64 `json:"bytes"`
	// SHA256 is the hex SHA-256 of the file's bytes.
	SHA256 string `json:"sha256"`
	// Records counts the records (rows, array elements, lines) the file
	// holds; 0 for files that are not record collections.
	Records int64 `json:"records"`
}

// fileSet wraps a Sink: every file is buffered, hashed and counted, and
// listed once closed.
type fileSet struct {
	mu     sync.Mutex // writers run concurrently
	sink   Sink
	open   map[string]bool
	closed []FileEntry
}

func newFileSet(s Sink) *fileSet { return &fileSet{sink: s, open: map[string]bool{}} }

// create opens a release file for format; a path may be created only once.
func (fs *fileSet) create(path, format string) (*outFile, error) {
	if err := validPath(path); err != nil {
		return nil, err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.open[path] {
		return nil, fmt.Errorf("exports: %s is written twice", path)
	}
	w, err := fs.sink.Create(path)
	if err != nil {
		return nil, fmt.Errorf("exports: create %s: %w", path, err)
	}
	fs.open[path] = true
	f := &outFile{set: fs, entry: FileEntry{Path: path, Format: format}, dst: w, hash: sha256.New()}
	f.Writer = bufio.NewWriterSize(hashWriter{f}, 64<<10)
	return f, nil
}

// entries returns the closed files sorted by path.
func (fs *fileSet) entries() []FileEntry {
	fs.mu.Lock()
	out := slices.Clone(fs.closed)
	fs.mu.Unlock()
	slices.SortFunc(out, func(a, b FileEntry) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// outFile is one release file being written. Writers write through the
// embedded buffered writer and count their records in Records.
type outFile struct {
	*bufio.Writer
	set   *fileSet
	entry FileEntry
	dst   io.WriteCloser
	hash  hash.Hash
}

// hashWriter sends buffered bytes to the hash, the byte count and the sink.
type hashWriter struct{ f *outFile }

// Write passes p to the sink, the hash and the byte count.
func (h hashWriter) Write(p []byte) (int, error) {
	n, err := h.f.dst.Write(p)
	h.f.hash.Write(p[:n])
	h.f.entry.Bytes += int64(n)
	return n, err
}

// record counts one record written to the file.
func (f *outFile) record() { f.entry.Records++ }

// Close flushes the file, closes it in the sink and lists it.
func (f *outFile) Close() error {
	if err := f.Flush(); err != nil {
		f.dst.Close()
		return fmt.Errorf("exports: write %s: %w", f.entry.Path, err)
	}
	if err := f.dst.Close(); err != nil {
		return fmt.Errorf("exports: close %s: %w", f.entry.Path, err)
	}
	f.entry.SHA256 = hex.EncodeToString(f.hash.Sum(nil))
	f.set.mu.Lock()
	f.set.closed = append(f.set.closed, f.entry)
	f.set.mu.Unlock()
	return nil
}
