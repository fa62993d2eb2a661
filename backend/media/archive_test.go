package media

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"testing/iotest"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// entry is one file of a test archive; raw entries are written with their declared sizes.
type entry struct {
	name   string
	data   []byte
	method uint16
	raw    *zip.FileHeader
}

func zipOf(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range entries {
		var fw io.Writer
		var err error
		if e.raw != nil {
			fw, err = w.CreateRaw(e.raw)
		} else {
			fw, err = w.CreateHeader(&zip.FileHeader{Name: e.name, Method: e.method})
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// hexNoise is text of random hex digits: it compresses to about half, like real media less.
func hexNoise(n int) []byte {
	b := make([]byte, n/2)
	rand.Read(b)
	return []byte(hex.EncodeToString(b))
}

func png(tail string) []byte { return append(append([]byte{}, pngHead...), tail...) }

// TestArchiveResolver: paths resolve to assets stored on first use, once per path, and files
// with the same bytes (in the archive, or uploaded to the project before) share one asset;
// other projects share nothing.
func TestArchiveResolver(t *testing.T) {
	forEachEnv(t, Config{MaxUploadBytes: 1 << 20}, func(t *testing.T, fx *fixture) {
		ctx := context.Background()
		earlier, err := fx.upload(t, "earlier.png", png("earlier"))
		if err != nil {
			t.Fatal(err)
		}
		z := zipOf(t,
			entry{name: "img/", data: nil},
			entry{name: "img/a.png", data: png("a"), method: zip.Deflate},
			entry{name: "./img/copy-of-a.png", data: png("a")},
			entry{name: "img/old.png", data: png("earlier")},
			entry{name: "page.html", data: []byte("<html><script>alert(1)</script></html>")},
		)
		a, err := fx.m.OpenArchive(bytes.NewReader(z))
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		resolve := a.Resolver(fx.project.ID, fx.lead.ID)
		id := func(p string) (string, bool) {
			t.Helper()
			id, ok, err := resolve(ctx, p)
			if err != nil {
				t.Fatalf("resolve %s: %v", p, err)
			}
			return id, ok
		}
		first, ok := id("img/a.png")
		if !ok {
			t.Fatal("img/a.png not found")
		}
		for _, p := range []string{"img/a.png", "./img/a.png", "img/../img/a.png", "img/copy-of-a.png"} {
			if got, ok := id(p); !ok || got != first {
				t.Errorf("%s resolved to %q (%v), want the asset of img/a.png", p, got, ok)
			}
		}
		if got, ok := id("img/old.png"); !ok || got != earlier.ID {
			t.Fatalf("a file uploaded before resolved to %q, want %s", got, earlier.ID)
		}
		for _, p := range []string{"missing.png", "img", "img/", "a.png"} {
			if got, ok := id(p); ok {
				t.Errorf("%s resolved to %s", p, got)
			}
		}
		pageID, _ := id("page.html")
		page, err := fx.st.Asset(ctx, pageID)
		if err != nil || page.ContentType != blob.Download || page.Filename != "page.html" {
			t.Fatalf("html from an archive: %+v, %v", page, err)
		}
		asset, _ := fx.st.Asset(ctx, first)
		if asset.ContentType != "image/png" || asset.Filename != "a.png" || asset.Bytes != int64(len(png("a"))) {
			t.Fatalf("asset %+v", asset)
		}
		if keys, _ := fx.st.AssetKeys(ctx, fx.project.ID); len(keys) != 3 {
			t.Fatalf("%d assets, want earlier.png, a.png and page.html", len(keys))
		}

		other := fx.newProject(t, "other")
		if got, ok, err := a.Resolver(other.ID, fx.lead.ID)(ctx, "img/a.png"); err != nil || !ok || got == first {
			t.Fatalf("another project's resolver: %q, %v, %v", got, ok, err)
		}
	})
}

// TestArchiveRefused: what is no zip, or passes the upload limit packed or unpacked, or
// compresses like a zip bomb, is refused before anything is stored; small entries may
// compress as they like.
func TestArchiveRefused(t *testing.T) {
	const limit = 1 << 20
	forEachEnv(t, Config{MaxUploadBytes: limit}, func(t *testing.T, fx *fixture) {
		half := hexNoise(600 << 10)
		cases := []struct {
			name string
			body []byte
			code string // a field error's code at "media", or "" for a TooLargeError
		}{
			{"not a zip", []byte("PK but not really"), "invalid_archive"},
			{"larger than the limit", zipOf(t, entry{name: "big.bin", data: hexNoise(limit + 2)}), ""},
			{"unpacks past the limit", zipOf(t, entry{name: "a.txt", data: half, method: zip.Deflate}, entry{name: "b.txt", data: half, method: zip.Deflate}), ""},
			{"zip bomb", zipOf(t, entry{name: "zeros.bin", data: make([]byte, 2<<20), method: zip.Deflate}), "compression_ratio"},
			{"declared sizes that overflow", zipOf(t,
				entry{raw: &zip.FileHeader{Name: "a", Method: zip.Store, CompressedSize64: 1 << 57, UncompressedSize64: 1 << 63}, data: []byte("tiny")},
				entry{raw: &zip.FileHeader{Name: "b", Method: zip.Store, CompressedSize64: 1 << 57, UncompressedSize64: 1 << 63}, data: []byte("tiny")}), ""},
		}
		for _, c := range cases {
			a, err := fx.m.OpenArchive(bytes.NewReader(c.body))
			if a != nil {
				a.Close()
			}
			var fe tasks.FieldErrors
			var tl *blob.TooLargeError
			switch {
			case c.code == "" && (!errors.As(err, &tl) || tl.Limit != limit):
				t.Errorf("%s: %v, want a TooLargeError", c.name, err)
			case c.code != "" && (!errors.As(err, &fe) || fe["media"].Code != c.code):
				t.Errorf("%s: %v, want %s at media", c.name, err, c.code)
			}
		}
		a, err := fx.m.OpenArchive(bytes.NewReader(zipOf(t, entry{name: "blank.bin", data: make([]byte, 1<<20), method: zip.Deflate})))
		if err != nil {
			t.Fatalf("a small entry that compresses well: %v", err)
		}
		a.Close()
		if len(fx.blobs.puts) != 0 {
			t.Fatalf("opening archives stored %v", fx.blobs.puts)
		}
	})
}

// TestArchiveSpool: the archive is spooled to a temporary file that Close removes, and a
// body that fails while spooling is that error.
func TestArchiveSpool(t *testing.T) {
	m := New(nil, nil, Config{MaxUploadBytes: 1 << 20})
	a, err := m.OpenArchive(bytes.NewReader(zipOf(t, entry{name: "a.png", data: png("a")})))
	if err != nil {
		t.Fatal(err)
	}
	spooled := a.file.Name()
	if _, err := os.Stat(spooled); err != nil {
		t.Fatalf("spooled file: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(spooled); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the spooled file outlived Close: %v", err)
	}
	if _, err := m.OpenArchive(iotest.ErrReader(io.ErrClosedPipe)); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("a failing body: %v", err)
	}
}

// TestArchiveManySmallEntries: entries each small enough to skip the entry's ratio check are
// still refused together when the archive unpacks far more than MaxRatio times its size; an
// archive of as many entries that compress as media do is taken.
func TestArchiveManySmallEntries(t *testing.T) {
	forEachEnv(t, Config{MaxUploadBytes: 64 << 20}, func(t *testing.T, fx *fixture) {
		var bomb, media []entry
		for i := range 32 {
			bomb = append(bomb, entry{name: fmt.Sprintf("zeros-%02d.bin", i), data: make([]byte, 1<<20), method: zip.Deflate})
			media = append(media, entry{name: fmt.Sprintf("clip-%02d.bin", i), data: hexNoise(64 << 10), method: zip.Deflate})
		}
		_, err := fx.m.OpenArchive(bytes.NewReader(zipOf(t, bomb...)))
		var fe tasks.FieldErrors
		if !errors.As(err, &fe) || fe["media"].Code != "compression_ratio" {
			t.Fatalf("32 entries of 1 MiB of zeros: %v, want compression_ratio at media", err)
		}
		a, err := fx.m.OpenArchive(bytes.NewReader(zipOf(t, media...)))
		if err != nil {
			t.Fatalf("32 entries that compress as media do: %v", err)
		}
		a.Close()
	})
}
