package releases_test

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// TestLinks: a done release's download links are signed for a quarter of an hour: the archive
// link opens the zip without credentials until it expires, and is refused when its release,
// expiry or signature is changed; each file has a signed URL of the blob store.
func TestLinks(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, be.Open(t), testenv.LocalBlobs(t))
			f.importDone(3, text)
			now := time.Now().UTC()
			rel := releases.New(releases.Deps{Store: f.st, Blobs: f.blobs, Flow: f.flow, Insight: insight.New(f.st, f.flow), PublicURL: "https://arbiter.example.org"})
			releases.SetClock(rel, func() time.Time { return now })
			queued := f.start([]string{"jsonl"}, nil)
			if _, err := rel.Links(ctx, f.fp.ID, queued); !errors.Is(err, releases.ErrNotDone) {
				t.Fatalf("links of a queued release: %v", err)
			}
			id := f.done("jsonl")
			links, err := rel.Links(ctx, f.fp.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			files, _ := f.st.ReleaseFiles(ctx, id)
			if len(links.Files) != len(files) || !links.ExpiresAt.Equal(now.Add(15*time.Minute).Truncate(time.Second)) {
				t.Fatalf("links %+v for %d files", links, len(files))
			}
			for i, l := range links.Files {
				if l.Path != files[i].Path || l.SHA256 != files[i].SHA256 || l.Bytes != files[i].Bytes || !strings.HasPrefix(l.URL, "https://arbiter.example.org/blobs/") {
					t.Errorf("file link %+v", l)
				}
			}
			u, err := url.Parse(links.Archive)
			if err != nil || u.Host != "arbiter.example.org" || u.Path != "/api/v1/release-archives/"+id {
				t.Fatalf("archive link %s", links.Archive)
			}
			exp, sig := u.Query().Get("exp"), u.Query().Get("sig")
			a, err := rel.SignedArchive(ctx, id, exp, sig)
			if err != nil || a.Name != "Ratings-v1.zip" || a.WriteTo(ctx, io.Discard) != nil {
				t.Fatalf("the archive through its link: %v %+v", err, a)
			}
			other := f.done("jsonl")
			changed := map[bool]string{true: "1", false: "0"}[sig[0] == '0'] + sig[1:]
			for name, args := range map[string][3]string{
				"another release":   {other, exp, sig},
				"a later expiry":    {id, exp + "0", sig},
				"an expiry of text": {id, "soon", sig},
				"a changed sig":     {id, exp, changed},
			} {
				if _, err := rel.SignedArchive(ctx, args[0], args[1], args[2]); !errors.Is(err, releases.ErrBadLink) {
					t.Errorf("%s: %v", name, err)
				}
			}
			releases.SetClock(rel, func() time.Time { return now.Add(16 * time.Minute) })
			if _, err := rel.SignedArchive(ctx, id, exp, sig); !errors.Is(err, releases.ErrBadLink) {
				t.Fatalf("an expired link: %v", err)
			}
			// the key is the server's, shared by every replica
			replica := releases.New(releases.Deps{Store: f.st, Blobs: f.blobs, Flow: f.flow, Insight: insight.New(f.st, f.flow)})
			releases.SetClock(replica, func() time.Time { return now })
			if _, err := replica.SignedArchive(ctx, id, exp, sig); err != nil {
				t.Fatalf("the link on another replica: %v", err)
			}
		})
	}
}
