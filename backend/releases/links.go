package releases

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// linkTTL is how long the download links of a release stay valid.
const linkTTL = 15 * time.Minute

// ErrBadLink refuses an archive link that is not signed by this server or has expired.
var ErrBadLink = errors.New("this download link is invalid or has expired; get a new one")

// Links are short-lived URLs that fetch a done release without credentials, for browsers,
// which cannot send a bearer token with a plain download: the archive through a link signed by
// the server, each file through a signed URL of the blob store.
type Links struct {
	Archive   string     `json:"archive"`
	Files     []FileLink `json:"files"`
	ExpiresAt time.Time  `json:"expires_at"`
}

// FileLink is the download link of one file of a release.
type FileLink struct {
	Path   string `json:"path"`
	URL    string `json:"url"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Links signs download links for a done release.
func (s *Service) Links(ctx context.Context, projectID, releaseID string) (*Links, error) {
	r, err := s.done(ctx, projectID, releaseID)
	if err != nil {
		return nil, err
	}
	files, err := s.store.ReleaseFiles(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	key, err := s.linkKey(ctx)
	if err != nil {
		return nil, err
	}
	exp := s.now().Add(linkTTL).Truncate(time.Second)
	q := url.Values{"exp": {strconv.FormatInt(exp.Unix(), 10)}, "sig": {signArchive(key, r.ID, exp.Unix())}}
	out := &Links{Archive: s.publicURL + "/api/v1/release-archives/" + r.ID + "?" + q.Encode(), Files: []FileLink{}, ExpiresAt: exp}
	for _, f := range files {
		u, err := s.blobs.SignedURL(ctx, f.BlobKey, linkTTL, f.ContentType)
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(u, "/") {
			u = s.publicURL + u
		}
		out.Files = append(out.Files, FileLink{Path: f.Path, URL: u, Bytes: f.Bytes, SHA256: f.SHA256})
	}
	return out, nil
}

// SignedArchive prepares the archive a signed link names, once its signature and expiry check.
func (s *Service) SignedArchive(ctx context.Context, releaseID, exp, sig string) (*Archive, error) {
	key, err := s.linkKey(ctx)
	if err != nil {
		return nil, err
	}
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || !hmac.Equal([]byte(sig), []byte(signArchive(key, releaseID, unix))) || s.now().Unix() > unix {
		return nil, ErrBadLink
	}
	r, err := s.store.Release(ctx, "", releaseID)
	if err != nil {
		return nil, store.Missing(err, "release")
	}
	p, err := s.store.Project(ctx, r.ProjectID)
	if err != nil {
		return nil, store.Missing(err, "release")
	}
	return s.Archive(ctx, p.ID, r.ID, p.Name)
}

// signArchive is the hex HMAC-SHA256 of an archive link.
func signArchive(key []byte, releaseID string, exp int64) string {
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "release-archive\x00%s\x00%d", releaseID, exp)
	return hex.EncodeToString(mac.Sum(nil))
}

// linkKeyName names the server secret download links are signed with.
const linkKeyName = "release_link_key"

// linkKey is the secret that signs download links.
func (s *Service) linkKey(ctx context.Context) ([]byte, error) { return s.secret(ctx, linkKeyName) }

// secret returns a 32-byte server secret kept in the settings table, made by the first
// replica that needs it and shared by all.
func (s *Service) secret(ctx context.Context, name string) ([]byte, error) {
	v, err := s.store.Setting(ctx, name, func() (string, error) {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		return hex.EncodeToString(b), nil
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", name, err)
	}
	key, err := hex.DecodeString(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return key, nil
}
