package releases_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// urlBlobs is a blob store the server does not serve itself: files go out as signed URLs.
type urlBlobs struct{ blob.Store }

// done releases the fixture's items in the formats and returns the release id.
func (f *fixture) done(formats ...string) string {
	f.t.Helper()
	id := f.start(formats, nil)
	if err := f.rel.Run(context.Background(), id); err != nil || f.get(id).Status != flow.ReleaseDone {
		f.t.Fatalf("release: %v %+v", err, f.get(id))
	}
	return id
}

// TestFile: only listed files of a done release are served, from the local store as files
// (with or without a leading slash) and from other stores as signed URLs; a listed file whose
// bytes are gone is missing too.
func TestFile(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	f.importDone(4, text)
	queued := f.start([]string{"jsonl"}, nil)
	if _, err := f.rel.File(ctx, f.fp.ID, queued, "manifest.json"); !errors.Is(err, releases.ErrNotDone) {
		t.Fatalf("a file of a queued release: %v", err)
	}
	id := f.done("jsonl")
	d, err := f.rel.File(ctx, f.fp.ID, id, "/jsonl/test.jsonl")
	if err != nil || d.Local == nil || d.URL != "" || d.File.Path != "jsonl/test.jsonl" || d.File.ContentType != "application/x-ndjson" || d.File.Records != 4 {
		t.Fatalf("a listed file: %v %+v", err, d)
	}
	d.Local.Close()
	for name, call := range map[string]func() error{
		"an unlisted file":         func() error { _, err := f.rel.File(ctx, f.fp.ID, id, "jsonl/other.jsonl"); return err },
		"an unknown release":       func() error { _, err := f.rel.File(ctx, f.fp.ID, "no-such-release", "manifest.json"); return err },
		"another project's":        func() error { _, err := f.rel.File(ctx, "another-project", id, "manifest.json"); return err },
		"an unknown release's zip": func() error { _, err := f.rel.Archive(ctx, f.fp.ID, "no-such-release", "x"); return err },
	} {
		if err := call(); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: %v", name, err)
		}
	}
	files, _ := f.st.ReleaseFiles(ctx, id)
	for _, file := range files {
		if file.Path == "README.md" {
			f.blobs.Delete(ctx, file.BlobKey)
		}
	}
	if _, err := f.rel.File(ctx, f.fp.ID, id, "README.md"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a listed file whose bytes are gone: %v", err)
	}

	s3 := releases.New(releases.Deps{Store: f.st, Blobs: urlBlobs{f.blobs}, Flow: f.flow, PublicURL: "https://arbiter.example.org"})
	d, err = s3.File(ctx, f.fp.ID, id, "manifest.json")
	if err != nil || d.Local != nil || !strings.HasPrefix(d.URL, "https://arbiter.example.org/blobs/") || !strings.Contains(d.URL, "manifest.json") {
		t.Fatalf("a file of a store the server does not serve: %v %+v", err, d)
	}
}

// TestArchive: the zip of a done release holds every listed file under one folder named after
// the project and the release, parquet files stored as they are; a file that cannot be read
// stops the zip with its path.
func TestArchive(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	f.importDone(4, text)
	id := f.done("jsonl", "hf")
	a, err := f.rel.Archive(ctx, f.fp.ID, id, "Ratings & Co")
	if err != nil || a.Name != "Ratings-Co-v1.zip" {
		t.Fatalf("archive: %v %+v", err, a)
	}
	var buf bytes.Buffer
	if err := a.WriteTo(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := f.st.ReleaseFiles(ctx, id)
	if len(zr.File) != len(files) {
		t.Fatalf("%d entries for %d files", len(zr.File), len(files))
	}
	parquet := 0
	for _, e := range zr.File {
		if !strings.HasPrefix(e.Name, "Ratings-Co-v1/") {
			t.Errorf("entry %s outside the folder", e.Name)
		}
		if strings.HasSuffix(e.Name, ".parquet") {
			parquet++
			if e.Method != zip.Store {
				t.Errorf("%s compressed again", e.Name)
			}
		}
		if e.Name == "Ratings-Co-v1/jsonl/test.jsonl" {
			rc, _ := e.Open()
			got, _ := io.ReadAll(rc)
			rc.Close()
			if !bytes.Equal(got, f.file(id, "jsonl/test.jsonl")) || e.Method != zip.Deflate {
				t.Errorf("the zipped jsonl differs from the file")
			}
		}
	}
	if parquet == 0 {
		t.Fatal("no parquet file in an hf release")
	}
	if a, err := f.rel.Archive(ctx, f.fp.ID, id, "★"); err != nil || a.Name != "v1.zip" {
		t.Fatalf("a project name of symbols only: %v %+v", err, a)
	}
	r, err := f.rel.Start(ctx, f.fp, f.user, releases.Request{Name: "★", Formats: []string{"jsonl"}})
	if err != nil || f.rel.Run(ctx, r.ID) != nil {
		t.Fatalf("a release named with a symbol: %v", err)
	}
	if a, err := f.rel.Archive(ctx, f.fp.ID, r.ID, "★"); err != nil || a.Name != "release-"+r.ID+".zip" {
		t.Fatalf("names of symbols only: %v %+v", err, a)
	}
	for _, file := range files {
		if file.Path == "manifest.json" {
			f.blobs.Delete(ctx, file.BlobKey)
		}
	}
	if err := a.WriteTo(ctx, io.Discard); err == nil || !strings.Contains(err.Error(), "read manifest.json") {
		t.Fatalf("a zip whose file is gone: %v", err)
	}
}

// TestFilesFromS3: from an object store, a done release's files go out as signed URLs that
// fetch the listed bytes, and its zip reads every file from the store.
func TestFilesFromS3(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, testenv.SQLite(t), testenv.S3Blobs(t))
	f.importDone(3, text)
	id := f.done("jsonl")
	d, err := f.rel.File(ctx, f.fp.ID, id, "jsonl/test.jsonl")
	if err != nil || d.Local != nil || d.URL == "" {
		t.Fatalf("a file on S3: %v %+v", err, d)
	}
	body := get(t, d.URL)
	got, _ := io.ReadAll(body)
	body.Close()
	if int64(len(got)) != d.File.Bytes || !strings.Contains(string(got), "item-00002") {
		t.Fatalf("the signed URL fetched %d bytes, listed %d", len(got), d.File.Bytes)
	}
	links, err := f.rel.Links(ctx, f.fp.ID, id, f.user)
	if err != nil || len(links.Files) != 4 {
		t.Fatalf("links: %v %+v", err, links)
	}
	_, args := linkArgs(t, links.Files[0].URL)
	if d, err := f.rel.SignedFile(ctx, id, links.Files[0].Path, args); err != nil || d.Local != nil {
		t.Fatalf("a file link on S3: %v %+v", err, d)
	} else {
		get(t, d.URL).Close()
	}
	a, err := f.rel.Archive(ctx, f.fp.ID, id, "Ratings")
	var buf bytes.Buffer
	if err != nil || a.WriteTo(ctx, &buf) != nil {
		t.Fatalf("the zip from S3: %v", err)
	}
	if zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil || len(zr.File) != 4 {
		t.Fatalf("the zip from S3: %v", err)
	}
}
