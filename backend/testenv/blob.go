package testenv

import (
	"context"
	"net/url"
	"os"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/blob"
)

// S3 credentials for the MinIO suite.
const (
	EnvS3AccessKey = "ARBITER_TEST_S3_ACCESS_KEY"
	EnvS3SecretKey = "ARBITER_TEST_S3_SECRET_KEY"
)

// SigningKey is the key local blob URLs are signed with in tests.
var SigningKey = []byte("test-signing-key-0123456789abcdef")

// BlobBackend names a blob store for table-driven tests over both.
type BlobBackend struct {
	Name string
	Open func(t testing.TB) blob.Store
}

// BlobBackends returns the local store and MinIO.
func BlobBackends() []BlobBackend {
	return []BlobBackend{{"local", LocalBlobs}, {"minio", S3Blobs}}
}

// LocalBlobs returns a local store in a temporary directory.
func LocalBlobs(t testing.TB) blob.Store {
	t.Helper()
	s, err := blob.NewLocal(t.TempDir(), SigningKey, "/blobs")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// S3BlobURL returns the MinIO URL of a fresh bucket, or skips/fails as Service says.
func S3BlobURL(t testing.TB) string {
	t.Helper()
	base := Service(t, EnvS3, "MinIO")
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvS3, err)
	}
	u.Host = RandomName("arbiter-test-")
	return u.String()
}

// S3Blobs returns an S3 store on a fresh bucket of the test MinIO server.
func S3Blobs(t testing.TB) blob.Store {
	t.Helper()
	raw := S3BlobURL(t)
	s, err := blob.Open(context.Background(), raw, blob.Options{
		AccessKey: os.Getenv(EnvS3AccessKey),
		SecretKey: os.Getenv(EnvS3SecretKey),
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
