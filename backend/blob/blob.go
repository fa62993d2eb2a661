// Package blob stores media and export files: a local directory by default, S3 (MinIO in
// production) by configuration. Browsers reach blobs only through short-lived signed URLs.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ErrNotFound is returned for a key that holds no blob.
var ErrNotFound = errors.New("blob not found")

// ErrUnavailable says the blob store could not be reached; trying again later may succeed.
var ErrUnavailable = errors.New("the blob store is unavailable; try again shortly")

// Store keeps blobs under slash-separated keys.
type Store interface {
	// Put stores r under key; size is -1 when unknown.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	// Get opens the blob under key.
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the blob; deleting a missing blob is not an error.
	Delete(ctx context.Context, key string) error
	// DeleteFolder removes every blob whose key starts with folder + "/" (a folder of no
	// blobs is not an error).
	DeleteFolder(ctx context.Context, folder string) error
	// SignedURL returns a URL a browser can GET until ttl passes.
	SignedURL(ctx context.Context, key string, ttl time.Duration, contentType string) (string, error)
	// Ping checks that the store is reachable.
	Ping(ctx context.Context) error
}

var (
	_ Store = (*Local)(nil)
	_ Store = (*S3)(nil)
)

// Options carries what Open needs besides the URL.
type Options struct {
	AccessKey, SecretKey string
	// SigningKey signs local URLs; LocalURLPrefix is where the server serves them (e.g. "/blobs").
	SigningKey     []byte
	LocalURLPrefix string
}

// Open returns the store named by raw: file:DIR (or a bare path) for a local directory,
// s3://BUCKET?endpoint=HOST:PORT&secure=false&region=R for S3.
func Open(ctx context.Context, raw string, opt Options) (Store, error) {
	if strings.HasPrefix(raw, "s3://") {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("blob url: %w", err)
		}
		return NewS3(ctx, u, opt.AccessKey, opt.SecretKey)
	}
	return NewLocal(strings.TrimPrefix(raw, "file:"), opt.SigningKey, opt.LocalURLPrefix)
}

// ValidKey rejects keys that could escape a directory or confuse a URL.
func ValidKey(key string) error {
	if key == "" || strings.HasPrefix(key, "/") || strings.Contains(key, "\\") {
		return fmt.Errorf("invalid blob key %q", key)
	}
	for _, part := range strings.Split(key, "/") {
		if part == "" || part == "." || part == ".." {
			return fmt.Errorf("invalid blob key %q", key)
		}
	}
	return nil
}

// BrowserOrigins are the origins browsers fetch media from through the URLs of the store named
// by raw, for a Content-Security-Policy: none for the local store (its URLs are the server's
// own), the public (or else the server's) endpoint for S3, and any S3 bucket host on AWS, where
// buckets are addressed as subdomains.
func BrowserOrigins(raw string) []string {
	if !strings.HasPrefix(raw, "s3://") {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	q := u.Query()
	host, secure := q.Get("endpoint"), q.Get("secure")
	if pub := q.Get("public_endpoint"); pub != "" {
		host = pub
		if v := q.Get("public_secure"); v != "" {
			secure = v
		}
	}
	if host == "" || strings.HasSuffix(host, "amazonaws.com") {
		return []string{"https://*.amazonaws.com"}
	}
	scheme := "https"
	if b, err := strconv.ParseBool(secure); err == nil && !b {
		scheme = "http"
	}
	return []string{scheme + "://" + host}
}
