package releases_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
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

// gifBytes is a GIF image header: enough for the upload to be sniffed as an image.
var gifBytes = []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")

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
	b, err := f.media.Upload(ctx, f.fp.ID, f.user, "page.weird-extension", bytes.NewReader(gifBytes))
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
	if !bytes.Equal(f.file(id, pa), pngBytes) || !bytes.Equal(f.file(id, pb), gifBytes) {
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

// TestMediaCopiedByDefault: a release that does not choose copies the uploaded media into
// itself, so that its files hold no link that expires, and says no link does.
func TestMediaCopiedByDefault(t *testing.T) {
	f, a, _ := mediaProject(t)
	id := f.start([]string{"jsonl"}, nil)
	if err := f.rel.Run(context.Background(), id); err != nil || f.get(id).Status != flow.ReleaseDone {
		t.Fatalf("release: %v %+v", err, f.get(id))
	}
	r := f.get(id)
	if in := releasedInputs(t, f, id); string(in["photo"]) != `"media/`+a.ID+`.png"` || r.MediaLinksExpireAt != nil {
		t.Fatalf("released photo %s, links expire %v", in["photo"], r.MediaLinksExpireAt)
	}
	var m struct{ Options map[string]any }
	if json.Unmarshal(r.Manifest, &m) != nil || m.Options["media"] != "copy" {
		t.Fatalf("the manifest records media %v", m.Options["media"])
	}
}

// TestMediaReference: with media "reference" the inputs carry signed URLs of the files under
// the server's public address, every one valid until the same instant, seven days after the
// release was asked for, which the release states.
func TestMediaReference(t *testing.T) {
	f, a, _ := mediaProject(t)
	f.rel = releases.New(releases.Deps{Store: f.st, Blobs: f.blobs, Flow: f.flow, Insight: insight.New(f.st, f.flow), PublicURL: "https://arbiter.example.org"})
	f.rel.UseJobs(f.jobs)
	id := f.start([]string{"jsonl"}, map[string]any{"media": "reference"})
	queued := f.get(id)
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
	r := f.get(id)
	want := r.CreatedAt.Add(7 * 24 * time.Hour).UTC().Truncate(time.Second)
	if r.MediaLinksExpireAt == nil || !r.MediaLinksExpireAt.Equal(want) || queued.MediaLinksExpireAt == nil || !queued.MediaLinksExpireAt.Equal(want) {
		t.Fatalf("links expire %v (queued: %v), want %v", r.MediaLinksExpireAt, queued.MediaLinksExpireAt, want)
	}
	exps := regexp.MustCompile(`exp=(\d+)`).FindAllStringSubmatch(string(f.file(id, "jsonl/test.jsonl")), -1)
	if len(exps) != 3 {
		t.Fatalf("%d signed links, want 3", len(exps))
	}
	for _, e := range exps {
		if e[1] != strconv.FormatInt(want.Unix(), 10) {
			t.Fatalf("a link expires at %s, the release says %d", e[1], want.Unix())
		}
	}
}

// TestMediaReferenceNeedsPublicURL: a server without a public URL, whose local blob store
// signs paths without a host, refuses a release by reference of uploaded media before any job
// starts, saying what to do; a project whose media are all URLs given at import may still
// release by reference.
func TestMediaReferenceNeedsPublicURL(t *testing.T) {
	f, _, _ := mediaProject(t)
	_, err := f.rel.Start(context.Background(), f.fp, f.user, releases.Request{Name: "v1", Formats: []string{"jsonl"}, Options: map[string]any{"media": "reference"}})
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) || fe["options.media"].Code != releases.CodeNoPublicURL || !strings.Contains(fe["options.media"].Message, "--public-url") {
		t.Fatalf("a release of host-less links: %v", err)
	}
	if len(f.jobs.ids) != 0 {
		t.Fatalf("a job was queued: %v", f.jobs.ids)
	}
	g := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	g.importDone(2, func(i int) any { return "text" })
	if r := g.get(g.start([]string{"jsonl"}, map[string]any{"media": "reference"})); r.MediaLinksExpireAt == nil {
		t.Fatalf("a release by reference without uploads: %+v", r)
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
