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
	"strings"
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

// TestArchiveFiles: paths resolve to assets stored on first use, once per path, and files with
// the same bytes (in the archive, or uploaded to the project before) share one asset; other
// projects share nothing. A path the archive does not hold, or a file that is not the medium
// asked for, is refused by Check, which stores nothing.
func TestArchiveFiles(t *testing.T) {
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
		files := a.Files(fx.project.ID, fx.lead.ID)
		for _, c := range []struct {
			path string
			t    tasks.InputType
			code string
		}{
			{"img/a.png", tasks.InputImage, ""}, {"./img/a.png", tasks.InputImageList, ""},
			{"missing.png", tasks.InputImage, "missing_media"}, {"img", tasks.InputImage, "missing_media"}, {"a.png", tasks.InputImage, "missing_media"},
			{"img/a.png", tasks.InputAudio, "wrong_media"}, {"page.html", tasks.InputImage, "wrong_media"}, {"page.html", tasks.InputAudio, "wrong_media"},
		} {
			switch bad := files.Check(c.path, c.t); {
			case c.code == "" && bad != nil:
				t.Errorf("Check(%s, %s) = %+v, want nil", c.path, c.t, bad)
			case c.code != "" && (bad == nil || bad.Code != c.code || !strings.Contains(bad.Message, c.path)):
				t.Errorf("Check(%s, %s) = %+v, want %q", c.path, c.t, bad, c.code)
			}
		}
		if keys, _ := fx.st.AssetKeys(ctx, fx.project.ID); len(keys) != 1 {
			t.Fatalf("checking stored files: %d assets", len(keys))
		}
		id := func(p string) string {
			t.Helper()
			id, err := files.AssetID(ctx, p)
			if err != nil {
				t.Fatalf("asset of %s: %v", p, err)
			}
			return id
		}
		first := id("img/a.png")
		for _, p := range []string{"img/a.png", "./img/a.png", "img/../img/a.png", "img/copy-of-a.png"} {
			if got := id(p); got != first {
				t.Errorf("%s resolved to %q, want the asset of img/a.png", p, got)
			}
		}
		if got := id("img/old.png"); got != earlier.ID {
			t.Fatalf("a file uploaded before resolved to %q, want %s", got, earlier.ID)
		}
		if got, err := files.AssetID(ctx, "missing.png"); err == nil {
			t.Errorf("missing.png resolved to %s", got)
		}
		page, err := fx.st.Asset(ctx, id("page.html"))
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
		if got, err := a.Files(other.ID, fx.lead.ID).AssetID(ctx, "img/a.png"); err != nil || got == first {
			t.Fatalf("another project's files: %q, %v", got, err)
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
