package blob

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Local keeps blobs as files under a directory and signs URLs with an HMAC.
type Local struct {
	dir    string
	key    []byte
	prefix string
	now    func() time.Time
}

// NewLocal returns a store rooted at dir, creating it if needed.
func NewLocal(dir string, signingKey []byte, urlPrefix string) (*Local, error) {
	if len(signingKey) < 16 {
		return nil, errors.New("local blob store: signing key too short")
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("local blob store: %w", err)
	}
	return &Local{dir: dir, key: signingKey, prefix: urlPrefix, now: time.Now}, nil
}

func (l *Local) path(key string) (string, error) {
	if err := ValidKey(key); err != nil {
		return "", err
	}
	return filepath.Join(l.dir, filepath.FromSlash(key)), nil
}

// Put writes to a temporary file and renames it into place, so readers never see half a blob.
func (l *Local) Put(ctx context.Context, key string, r io.Reader, _ int64, _ string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".upload-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, readerWithContext{ctx, r}); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// Get opens the blob's file.
func (l *Local) Get(_ context.Context, key string) (io.ReadCloser, error) {
	return l.Open(key)
}

// Open opens the blob's file for serving with range requests.
func (l *Local) Open(key string) (*os.File, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	// note: a key that is the prefix of other keys names a directory here, and no blob
	if fi, err := f.Stat(); err != nil || fi.IsDir() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, ErrNotFound
	}
	return f, nil
}

// Delete removes the blob's file.
func (l *Local) Delete(_ context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// SignedURL returns prefix/KEY?exp=UNIX&ct=TYPE&sig=HMAC.
func (l *Local) SignedURL(_ context.Context, key string, ttl time.Duration, contentType string) (string, error) {
	if err := ValidKey(key); err != nil {
		return "", err
	}
	exp := strconv.FormatInt(l.now().Add(ttl).Unix(), 10)
	q := url.Values{"exp": {exp}, "ct": {contentType}, "sig": {l.sign(key, exp, contentType)}}
	return l.prefix + "/" + (&url.URL{Path: key}).EscapedPath() + "?" + q.Encode(), nil
}

// Verify checks a signed URL's key and query; it returns the content type to serve.
func (l *Local) Verify(key string, q url.Values) (string, error) {
	exp, ct, sig := q.Get("exp"), q.Get("ct"), q.Get("sig")
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return "", errors.New("signed url: bad expiry")
	}
	if !hmac.Equal([]byte(sig), []byte(l.sign(key, exp, ct))) {
		return "", errors.New("signed url: bad signature")
	}
	if l.now().Unix() > unix {
		return "", errors.New("signed url: expired")
	}
	return ct, nil
}

func (l *Local) sign(key, exp, contentType string) string {
	m := hmac.New(sha256.New, l.key)
	fmt.Fprintf(m, "%s\n%s\n%s", key, exp, contentType)
	return hex.EncodeToString(m.Sum(nil))
}

// Ping checks that the directory is there and writable.
func (l *Local) Ping(context.Context) error {
	f, err := os.CreateTemp(l.dir, ".ping-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

type readerWithContext struct {
	ctx context.Context
	r   io.Reader
}

func (r readerWithContext) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}

// DeleteFolder removes the directory of a folder of keys with everything under it.
func (l *Local) DeleteFolder(_ context.Context, folder string) error {
	p, err := l.path(folder)
	if err != nil {
		return err
	}
	return os.RemoveAll(p)
}
