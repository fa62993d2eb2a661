package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/arbiter-annotation/arbiter/backend/blob"
)

func TestValidKey(t *testing.T) {
	for key, ok := range map[string]bool{
		"a": true, "projects/p1/assets/3f2a": true, "x y/ü.png": true, "a/.hidden": true, "a/..b": true, "a?b#c": true,
		"": false, "/a": false, "a/": false, "a//b": false, ".": false, "..": false, "a/./b": false, "a/../b": false,
		"../a": false, `a\b`: false, `\a`: false,
	} {
		if err := blob.ValidKey(key); (err == nil) != ok {
			t.Errorf("ValidKey(%q) = %v, want valid=%v", key, err, ok)
		}
	}
}

// TestCounter: bytes are counted and hashed as they pass; a limit lets exactly its bytes
// through and fails the first read past it with a TooLargeError; 0 is no limit.
func TestCounter(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 1000)
	cases := []struct {
		limit  int64
		tooBig bool
	}{{0, false}, {int64(len(data)), false}, {int64(len(data)) + 1, false}, {int64(len(data)) - 1, true}, {1, true}}
	for _, c := range cases {
		// note: one byte per read, so the limit is met exactly where it lies
		ctr := &blob.Counter{R: iotest.OneByteReader(bytes.NewReader(data)), Hash: sha256.New(), Limit: c.limit}
		got, err := io.ReadAll(ctr)
		var tl *blob.TooLargeError
		if c.tooBig != errors.As(err, &tl) || c.tooBig != errors.Is(err, blob.ErrTooLarge) {
			t.Errorf("limit %d: %v, want too large=%v", c.limit, err, c.tooBig)
			continue
		}
		if c.tooBig {
			if tl.Limit != c.limit || ctr.N() != c.limit+1 || tl.Error() != "the upload exceeds the limit of "+strconv.FormatInt(c.limit, 10)+" bytes" {
				t.Errorf("limit %d: %v after %d bytes", c.limit, tl, ctr.N())
			}
			continue
		}
		sum := sha256.Sum256(data)
		if err != nil || !bytes.Equal(got, data) || ctr.N() != int64(len(data)) || !bytes.Equal(ctr.Hash.Sum(nil), sum[:]) {
			t.Errorf("limit %d: read %d bytes, counted %d (%v)", c.limit, len(got), ctr.N(), err)
		}
	}
	failing := &blob.Counter{R: iotest.ErrReader(io.ErrClosedPipe)}
	if _, err := io.ReadAll(failing); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("the reader's own error: %v", err)
	}
	if errors.Is(io.ErrClosedPipe, blob.ErrTooLarge) || errors.Is(&blob.TooLargeError{}, io.EOF) {
		t.Fatal("TooLargeError matches only ErrTooLarge")
	}
}

// TestCounterProgress: N may be read while another goroutine drains the counter.
func TestCounterProgress(t *testing.T) {
	ctr := &blob.Counter{R: iotest.HalfReader(bytes.NewReader(make([]byte, 1<<20)))}
	var wg sync.WaitGroup
	wg.Go(func() { io.Copy(io.Discard, ctr) })
	last := int64(0)
	for last < 1<<20 {
		n := ctr.N()
		if n < last {
			t.Fatalf("progress went back from %d to %d", last, n)
		}
		last = n
	}
	wg.Wait()
}

// TestServed: only media that cannot carry script are shown inline, whatever the case of
// their type; everything else is a download.
func TestServed(t *testing.T) {
	for ct, inline := range map[string]bool{
		"image/png": true, "IMAGE/JPEG": true, "image/webp": true, "image/avif": true, "audio/ogg": true, "video/mp4": true,
		"model/gltf-binary": true, "text/plain; charset=utf-8": true,
		"image/svg+xml": false, "text/html": false, "text/html; charset=utf-8": false, "application/xhtml+xml": false,
		"text/xml": false, "application/javascript": false, "model/gltf+json": false, "application/pdf": false,
		"application/octet-stream": false, "": false, "image/x-icon": false,
	} {
		served, disposition := blob.Served(ct)
		if blob.Inline(ct) != inline {
			t.Errorf("Inline(%q) = %v", ct, !inline)
		}
		if inline && (served != ct || disposition != "inline") || !inline && (served != blob.Download || disposition != "attachment") {
			t.Errorf("Served(%q) = %q, %q", ct, served, disposition)
		}
	}
}

func TestBrowserOrigins(t *testing.T) {
	cases := map[string][]string{
		"file:/var/lib/arbiter/blobs":                          nil,
		"/var/lib/arbiter/blobs":                               nil,
		"s3://media?endpoint=minio.internal:9000&secure=false": {"http://minio.internal:9000"},
		"s3://media?endpoint=minio.example.org":                {"https://minio.example.org"},
		"s3://media?endpoint=minio.example.org&secure=no":      {"https://minio.example.org"},
		"s3://media": {"https://*.amazonaws.com"},
		"s3://media?endpoint=s3.eu-west-1.amazonaws.com":                                                   {"https://*.amazonaws.com"},
		"s3://media?endpoint=minio:9000&secure=false&public_endpoint=media.example.org":                    {"http://media.example.org"},
		"s3://media?endpoint=minio:9000&secure=false&public_endpoint=media.example.org&public_secure=true": {"https://media.example.org"},
		"s3://me dia?endpoint=minio:9000":                                                                  nil,
	}
	for raw, want := range cases {
		if got := blob.BrowserOrigins(raw); !slices.Equal(got, want) {
			t.Errorf("BrowserOrigins(%q) = %v, want %v", raw, got, want)
		}
	}
}

// TestOpen: a file: URL or a bare path is a local directory; S3 URLs with settings that do
// not parse are refused before anything is contacted.
func TestOpen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, raw := range []string{"file:" + dir, dir} {
		s, err := blob.Open(ctx, raw, blob.Options{SigningKey: []byte("0123456789abcdef"), LocalURLPrefix: "/blobs"})
		if _, local := s.(*blob.Local); err != nil || !local {
			t.Fatalf("Open(%q) = %T, %v", raw, s, err)
		}
	}
	if _, err := blob.Open(ctx, dir, blob.Options{SigningKey: []byte("short")}); err == nil {
		t.Fatal("a local store with a short signing key")
	}
	for _, raw := range []string{"s3://me dia?endpoint=127.0.0.1:1", "s3://media?endpoint=127.0.0.1:1&secure=maybe",
		"s3://media?endpoint=127.0.0.1:1&secure=false&public_endpoint=x:9000&public_secure=maybe"} {
		if _, err := blob.Open(ctx, raw, blob.Options{}); err == nil || !strings.Contains(err.Error(), "blob url") {
			t.Errorf("Open(%q) = %v, want a blob url error", raw, err)
		}
	}
}
