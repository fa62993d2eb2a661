package blob

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var testKey = []byte("a signing key of 32 bytes, at le")

// newLocalAt is a local store whose clock stands at now().
func newLocalAt(t *testing.T, now *time.Time) *Local {
	t.Helper()
	l, err := NewLocal(t.TempDir(), testKey, "/blobs")
	if err != nil {
		t.Fatal(err)
	}
	l.now = func() time.Time { return *now }
	return l
}

// signed signs key and returns the key and query a request for the URL carries.
func signed(t *testing.T, l *Local, key string, ttl time.Duration, ct string) (string, url.Values) {
	t.Helper()
	raw, err := l.SignedURL(context.Background(), key, ttl, ct)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	path, ok := strings.CutPrefix(u.Path, "/blobs/")
	if !ok {
		t.Fatalf("url %s is not under the prefix", raw)
	}
	return path, u.Query()
}

// TestLocalSignedURLExpiry: a URL is good up to and including its expiry second, and not
// after.
func TestLocalSignedURLExpiry(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	l := newLocalAt(t, &now)
	key, q := signed(t, l, "p/a.png", time.Minute, "image/png")
	if q.Get("exp") != "1800000060" {
		t.Fatalf("exp = %s, want the signing time plus the ttl", q.Get("exp"))
	}
	for offset, ok := range map[time.Duration]bool{0: true, 59 * time.Second: true, 60 * time.Second: true, 61 * time.Second: false, time.Hour: false} {
		now = time.Unix(1_800_000_000, 0).Add(offset)
		ct, err := l.Verify(key, q)
		if ok != (err == nil) || (ok && ct != "image/png") {
			t.Errorf("%v after signing: %q, %v; want valid=%v", offset, ct, err, ok)
		}
		if !ok && (err == nil || !strings.Contains(err.Error(), "expired")) {
			t.Errorf("%v after signing: %v, want an expiry error", offset, err)
		}
	}
}

// TestLocalSignedURLTampered: the signature binds key, expiry and content type, under this
// store's key only.
func TestLocalSignedURLTampered(t *testing.T) {
	now := time.Now()
	l := newLocalAt(t, &now)
	key, q := signed(t, l, "p/a b?c#d.png", time.Minute, "image/png")
	if key != "p/a b?c#d.png" {
		t.Fatalf("the key did not survive the URL: %q", key)
	}
	with := func(k, v string) url.Values {
		c := url.Values{}
		for name, vs := range q {
			c[name] = append([]string(nil), vs...)
		}
		if v == "" {
			c.Del(k)
		} else {
			c.Set(k, v)
		}
		return c
	}
	other, err := NewLocal(t.TempDir(), []byte("another key that is long enough"), "/blobs")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		l    *Local
		key  string
		q    url.Values
		want string
	}{
		{"other key", l, "p/other.png", q, "bad signature"},
		{"later expiry", l, key, with("exp", "99999999999"), "bad signature"},
		{"html type", l, key, with("ct", "text/html"), "bad signature"},
		{"no type", l, key, with("ct", ""), "bad signature"},
		{"no signature", l, key, with("sig", ""), "bad signature"},
		{"upper-case signature", l, key, with("sig", strings.ToUpper(q.Get("sig"))), "bad signature"},
		{"no expiry", l, key, with("exp", ""), "bad expiry"},
		{"expiry not a number", l, key, with("exp", "soon"), "bad expiry"},
		{"another store's key", other, key, q, "bad signature"},
	}
	for _, c := range cases {
		if _, err := c.l.Verify(c.key, c.q); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if ct, err := l.Verify(key, q); err != nil || ct != "image/png" {
		t.Fatalf("the untouched URL: %q, %v", ct, err)
	}
}

// TestLocalPutLeavesNoTemporaryFiles: a Put writes through a temporary file that is gone
// afterwards, whether the Put succeeded or failed.
func TestLocalPutLeavesNoTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	l, err := NewLocal(dir, testKey, "/blobs")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := l.Put(ctx, "p/ok", strings.NewReader("data"), 4, ""); err != nil {
		t.Fatal(err)
	}
	if err := l.Put(ctx, "p/fails", &Counter{R: strings.NewReader("too much data"), Limit: 3}, -1, ""); err == nil {
		t.Fatal("a Put past its limit succeeded")
	}
	entries, err := os.ReadDir(filepath.Join(dir, "p"))
	if err != nil || len(entries) != 1 || entries[0].Name() != "ok" {
		t.Fatalf("files left in the store: %v (%v)", entries, err)
	}
}

func TestNewLocal(t *testing.T) {
	if _, err := NewLocal(t.TempDir(), []byte("fifteen bytes!!"), "/blobs"); err == nil {
		t.Fatal("a signing key under 16 bytes accepted")
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewLocal(filepath.Join(file, "blobs"), testKey, "/blobs"); err == nil {
		t.Fatal("a directory under a file accepted")
	}
	dir := filepath.Join(t.TempDir(), "made", "here")
	l, err := NewLocal(dir, testKey, "/blobs")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Ping(context.Background()); err != nil {
		t.Fatalf("ping of a fresh store: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("ping left %v", entries)
	}
	os.RemoveAll(dir)
	if err := l.Ping(context.Background()); err == nil {
		t.Fatal("ping of a removed directory succeeded")
	}
}
