package blob_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

func openS3(t *testing.T, raw string) blob.Store {
	t.Helper()
	s, err := blob.Open(context.Background(), raw, blob.Options{
		AccessKey: testenv.Getenv(testenv.EnvS3AccessKey), SecretKey: testenv.Getenv(testenv.EnvS3SecretKey)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// httpGet fetches a presigned URL: its status, type, disposition and body.
func httpGet(t *testing.T, u string) (int, string, string, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"), string(b)
}

// TestS3ServesActiveContentAsDownload: whatever type a blob was stored with, MinIO answers a
// presigned URL for active content as an attachment of no renderable type.
func TestS3ServesActiveContentAsDownload(t *testing.T) {
	s := testenv.S3Blobs(t)
	ctx := context.Background()
	page := "<html><script>alert(1)</script></html>"
	if err := s.Put(ctx, "page", strings.NewReader(page), int64(len(page)), "text/html"); err != nil {
		t.Fatal(err)
	}
	for ct, want := range map[string][2]string{"text/html": {blob.Download, "attachment"}, "text/plain": {"text/plain", "inline"}} {
		u, err := s.SignedURL(ctx, "page", time.Minute, ct)
		if err != nil {
			t.Fatal(err)
		}
		status, gotType, disposition, body := httpGet(t, u)
		if status != 200 || gotType != want[0] || disposition != want[1] || body != page {
			t.Errorf("signed as %s: %d %q %q %q", ct, status, gotType, disposition, body)
		}
	}
}

// TestS3SignedURLExpires: MinIO refuses a presigned URL once its time has passed.
func TestS3SignedURLExpires(t *testing.T) {
	s := testenv.S3Blobs(t)
	ctx := context.Background()
	if err := s.Put(ctx, "brief", strings.NewReader("x"), 1, "text/plain"); err != nil {
		t.Fatal(err)
	}
	u, err := s.SignedURL(ctx, "brief", time.Second, "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2100 * time.Millisecond) // note: presigned URLs last whole seconds, one at least
	if status, _, _, _ := httpGet(t, u); status != http.StatusForbidden {
		t.Fatalf("an expired presigned URL answered %d", status)
	}
}

// TestS3ReopenBucket: opening a store on a bucket that exists keeps its blobs.
func TestS3ReopenBucket(t *testing.T) {
	raw := testenv.S3BlobURL(t)
	ctx := context.Background()
	if err := openS3(t, raw).Put(ctx, "kept", strings.NewReader("still here"), -1, ""); err != nil {
		t.Fatal(err)
	}
	s := openS3(t, raw)
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := s.Get(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if b, _ := io.ReadAll(r); string(b) != "still here" {
		t.Fatalf("reopened bucket reads %q", b)
	}
}
