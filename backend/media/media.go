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
	"github.com/arbiter-annotation/arbiter/tasks"
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
	if err := m.record(ctx, a); err != nil {
		m.blobs.Delete(context.WithoutCancel(ctx), key)
		return nil, err
	}
	return a, nil
}

// AssetView is an uploaded file as responses show it: never where its bytes are stored.
type AssetView struct {
	ID          string    `json:"id"`
	ProjectID   string    `json:"project_id"`
	Filename    string    `json:"filename"`
	ContentType string    `json:"content_type"`
	Bytes       int64     `json:"bytes"`
	SHA256      string    `json:"sha256"`
	CreatedBy   string    `json:"created_by"`
	CreatedAt   time.Time `json:"created_at"`
}

// AssetViewOf is the view of an asset.
func AssetViewOf(a *store.Asset) *AssetView {
	return &AssetView{ID: a.ID, ProjectID: a.ProjectID, Filename: a.Filename, ContentType: a.ContentType, Bytes: a.Bytes,
		SHA256: a.SHA256, CreatedBy: a.CreatedBy, CreatedAt: a.CreatedAt}
}

// ErrQuotaExceeded refuses a file that would take a project over its storage quota.
var ErrQuotaExceeded = errors.New("the project's storage quota is used up; an administrator can raise it")

// record stores the asset's row unless it takes the project over its quota.
func (m *Service) record(ctx context.Context, a *store.Asset) error {
	return ChargeStorage(ctx, m.store, a.ProjectID, a.Bytes, func(tx *store.Store) error { return tx.CreateAsset(ctx, a) })
}

// ChargeStorage runs write, which stores n more bytes of the project (an asset, a part of a
// release), in a transaction that first makes sure they keep the project under its storage
// quota; ErrQuotaExceeded when they do not. The project row is locked, so that uploads and
// releases running side by side cannot each fit and together overrun.
func ChargeStorage(ctx context.Context, st *store.Store, projectID string, n int64, write func(tx *store.Store) error) error {
	return st.WithTx(ctx, func(tx *store.Store) error {
		p, err := tx.ProjectForUpdate(ctx, projectID)
		if err != nil {
			return err
		}
		if p.StorageQuota != nil {
			used, err := tx.StorageUsed(ctx, projectID)
			if err != nil {
				return err
			}
			if used.Total()+n > *p.StorageQuota {
				return ErrQuotaExceeded
			}
		}
		return write(tx)
	})
}

// Storage is a project's use of its quota: its uploaded files and its releases.
type Storage struct {
	UsedBytes    int64  `json:"used_bytes"`
	AssetBytes   int64  `json:"asset_bytes"`
	ReleaseBytes int64  `json:"release_bytes"`
	QuotaBytes   *int64 `json:"quota_bytes"`
}

// Storage reports the bytes a project stores and its quota.
func (m *Service) Storage(ctx context.Context, p *store.Project) (*Storage, error) {
	used, err := m.store.StorageUsed(ctx, p.ID)
	return &Storage{UsedBytes: used.Total(), AssetBytes: used.Assets, ReleaseBytes: used.Releases, QuotaBytes: p.StorageQuota}, err
}

// SetQuota sets a project's storage quota (nil: unlimited); administrators only, audited.
func (m *Service) SetQuota(ctx context.Context, actor *store.User, p *store.Project, bytes *int64) (*Storage, error) {
	if !actor.IsAdmin {
		return nil, ErrAdminOnly
	}
	if bytes != nil && *bytes < 0 {
		return nil, tasks.Field("quota_bytes", "out_of_range", "the quota must be 0 bytes or more, or null for no limit")
	}
	err := m.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.SetStorageQuota(ctx, p.ID, bytes); err != nil {
			return err
		}
		return tx.Audit(ctx, p.ID, actor.ID, "project.quota", "project:"+p.ID, p.StorageQuota, bytes)
	})
	if err != nil {
		return nil, err
	}
	q := *p
	q.StorageQuota = bytes
	return m.Storage(ctx, &q)
}

// ErrAdminOnly refuses what only administrators may do.
var ErrAdminOnly = errors.New("only an administrator may do this")

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

// Sign signs a short-lived link to an asset; the caller (the workflow) has decided that the
// person may have it.
func (m *Service) Sign(ctx context.Context, a *store.Asset) (*SignedURL, error) {
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

// active reports types a browser would run or render with script: HTML, SVG, XML, script.
func active(ct string) bool {
	for _, w := range []string{"html", "xml", "svg", "javascript", "ecmascript"} {
		if strings.Contains(ct, w) {
			return true
		}
	}
	return false
}

// SniffContentType decides the stored type from the bytes first, then the extension. Active
// content (HTML, SVG, XML, script), whether the bytes or the extension say so, is stored as a
// download, so a signed URL never serves it as a page.
func SniffContentType(head []byte, filename string) string {
	ct := http.DetectContentType(head)
	if genericTypes[ct] {
		ext := strings.ToLower(path.Ext(filename))
		if t, ok := ExtraTypes[ext]; ok {
			return t
		}
		if t := mime.TypeByExtension(ext); t != "" {
			if active(t) {
				return blob.Download
			}
			return t
		}
	}
	if active(ct) {
		return blob.Download
	}
	return ct
}
