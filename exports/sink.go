package exports

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Sink receives the files of a release. Every writer creates its files
// through it; paths are slash-separated and relative ("data/test.parquet").
// A file is complete once its WriteCloser is closed without error.
type Sink interface {
	Create(path string) (io.WriteCloser, error)
}

// Compile-time checks that the provided sinks satisfy Sink.
var (
	_ Sink = (*DirSink)(nil)
	_ Sink = (*MemorySink)(nil)
)

// validPath reports whether p is a clean relative slash path without "..".
func validPath(p string) error {
	if p == "" || !fs.ValidPath(p) || strings.Contains(p, "\\") {
		return fmt.Errorf("exports: invalid file path %q", p)
	}
	return nil
}

// DirSink writes release files under a directory, creating parent
// directories as needed. It is what tests and the command line use.
type DirSink struct {
	// Root is the directory the release is written to.
	Root string
}

// Create creates (or truncates) Root/p.
func (d *DirSink) Create(p string) (io.WriteCloser, error) {
	if err := validPath(p); err != nil {
		return nil, err
	}
	full := filepath.Join(d.Root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return nil, err
	}
	return os.Create(full)
}

// MemorySink keeps release files in memory, for tests and small releases.
// It is safe for concurrent use.
type MemorySink struct {
	mu    sync.Mutex
	files map[string]*bytes.Buffer
}

// Create starts an in-memory file; creating a path twice replaces it.
func (m *MemorySink) Create(p string) (io.WriteCloser, error) {
	if err := validPath(p); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.files == nil {
		m.files = map[string]*bytes.Buffer{}
	}
	b := &bytes.Buffer{}
	m.files[p] = b
	return memFile{b, &m.mu}, nil
}

// Paths lists the files created, sorted.
func (m *MemorySink) Paths() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.files))
	for p := range m.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// File returns the bytes written to p.
func (m *MemorySink) File(p string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[path.Clean(p)]
	if !ok {
		return nil, false
	}
	return b.Bytes(), true
}

// memFile is one in-memory file.
type memFile struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

// Write appends to the in-memory file.
func (f memFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.b.Write(p)
}

// Close does nothing: the bytes stay in the sink.
func (f memFile) Close() error { return nil }
