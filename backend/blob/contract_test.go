package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// forEachStore runs f on each blob store: the local directory and MinIO.
func forEachStore(t *testing.T, f func(t *testing.T, s blob.Store)) {
	for _, b := range testenv.BlobBackends() {
		t.Run(b.Name, func(t *testing.T) { f(t, b.Open(t)) })
	}
}

// read returns the blob's bytes, or the error of opening it.
func read(t *testing.T, s blob.Store, key string) ([]byte, error) {
	t.Helper()
	r, err := s.Get(context.Background(), key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return b, nil
}

// TestPutGetOverwrite: a blob reads back byte for byte whether its size was given or not,
// empty or not, and a second Put of a key replaces it whole.
func TestPutGetOverwrite(t *testing.T) {
	forEachStore(t, func(t *testing.T, s blob.Store) {
		ctx := context.Background()
		cases := map[string][]byte{
			"empty":                nil,
			"one byte":             {0},
			"x y/ü ñ.png":          []byte("unicode and spaces in the key"),
			"deep/er/and/deeper/k": bytes.Repeat([]byte{1, 2, 3}, 50_000),
		}
		for key, data := range cases {
			for _, size := range []int64{int64(len(data)), -1} {
				if err := s.Put(ctx, key, bytes.NewReader(data), size, "application/octet-stream"); err != nil {
					t.Fatalf("put %s (size %d): %v", key, size, err)
				}
				got, err := read(t, s, key)
				if err != nil || !bytes.Equal(got, data) {
					t.Fatalf("%s (size %d): read %d bytes (%v), wrote %d", key, size, len(got), err, len(data))
				}
			}
		}
		if err := s.Put(ctx, "deep/er/and/deeper/k", strings.NewReader("short"), 5, "text/plain"); err != nil {
			t.Fatal(err)
		}
		if got, _ := read(t, s, "deep/er/and/deeper/k"); string(got) != "short" {
			t.Fatalf("overwritten blob reads %d bytes", len(got))
		}
	})
}

// TestGetMissing: a key that holds no blob is ErrNotFound, including a key that is only the
// prefix of other blobs' keys.
func TestGetMissing(t *testing.T) {
	forEachStore(t, func(t *testing.T, s blob.Store) {
		ctx := context.Background()
		if err := s.Put(ctx, "projects/p1/assets/a", strings.NewReader("x"), 1, ""); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"projects/p1/assets/b", "projects/p1/assets", "projects", "projects/p1/assets/a/b"} {
			if _, err := read(t, s, key); !errors.Is(err, blob.ErrNotFound) {
				t.Errorf("Get(%q) = %v, want ErrNotFound", key, err)
			}
		}
		if err := s.Delete(ctx, "projects/p1/assets/never-there"); err != nil {
			t.Fatalf("deleting a missing blob: %v", err)
		}
		if err := s.Delete(ctx, "projects/p1/assets/a"); err != nil {
			t.Fatal(err)
		}
		if err := s.Delete(ctx, "projects/p1/assets/a"); err != nil {
			t.Fatalf("deleting twice: %v", err)
		}
	})
}

// TestDeleteFolder: every blob under a folder goes, however deep, and nothing beside it: not a
// blob whose key only begins with the folder's name, nor the folder's own siblings.
func TestDeleteFolder(t *testing.T) {
	forEachStore(t, func(t *testing.T, s blob.Store) {
		ctx := context.Background()
		gone := []string{"releases/p/r/manifest.json", "releases/p/r/jsonl/train.jsonl", "releases/p/r/media/a/b/c.png"}
		kept := []string{"releases/p/r2/manifest.json", "releases/p/rx", "releases/p/r-other/f"}
		for _, k := range append(gone, kept...) {
			if err := s.Put(ctx, k, strings.NewReader(k), int64(len(k)), ""); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.DeleteFolder(ctx, "releases/p/r"); err != nil {
			t.Fatal(err)
		}
		for _, k := range gone {
			if _, err := read(t, s, k); !errors.Is(err, blob.ErrNotFound) {
				t.Errorf("%s is left: %v", k, err)
			}
		}
		for _, k := range kept {
			if got, err := read(t, s, k); err != nil || string(got) != k {
				t.Errorf("%s: %q %v", k, got, err)
			}
		}
		if err := s.DeleteFolder(ctx, "releases/p/r"); err != nil {
			t.Fatalf("deleting an empty folder: %v", err)
		}
		for _, bad := range []string{"", "releases/", "../x", "a//b"} {
			if err := s.DeleteFolder(ctx, bad); err == nil {
				t.Errorf("DeleteFolder(%q) accepted", bad)
			}
		}
	})
}

// TestInvalidKeys: no operation takes a key that could escape a directory or confuse a URL.
func TestInvalidKeys(t *testing.T) {
	forEachStore(t, func(t *testing.T, s blob.Store) {
		ctx := context.Background()
		if err := s.Put(ctx, "a/b", strings.NewReader("x"), 1, ""); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"", "/a/b", "a/../a/b", "../a/b", "a//b", "a/./b", "a/", `a\b`, ".", ".."} {
			if err := s.Put(ctx, key, strings.NewReader("y"), 1, ""); err == nil {
				t.Errorf("Put(%q) accepted", key)
			}
			if _, err := s.Get(ctx, key); err == nil || errors.Is(err, blob.ErrNotFound) {
				t.Errorf("Get(%q) = %v, want a key error", key, err)
			}
			if err := s.Delete(ctx, key); err == nil {
				t.Errorf("Delete(%q) accepted", key)
			}
			if u, err := s.SignedURL(ctx, key, time.Minute, "image/png"); err == nil {
				t.Errorf("SignedURL(%q) = %s", key, u)
			}
		}
		if got, err := read(t, s, "a/b"); err != nil || string(got) != "x" {
			t.Fatalf("a/b after the refused keys: %q, %v", got, err)
		}
	})
}

// TestPutFailureStoresNothing: a Put whose reader fails (past its size limit, or breaking off
// as a request body does when its client goes away) returns that error, still recognisable,
// and leaves no blob, not even a part of one; the blob that was there before stays.
func TestPutFailureStoresNothing(t *testing.T) {
	forEachStore(t, func(t *testing.T, s blob.Store) {
		ctx := context.Background()
		body := bytes.Repeat([]byte("0123456789"), 100_000)
		for _, size := range []int64{-1, int64(len(body))} {
			c := &blob.Counter{R: bytes.NewReader(body), Limit: 500_000}
			err := s.Put(ctx, "too/big", c, size, "")
			var tl *blob.TooLargeError
			if !errors.Is(err, blob.ErrTooLarge) || !errors.As(err, &tl) || tl.Limit != 500_000 {
				t.Fatalf("size %d: Put past the limit: %v, want the TooLargeError", size, err)
			}
			if _, err := read(t, s, "too/big"); !errors.Is(err, blob.ErrNotFound) {
				t.Fatalf("size %d: a failed Put left a blob (%v)", size, err)
			}
		}
		for _, size := range []int64{-1, 20_000} {
			cut := io.MultiReader(bytes.NewReader(body[:5000]), iotest.ErrReader(io.ErrUnexpectedEOF))
			// note: with a size, the store may see only that the body is short
			if err := s.Put(ctx, "cut/short", cut, size, ""); err == nil || size < 0 && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("size %d: Put of a body that breaks off: %v", size, err)
			}
			if got, err := read(t, s, "cut/short"); !errors.Is(err, blob.ErrNotFound) {
				t.Fatalf("size %d: a body that broke off was stored, %d bytes (%v)", size, len(got), err)
			}
		}
		if err := s.Put(ctx, "kept", strings.NewReader("before"), 6, ""); err != nil {
			t.Fatal(err)
		}
		c := &blob.Counter{R: bytes.NewReader(body), Limit: 10}
		if err := s.Put(ctx, "kept", c, -1, ""); !errors.Is(err, blob.ErrTooLarge) {
			t.Fatalf("Put over an existing blob past the limit: %v", err)
		}
		if got, _ := read(t, s, "kept"); string(got) != "before" {
			t.Fatalf("a failed Put changed the blob before it to %d bytes", len(got))
		}
	})
}

// TestPutCancelled: a Put whose context ends stops and stores nothing.
func TestPutCancelled(t *testing.T) {
	forEachStore(t, func(t *testing.T, s blob.Store) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := s.Put(ctx, "cancelled", strings.NewReader("data"), -1, ""); !errors.Is(err, context.Canceled) {
			t.Fatalf("Put with a cancelled context: %v", err)
		}
		if _, err := read(t, s, "cancelled"); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("a cancelled Put left a blob (%v)", err)
		}
	})
}

// TestCountedPut: a Counter read through a Put counts and hashes exactly the bytes stored.
func TestCountedPut(t *testing.T) {
	forEachStore(t, func(t *testing.T, s blob.Store) {
		data := bytes.Repeat([]byte("arbiter "), 40_000)
		c := &blob.Counter{R: bytes.NewReader(data), Hash: sha256.New(), Limit: int64(len(data))}
		if err := s.Put(context.Background(), "counted", c, -1, ""); err != nil {
			t.Fatal(err)
		}
		want := sha256.Sum256(data)
		if c.N() != int64(len(data)) || !bytes.Equal(c.Hash.Sum(nil), want[:]) {
			t.Fatalf("counted %d bytes, hash %x; stored %d, hash %x", c.N(), c.Hash.Sum(nil), len(data), want)
		}
	})
}
