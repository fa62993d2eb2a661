package blob_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

func TestStoreContract(t *testing.T) {
	for _, b := range testenv.BlobBackends() {
		t.Run(b.Name, func(t *testing.T) {
			s := b.Open(t)
			ctx := context.Background()
			if err := s.Ping(ctx); err != nil {
				t.Fatal(err)
			}
			data := bytes.Repeat([]byte("arbiter "), 100_000)
			if err := s.Put(ctx, "p/1/a.bin", bytes.NewReader(data), -1, "application/octet-stream"); err != nil {
				t.Fatal(err)
			}
			r, err := s.Get(ctx, "p/1/a.bin")
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(r)
			r.Close()
			if !bytes.Equal(got, data) {
				t.Fatalf("read %d bytes, wrote %d", len(got), len(data))
			}
			if _, err := s.Get(ctx, "p/1/missing"); !errors.Is(err, blob.ErrNotFound) {
				t.Fatalf("missing blob: %v", err)
			}
			u, err := s.SignedURL(ctx, "p/1/a.bin", time.Minute, "image/png")
			if err != nil || u == "" {
				t.Fatalf("SignedURL = %q, %v", u, err)
			}
			if err := s.Delete(ctx, "p/1/a.bin"); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(ctx, "p/1/a.bin"); !errors.Is(err, blob.ErrNotFound) {
				t.Fatalf("deleted blob still readable: %v", err)
			}
			for _, bad := range []string{"", "/abs", "a/../b", "a//b", `a\b`} {
				if err := s.Put(ctx, bad, strings.NewReader("x"), 1, ""); err == nil {
					t.Errorf("key %q accepted", bad)
				}
			}
		})
	}
}

func TestS3PresignedURLIsLoadable(t *testing.T) {
	s := testenv.S3Blobs(t)
	ctx := context.Background()
	if err := s.Put(ctx, "img.png", strings.NewReader("not really a png"), 16, "image/png"); err != nil {
		t.Fatal(err)
	}
	u, err := s.SignedURL(ctx, "img.png", time.Minute, "image/png")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "not really a png" || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("GET presigned: %d %q %q", resp.StatusCode, body, resp.Header.Get("Content-Type"))
	}
	tampered := strings.Replace(u, "img.png", "other.png", 1)
	if resp, err := http.Get(tampered); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Fatal("tampered presigned URL was served")
		}
	}
}

func TestLocalSignedURL(t *testing.T) {
	l, err := blob.NewLocal(t.TempDir(), testenv.SigningKey, "/blobs")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := l.SignedURL(context.Background(), "p/x y.png", time.Minute, "image/png")
	u, err := url.Parse(raw)
	if err != nil || !strings.HasPrefix(u.Path, "/blobs/p/x y.png") {
		t.Fatalf("url %q (%v)", raw, err)
	}
	key := strings.TrimPrefix(u.Path, "/blobs/")
	if ct, err := l.Verify(key, u.Query()); err != nil || ct != "image/png" {
		t.Fatalf("Verify = %q, %v", ct, err)
	}
	q := u.Query()
	q.Set("ct", "text/html")
	if _, err := l.Verify(key, q); err == nil {
		t.Fatal("changed content type accepted")
	}
	if _, err := l.Verify("p/other.png", u.Query()); err == nil {
		t.Fatal("signature reused for another key")
	}
	expired, _ := l.SignedURL(context.Background(), "p/a", -time.Second, "")
	eu, _ := url.Parse(expired)
	if _, err := l.Verify("p/a", eu.Query()); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired url: %v", err)
	}
}

// TestS3PublicEndpoint presigns for the address browsers use, here another name of the same
// server, and the URL still loads.
func TestS3PublicEndpoint(t *testing.T) {
	raw := testenv.S3BlobURL(t)
	u, _ := url.Parse(raw)
	q := u.Query()
	host := strings.Replace(q.Get("endpoint"), "127.0.0.1", "localhost", 1)
	q.Set("public_endpoint", host)
	q.Set("region", "us-east-1")
	u.RawQuery = q.Encode()
	s, err := blob.Open(context.Background(), u.String(), blob.Options{
		AccessKey: testenv.Getenv(testenv.EnvS3AccessKey), SecretKey: testenv.Getenv(testenv.EnvS3SecretKey)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Put(ctx, "pub.txt", strings.NewReader("public"), 6, "text/plain"); err != nil {
		t.Fatal(err)
	}
	signed, err := s.SignedURL(ctx, "pub.txt", time.Minute, "text/plain")
	if err != nil || !strings.Contains(signed, "//"+host+"/") {
		t.Fatalf("presigned for the wrong host: %s %v", signed, err)
	}
	resp, err := http.Get(signed)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %v %v", signed, resp, err)
	}
	resp.Body.Close()
}
