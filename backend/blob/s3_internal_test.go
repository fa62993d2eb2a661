package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// deadS3 is an S3 store on a loopback port nothing listens on. It presigns offline, since its
// region is given, and every request it sends is refused at once.
func deadS3(t *testing.T) *S3 {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := minio.New(addr, &minio.Options{Creds: credentials.NewStaticV4("access", "secret", ""), Region: "us-east-1", MaxRetries: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &S3{client: c, signer: c, bucket: "media"}
}

// TestS3SignedURLAsks: a presigned URL asks S3 for the stored type inline when it is safe, and
// for a download otherwise, since S3 sends no Content-Security-Policy.
func TestS3SignedURLAsks(t *testing.T) {
	s := deadS3(t)
	for ct, want := range map[string][2]string{
		"image/png":     {"image/png", "inline"},
		"text/html":     {Download, "attachment"},
		"image/svg+xml": {Download, "attachment"},
		"":              {Download, "attachment"},
	} {
		raw, err := s.SignedURL(context.Background(), "projects/p/assets/a", 90*time.Second, ct)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(raw)
		q := u.Query()
		if u.Path != "/media/projects/p/assets/a" || q.Get("X-Amz-Expires") != "90" || q.Get("X-Amz-Signature") == "" ||
			q.Get("response-content-type") != want[0] || q.Get("response-content-disposition") != want[1] {
			t.Errorf("%q: %s", ct, raw)
		}
	}
}

// TestS3Unreachable: a store that does not answer is ErrUnavailable, on every operation; a
// cancelled request is only cancelled.
func TestS3Unreachable(t *testing.T) {
	s := deadS3(t)
	ctx := context.Background()
	errs := map[string]error{"put": s.Put(ctx, "k", strings.NewReader("x"), 1, ""), "delete": s.Delete(ctx, "k")}
	_, errs["get"] = s.Get(ctx, "k")
	for op, err := range errs {
		var netErr net.Error
		if !errors.Is(err, ErrUnavailable) || !errors.As(err, &netErr) {
			t.Errorf("%s on a dead store: %v, want ErrUnavailable with its cause", op, err)
		}
	}
	if err := s.Ping(ctx); err == nil {
		t.Fatal("ping of a dead store succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Put(cancelled, "k", strings.NewReader("x"), 1, ""); !errors.Is(err, context.Canceled) || errors.Is(err, ErrUnavailable) {
		t.Fatalf("a cancelled put: %v", err)
	}
	plain := fmt.Errorf("access denied")
	if unreachable(plain) != plain || unreachable(nil) != nil {
		t.Fatal("errors that are no network failure pass unchanged")
	}
}

// TestBrokenOff: a body's own io.ErrUnexpectedEOF reaches minio-go as another error (which it
// does not take for the end of a short part) that still matches io.ErrUnexpectedEOF; every
// other error and the end of the body pass unchanged.
func TestBrokenOff(t *testing.T) {
	cut := brokenOff{io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(io.ErrUnexpectedEOF))}
	got, err := io.ReadAll(cut)
	if string(got) != "abc" || err == io.ErrUnexpectedEOF || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("read %q, %v", got, err)
	}
	if _, err := io.ReadAll(brokenOff{iotest.ErrReader(io.ErrClosedPipe)}); err != io.ErrClosedPipe {
		t.Fatalf("another error: %v", err)
	}
	if got, err := io.ReadAll(brokenOff{strings.NewReader("whole")}); err != nil || string(got) != "whole" {
		t.Fatalf("a whole body: %q, %v", got, err)
	}
}
