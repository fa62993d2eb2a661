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

// Readers are the project roles that read a project's releases (administrators hold every
// role).
var Readers = []store.Role{store.RoleLead, store.RoleViewer}

// ErrBadLink refuses a download link that is not signed by this server, has expired, or
// whose person may no longer read the project's releases.
var ErrBadLink = errors.New("this download link is invalid or has expired; get a new one")

// Links are short-lived URLs that fetch a done release without credentials, for browsers,
// which cannot send a bearer token with a plain download: the archive and each file, through
// links signed by the server for the person who asked. Each use checks the signature, the
// expiry and that the person may still read the project's releases, so a member removed (or
// a role lost, or an account disabled) loses their links at once.
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

// Links signs download links of a done release for the user.
func (s *Service) Links(ctx context.Context, projectID, releaseID, userID string) (*Links, error) {
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
	query := func(path string) string {
		return url.Values{"u": {userID}, "exp": {strconv.FormatInt(exp.Unix(), 10)}, "sig": {signLink(key, r.ID, path, userID, exp.Unix())}}.Encode()
	}
	out := &Links{Archive: s.publicURL + "/api/v1/release-archives/" + r.ID + "?" + query(""), Files: []FileLink{}, ExpiresAt: exp}
	for _, f := range files {
		u := s.publicURL + "/api/v1/release-files/" + r.ID + "/" + escapePath(f.Path) + "?" + query(f.Path)
		out.Files = append(out.Files, FileLink{Path: f.Path, URL: u, Bytes: f.Bytes, SHA256: f.SHA256})
	}
	return out, nil
}

// escapePath escapes each segment of a release path for a URL.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// LinkArgs are what a download link carries besides the release and the path.
type LinkArgs struct {
	User, Exp, Sig string
}

// SignedArchive prepares the archive a signed link names, once the link checks.
func (s *Service) SignedArchive(ctx context.Context, releaseID string, l LinkArgs) (*Archive, error) {
	p, r, err := s.checkLink(ctx, releaseID, "", l)
	if err != nil {
		return nil, err
	}
	return s.Archive(ctx, p.ID, r.ID, p.Name)
}

// SignedFile finds the file a signed link names, once the link checks; an object store's URL
// to it is valid for a minute, for the download the link starts.
func (s *Service) SignedFile(ctx context.Context, releaseID, path string, l LinkArgs) (*Download, error) {
	path = strings.TrimPrefix(path, "/")
	p, r, err := s.checkLink(ctx, releaseID, path, l)
	if err != nil {
		return nil, err
	}
	return s.file(ctx, p.ID, r.ID, path, redirectTTL)
}

// checkLink checks a link's signature and expiry, and that its person may still read the
// releases of the release's project: an account that is not disabled, of an administrator or
// of a member with one of the Readers roles.
func (s *Service) checkLink(ctx context.Context, releaseID, path string, l LinkArgs) (*store.Project, *store.Release, error) {
	key, err := s.linkKey(ctx)
	if err != nil {
		return nil, nil, err
	}
	unix, err := strconv.ParseInt(l.Exp, 10, 64)
	if err != nil || l.User == "" || !hmac.Equal([]byte(l.Sig), []byte(signLink(key, releaseID, path, l.User, unix))) || s.now().Unix() > unix {
		return nil, nil, ErrBadLink
	}
	r, err := s.store.Release(ctx, "", releaseID)
	if err != nil {
		return nil, nil, store.Missing(err, "release")
	}
	p, err := s.store.Project(ctx, r.ProjectID)
	if err != nil {
		return nil, nil, store.Missing(err, "release")
	}
	if err := s.mayRead(ctx, p.ID, l.User); err != nil {
		return nil, nil, err
	}
	return p, r, nil
}

// mayRead refuses a person who may not read the project's releases (any more).
func (s *Service) mayRead(ctx context.Context, projectID, userID string) error {
	u, err := s.store.CachedUser(ctx, userID) // note: a removal or a disabling clears every replica's cache when it commits
	if errors.Is(err, store.ErrNotFound) || err == nil && u.Disabled {
		return ErrBadLink
	}
	if err != nil || u.IsAdmin {
		return err
	}
	m, err := s.store.CachedMember(ctx, projectID, userID)
	if errors.Is(err, store.ErrNotFound) || err == nil && !m.Roles.Has(Readers...) {
		return ErrBadLink
	}
	return err
}

// signLink is the hex HMAC-SHA256 of a download link: of the archive when path is empty,
// else of that file.
func signLink(key []byte, releaseID, path, userID string, exp int64) string {
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "release-link\x00%s\x00%s\x00%s\x00%d", releaseID, path, userID, exp)
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
