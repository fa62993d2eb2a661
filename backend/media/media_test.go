package media

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// pngHead is the start of a PNG file: its signature and the IHDR chunk's header.
var pngHead = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")

// recorder is a blob store that remembers the keys written to it.
type recorder struct {
	blob.Store
	mu   sync.Mutex
	puts []string
}

func (r *recorder) Put(ctx context.Context, key string, rd io.Reader, size int64, ct string) error {
	r.mu.Lock()
	r.puts = append(r.puts, key)
	r.mu.Unlock()
	return r.Store.Put(ctx, key, rd, size, ct)
}

// fixture is a media service on one database and one blob store, with a project and its
// lead, and an administrator.
type fixture struct {
	m       *Service
	st      *store.Store
	blobs   *recorder
	project *store.Project
	lead    *store.User
	admin   *store.User
}

// forEachEnv runs f on SQLite and PostgreSQL with local blobs, and on SQLite with MinIO.
func forEachEnv(t *testing.T, cfg Config, f func(t *testing.T, fx *fixture)) {
	envs := []struct {
		name  string
		db    func(testing.TB) *store.Store
		blobs func(testing.TB) blob.Store
	}{
		{"sqlite+local", testenv.SQLite, testenv.LocalBlobs},
		{"postgres+local", testenv.Postgres, testenv.LocalBlobs},
		{"sqlite+minio", testenv.SQLite, testenv.S3Blobs},
	}
	for _, e := range envs {
		t.Run(e.name, func(t *testing.T) {
			st := e.db(t)
			rec := &recorder{Store: e.blobs(t)}
			fx := &fixture{m: New(st, rec, cfg), st: st, blobs: rec}
			fx.lead, fx.admin = fx.user(t, "lead@example.org", false), fx.user(t, "admin@example.org", true)
			fx.project = fx.newProject(t, "images")
			f(t, fx)
		})
	}
}

func (fx *fixture) user(t *testing.T, email string, admin bool) *store.User {
	t.Helper()
	u := &store.User{Email: email, Name: email, PasswordHash: "-", IsAdmin: admin}
	if err := fx.st.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func (fx *fixture) newProject(t *testing.T, name string) *store.Project {
	t.Helper()
	p := &store.Project{Name: name, CreatedBy: fx.lead.ID}
	if err := fx.st.CreateProject(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	return p
}

func (fx *fixture) upload(t *testing.T, name string, data []byte) (*store.Asset, error) {
	t.Helper()
	return fx.m.Upload(context.Background(), fx.project.ID, fx.lead.ID, name, bytes.NewReader(data))
}

// blobBytes reads a stored blob; the error is ErrNotFound when there is none.
func (fx *fixture) blobBytes(t *testing.T, key string) ([]byte, error) {
	t.Helper()
	r, err := fx.blobs.Get(context.Background(), key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// assertNothingKept asserts that the last blob written is gone and the project has no asset.
func (fx *fixture) assertNothingKept(t *testing.T) {
	t.Helper()
	if _, err := fx.blobBytes(t, fx.blobs.puts[len(fx.blobs.puts)-1]); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("the blob of a refused upload is still stored (%v)", err)
	}
	if keys, err := fx.st.AssetKeys(context.Background(), fx.project.ID); err != nil || len(keys) != 0 {
		t.Fatalf("assets recorded: %v, %v", keys, err)
	}
}

// TestUpload: the bytes are stored whole under the project, and the row says what they are
// by their content, with their size and sha256 and the file's base name.
func TestUpload(t *testing.T) {
	forEachEnv(t, Config{MaxUploadBytes: 1 << 20}, func(t *testing.T, fx *fixture) {
		data := append(append([]byte{}, pngHead...), bytes.Repeat([]byte{7}, 100_000)...)
		a, err := fx.upload(t, "scans/batch 1/photo.txt", data)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if a.ContentType != "image/png" || a.Filename != "photo.txt" || a.Bytes != int64(len(data)) || a.SHA256 != hex.EncodeToString(sum[:]) ||
			a.BlobKey != "projects/"+fx.project.ID+"/assets/"+a.ID || a.ProjectID != fx.project.ID || a.CreatedBy != fx.lead.ID {
			t.Fatalf("asset %+v", a)
		}
		if got, err := fx.blobBytes(t, a.BlobKey); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("stored %d bytes (%v), uploaded %d", len(got), err, len(data))
		}
		row, err := fx.st.Asset(context.Background(), a.ID)
		if err != nil || row.SHA256 != a.SHA256 || row.Bytes != a.Bytes || row.ContentType != a.ContentType {
			t.Fatalf("row %+v, %v", row, err)
		}
		again, err := fx.upload(t, "photo.png", data)
		if err != nil || again.ID == a.ID || again.BlobKey == a.BlobKey || again.SHA256 != a.SHA256 {
			t.Fatalf("a second upload of the same bytes: %+v, %v", again, err)
		}
		empty, err := fx.upload(t, "empty.txt", nil)
		if err != nil || empty.Bytes != 0 || empty.SHA256 != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
			t.Fatalf("an empty file: %+v, %v", empty, err)
		}
	})
}

// TestUploadSizeLimit: a file of exactly the limit is stored; one byte more is a
// TooLargeError with the limit, and leaves neither blob nor row, even below the sniffed head.
func TestUploadSizeLimit(t *testing.T) {
	for _, limit := range []int64{100, 10_000} {
		forEachEnv(t, Config{MaxUploadBytes: limit}, func(t *testing.T, fx *fixture) {
			_, err := fx.upload(t, "big.bin", make([]byte, limit+1))
			var tl *blob.TooLargeError
			if !errors.As(err, &tl) || tl.Limit != limit {
				t.Fatalf("one byte over %d: %v", limit, err)
			}
			fx.assertNothingKept(t)
			if a, err := fx.upload(t, "fits.bin", make([]byte, limit)); err != nil || a.Bytes != limit {
				t.Fatalf("exactly the limit: %+v, %v", a, err)
			}
		})
	}
}

// TestUploadReadFailure: a body that breaks off is that error, and nothing is kept.
func TestUploadReadFailure(t *testing.T) {
	forEachEnv(t, Config{MaxUploadBytes: 1 << 20}, func(t *testing.T, fx *fixture) {
		body := io.MultiReader(bytes.NewReader(make([]byte, 5000)), iotest.ErrReader(io.ErrUnexpectedEOF))
		_, err := fx.m.Upload(context.Background(), fx.project.ID, fx.lead.ID, "cut.bin", body)
		if !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, blob.ErrTooLarge) {
			t.Fatalf("a broken body: %v", err)
		}
		fx.assertNothingKept(t)
	})
}

// TestQuota: only administrators set a quota of 0 or more bytes; an upload that would pass it
// is refused and kept nowhere, and uploads side by side cannot together overrun it.
func TestQuota(t *testing.T) {
	forEachEnv(t, Config{MaxUploadBytes: 1 << 20}, func(t *testing.T, fx *fixture) {
		ctx := context.Background()
		quota := int64(100)
		if _, err := fx.m.SetQuota(ctx, fx.lead, fx.project, &quota); !errors.Is(err, ErrAdminOnly) {
			t.Fatalf("a lead set the quota: %v", err)
		}
		negative := int64(-1)
		var fe tasks.FieldErrors
		if _, err := fx.m.SetQuota(ctx, fx.admin, fx.project, &negative); !errors.As(err, &fe) || fe["quota_bytes"].Code != "out_of_range" {
			t.Fatalf("a negative quota: %v", err)
		}
		st, err := fx.m.SetQuota(ctx, fx.admin, fx.project, &quota)
		if err != nil || st.UsedBytes != 0 || st.QuotaBytes == nil || *st.QuotaBytes != 100 {
			t.Fatalf("storage %+v, %v", st, err)
		}
		p, _ := fx.st.Project(ctx, fx.project.ID)

		var wg sync.WaitGroup
		errs := make(chan error, 5)
		for range 5 {
			wg.Go(func() {
				_, err := fx.m.Upload(ctx, p.ID, fx.lead.ID, "part.bin", bytes.NewReader(make([]byte, 30)))
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		stored := 0
		for err := range errs {
			switch {
			case err == nil:
				stored++
			case !errors.Is(err, ErrQuotaExceeded):
				t.Fatalf("an upload over the quota: %v", err)
			}
		}
		st, err = fx.m.Storage(ctx, p)
		if err != nil || stored != 3 || st.UsedBytes != 90 {
			t.Fatalf("%d uploads of 30 bytes stored under a quota of 100, %d bytes used (%v)", stored, st.UsedBytes, err)
		}
		if st, err = fx.m.SetQuota(ctx, fx.admin, p, nil); err != nil || st.QuotaBytes != nil {
			t.Fatalf("lifting the quota: %+v, %v", st, err)
		}
		if _, err := fx.upload(t, "more.bin", make([]byte, 30)); err != nil {
			t.Fatalf("an upload without a quota: %v", err)
		}
		events, _ := fx.st.AuditEvents(ctx, p.ID, 10)
		if len(events) != 2 || events[0].Action != "project.quota" || events[1].Action != "project.quota" {
			t.Fatalf("audit %+v", events)
		}
	})
}

// TestSign: a link to the asset's blob for the ttl, under the public URL for local blobs; a
// browser-loadable presigned URL on S3.
func TestSign(t *testing.T) {
	forEachEnv(t, Config{MaxUploadBytes: 1 << 20, SignedURLTTL: 5 * time.Minute, PublicURL: "https://arbiter.example.org/"}, func(t *testing.T, fx *fixture) {
		data := append(append([]byte{}, pngHead...), 1, 2, 3)
		a, err := fx.upload(t, "a.png", data)
		if err != nil {
			t.Fatal(err)
		}
		su, err := fx.m.Sign(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		if su.ContentType != "image/png" || time.Until(su.ExpiresAt) < 5*time.Minute-time.Minute || time.Until(su.ExpiresAt) > 5*time.Minute {
			t.Fatalf("signed %+v", su)
		}
		switch s := fx.blobs.Store.(type) {
		case *blob.Local:
			rest, ok := strings.CutPrefix(su.URL, "https://arbiter.example.org/blobs/")
			key, query, _ := strings.Cut(rest, "?")
			q, _ := url.ParseQuery(query)
			if ct, err := s.Verify(key, q); !ok || key != a.BlobKey || err != nil || ct != "image/png" {
				t.Fatalf("local url %s: %q, %v", su.URL, ct, err)
			}
		default:
			resp, err := http.Get(su.URL)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !bytes.Equal(body, data) || resp.Header.Get("Content-Type") != "image/png" {
				t.Fatalf("GET %s: %d %q", su.URL, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
		}
		if _, err := fx.m.Sign(context.Background(), &store.Asset{BlobKey: "../escape"}); err == nil {
			t.Fatal("signed a key that is no blob key")
		}
	})
}

func TestTooLarge(t *testing.T) {
	other := errors.New("disk full")
	cases := []struct {
		err   error
		limit int64 // of the TooLargeError wanted; 0 when err must pass unchanged
	}{
		{&http.MaxBytesError{Limit: 5}, 5},
		{&blob.TooLargeError{Limit: 3}, 10},
		{errors.Join(other, &blob.TooLargeError{Limit: 3}), 10},
		{other, 0},
		{nil, 0},
	}
	for _, c := range cases {
		got := TooLarge(c.err, 10)
		var tl *blob.TooLargeError
		if c.limit == 0 && got != c.err || c.limit != 0 && (!errors.As(got, &tl) || tl.Limit != c.limit) {
			t.Errorf("TooLarge(%v) = %v, want limit %d", c.err, got, c.limit)
		}
	}
	if New(nil, nil, Config{MaxUploadBytes: 42}).MaxUploadBytes() != 42 {
		t.Fatal("MaxUploadBytes")
	}
}
