// Package media owns a project's files: storing an upload once (streamed, hashed, sniffed,
// bounded), deduplicating by sha256, taking files out of an uploaded archive, and handing out
// short-lived signed URLs to members. Handlers and the workflow call it; nothing else writes
// assets.
package media

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// Service stores and serves project media.
type Service struct {
	store     *store.Store
	blobs     blob.Store
	maxBytes  int64
	ttl       time.Duration
	publicURL string
}

// Config bounds uploads and signed URLs.
type Config struct {
	MaxUploadBytes int64
	SignedURLTTL   time.Duration
	PublicURL      string // prefix for relative signed URLs (local blobs)
}

// New returns the media service.
func New(st *store.Store, blobs blob.Store, cfg Config) *Service {
	return &Service{store: st, blobs: blobs, maxBytes: cfg.MaxUploadBytes, ttl: cfg.SignedURLTTL, publicURL: strings.TrimRight(cfg.PublicURL, "/")}
}

// MaxUploadBytes is the largest file accepted.
func (m *Service) MaxUploadBytes() int64 { return m.maxBytes }

// Upload streams r into the blob store, hashing, counting and sniffing it on the way, and
// records the asset. Nothing is recorded unless the bytes are stored whole; a file over the
// limit fails with a blob.TooLargeError.
func (m *Service) Upload(ctx context.Context, projectID, userID, filename string, r io.Reader) (*store.Asset, error) {
	id := store.NewAssetID()
	key := "projects/" + projectID + "/assets/" + id
	body := &blob.Counter{R: r, Hash: sha256.New(), Limit: m.maxBytes}
	br := bufio.NewReaderSize(body, 4096)
	head, _ := br.Peek(512)
	ct := SniffContentType(head, filename)
	if err := m.blobs.Put(ctx, key, br, -1, ct); err != nil {
		m.blobs.Delete(context.WithoutCancel(ctx), key)
		return nil, TooLarge(err, m.maxBytes)
	}
	a := &store.Asset{ID: id, ProjectID: projectID, BlobKey: key, Filename: path.Base(filename), ContentType: ct,
		Bytes: body.N(), SHA256: hex.EncodeToString(body.Hash.Sum(nil)), CreatedBy: userID, CreatedAt: time.Now().UTC()}
	if err := m.store.CreateAsset(ctx, a); err != nil {
		m.blobs.Delete(context.WithoutCancel(ctx), key)
		return nil, err
	}
	return a, nil
}

// TooLarge turns any size limit met while reading an upload (the request body's or a
// counter's) into the one too-large error; other errors pass unchanged.
func TooLarge(err error, limit int64) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return &blob.TooLargeError{Limit: mbe.Limit}
	}
	if errors.Is(err, blob.ErrTooLarge) {
		return &blob.TooLargeError{Limit: limit}
	}
	return err
}

// SignedURL is a short-lived link to an asset.
type SignedURL struct {
	URL         string    `json:"url"`
	ExpiresAt   time.Time `json:"expires_at"`
	ContentType string    `json:"content_type"`
}

// URL signs a link to an asset of a project the user belongs to. Assets of other projects do
// not exist for the user.
func (m *Service) URL(ctx context.Context, u *store.User, assetID string) (*SignedURL, error) {
	a, err := m.store.Asset(ctx, assetID)
	if err != nil {
		return nil, store.Missing(err, "asset")
	}
	if !u.IsAdmin {
		if _, err := m.store.Member(ctx, a.ProjectID, u.ID); err != nil {
			return nil, store.Missing(err, "asset")
		}
	}
	url, err := m.blobs.SignedURL(ctx, a.BlobKey, m.ttl, a.ContentType)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(url, "/") {
		url = m.publicURL + url
	}
	return &SignedURL{URL: url, ExpiresAt: time.Now().Add(m.ttl).UTC(), ContentType: a.ContentType}, nil
}

// genericTypes are sniffed types that say little; the file extension may say more.
var genericTypes = map[string]bool{"application/octet-stream": true, "text/plain; charset=utf-8": true}

// ExtraTypes covers media the standard library does not know by extension.
var ExtraTypes = map[string]string{".glb": "model/gltf-binary", ".gltf": "model/gltf+json", ".wav": "audio/wav",
	".mp3": "audio/mpeg", ".flac": "audio/flac", ".webm": "video/webm", ".mp4": "video/mp4", ".m4a": "audio/mp4"}

// SniffContentType decides the stored type from the bytes first, then the extension. HTML is
// never stored as HTML, so a signed URL can never serve active content.
func SniffContentType(head []byte, filename string) string {
	ct := http.DetectContentType(head)
	if genericTypes[ct] {
		ext := strings.ToLower(path.Ext(filename))
		if t, ok := ExtraTypes[ext]; ok {
			return t
		}
		if t := mime.TypeByExtension(ext); t != "" && !strings.Contains(t, "html") && !strings.Contains(t, "javascript") {
			return t
		}
	}
	if strings.HasPrefix(ct, "text/html") || strings.Contains(ct, "xml") {
		return "text/plain; charset=utf-8"
	}
	return ct
}
