package releases_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// mediaSchema references media every way an input can: a photo, an album of images and a
// candidate whose value is an image.
const mediaSchema = `{
	"version": 1, "title": "Media",
	"inputs": [
		{"name": "photo", "type": "image"},
		{"name": "album", "type": "image_list"},
		{"name": "output", "type": "candidates", "count": 1},
		{"name": "caption", "type": "text", "optional": true}
	],
	"questions": [{"key": "ok", "kind": "binary", "label": "Fine?", "required": true}]
}`

// mediaProject makes a mediaSchema project with one done item whose inputs reference two
// uploaded files (the first one twice) and a URL.
func mediaProject(t *testing.T) (*fixture, *store.Asset, *store.Asset) {
	f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	f.useProject(mediaSchema, workflow.Policy{})
	ctx := context.Background()
	a, err := f.media.Upload(ctx, f.fp.ID, f.user, "Photo.PNG", bytes.NewReader(pngBytes))
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.media.Upload(ctx, f.fp.ID, f.user, "page.weird-extension", strings.NewReader("second file"))
	if err != nil {
		t.Fatal(err)
	}
	f.importLines(`{"external_id":"m-1","inputs":{"photo":{"asset":"` + a.ID + `"},"album":[{"asset":"` + b.ID + `"},"https://example.org/c.png"],` +
		`"output":[{"id":"o1","type":"image","value":{"asset":"` + a.ID + `"}}],"caption":"plain text"},` +
		`"ground_truth":{"answers":{"ok":"yes"},"provenance":"rule"}}`)
	return f, a, b
}

// releasedInputs are the inputs of the one record of a release's jsonl file.
func releasedInputs(t *testing.T, f *fixture, id string) map[string]json.RawMessage {
	t.Helper()
	var rec struct{ Inputs map[string]json.RawMessage }
	if err := json.Unmarshal(bytes.TrimSpace(f.file(id, "jsonl/test.jsonl")), &rec); err != nil {
		t.Fatal(err)
	}
	return rec.Inputs
}

// TestMediaCopy: with media "copy" each referenced file is copied into the release once, as
// media/<asset id> with its extension when it has a plain one, listed with its hash, and the
// inputs name the copies; URLs given at import stay as they were.
func TestMediaCopy(t *testing.T) {
	f, a, b := mediaProject(t)
	id := f.start([]string{"jsonl"}, map[string]any{"media": "copy"})
	if err := f.rel.Run(context.Background(), id); err != nil || f.get(id).Status != flow.ReleaseDone {
		t.Fatalf("release: %v %+v", err, f.get(id))
	}
	in := releasedInputs(t, f, id)
	pa, pb := "media/"+a.ID+".png", "media/"+b.ID
	if string(in["photo"]) != `"`+pa+`"` || string(in["album"]) != `["`+pb+`","https://example.org/c.png"]` ||
		!strings.Contains(string(in["output"]), `"value":"`+pa+`"`) || string(in["caption"]) != `"plain text"` {
		t.Fatalf("released inputs %s", in)
	}
	if !bytes.Equal(f.file(id, pa), pngBytes) || string(f.file(id, pb)) != "second file" {
		t.Fatal("the copies differ from the uploads")
	}
	files, _ := f.st.ReleaseFiles(context.Background(), id)
	copies := 0
	for _, file := range files {
		if file.Format == "media" {
			copies++
			if file.Path == pa && file.SHA256 != a.SHA256 {
				t.Errorf("%s listed with hash %s, uploaded with %s", pa, file.SHA256, a.SHA256)
			}
		}
	}
	if copies != 2 {
		t.Fatalf("%d media files for two uploads", copies)
	}
}

// TestMediaReference: with media "reference" the inputs carry signed URLs of the files, under
// the server's public address.
func TestMediaReference(t *testing.T) {
	f, a, _ := mediaProject(t)
	f.rel = releases.New(releases.Deps{Store: f.st, Blobs: f.blobs, Flow: f.flow, Insight: insight.New(f.st, f.flow), PublicURL: "https://arbiter.example.org"})
	f.rel.UseJobs(f.jobs)
	id := f.start([]string{"jsonl"}, nil)
	if err := f.rel.Run(context.Background(), id); err != nil || f.get(id).Status != flow.ReleaseDone {
		t.Fatalf("release: %v %+v", err, f.get(id))
	}
	var photo string
	in := releasedInputs(t, f, id)
	if err := json.Unmarshal(in["photo"], &photo); err != nil || !strings.HasPrefix(photo, "https://arbiter.example.org/blobs/") || !strings.Contains(photo, a.ID) {
		t.Fatalf("photo %s", in["photo"])
	}
	if files, _ := f.st.ReleaseFiles(context.Background(), id); len(files) != 4 {
		t.Fatalf("a release by reference copies media: %d files", len(files))
	}
}

// TestMediaFailures: a release that cannot copy a file as it was uploaded fails with the
// reason: the file is gone, or its bytes changed since.
func TestMediaFailures(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		spoil      func(f *fixture, a *store.Asset)
	}{
		{"gone", "read asset", func(f *fixture, a *store.Asset) { f.blobs.Delete(context.Background(), a.BlobKey) }},
		{"changed", "no longer has the bytes it was uploaded with", func(f *fixture, a *store.Asset) {
			if err := f.blobs.Put(context.Background(), a.BlobKey, strings.NewReader("other bytes"), -1, a.ContentType); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, a, _ := mediaProject(t)
			tc.spoil(f, a)
			id := f.start([]string{"jsonl"}, map[string]any{"media": "copy"})
			if err := f.rel.Run(context.Background(), id); err != nil {
				t.Fatal(err)
			}
			r := f.get(id)
			if r.Status != flow.ReleaseFailed || r.Error == nil || !strings.Contains(*r.Error, tc.want) || !strings.Contains(*r.Error, a.ID) {
				t.Fatalf("release: %+v %v", r, r.Error)
			}
		})
	}
}
