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
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// linkArgs are the query parameters of a signed link.
func linkArgs(t *testing.T, link string) (path string, l releases.LinkArgs) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	return u.Path, releases.LinkArgs{User: q.Get("u"), Exp: q.Get("exp"), Sig: q.Get("sig")}
}

// TestLinks: a done release's download links are signed for a quarter of an hour and for the
// person who asked: the archive and file links open the release without credentials until
// they expire, and are refused when their release, path, person, expiry or signature is
// changed.
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
			if _, err := rel.Links(ctx, f.fp.ID, queued, f.user); !errors.Is(err, releases.ErrNotDone) {
				t.Fatalf("links of a queued release: %v", err)
			}
			id := f.done("jsonl")
			links, err := rel.Links(ctx, f.fp.ID, id, f.user)
			if err != nil {
				t.Fatal(err)
			}
			files, _ := f.st.ReleaseFiles(ctx, id)
			if len(links.Files) != len(files) || !links.ExpiresAt.Equal(now.Add(15*time.Minute).Truncate(time.Second)) {
				t.Fatalf("links %+v for %d files", links, len(files))
			}
			for i, l := range links.Files {
				path, args := linkArgs(t, l.URL)
				if l.Path != files[i].Path || l.SHA256 != files[i].SHA256 || l.Bytes != files[i].Bytes ||
					path != "/api/v1/release-files/"+id+"/"+files[i].Path || !strings.HasPrefix(l.URL, "https://arbiter.example.org/") {
					t.Errorf("file link %+v", l)
				}
				d, err := rel.SignedFile(ctx, id, files[i].Path, args)
				if err != nil || d.File.Path != files[i].Path {
					t.Fatalf("%s through its link: %v", files[i].Path, err)
				}
				d.Local.Close()
				if _, err := rel.SignedFile(ctx, id, files[(i+1)%len(files)].Path, args); !errors.Is(err, releases.ErrBadLink) {
					t.Errorf("another file with the link of %s: %v", files[i].Path, err)
				}
			}
			path, args := linkArgs(t, links.Archive)
			if path != "/api/v1/release-archives/"+id || args.User != f.user {
				t.Fatalf("archive link %s", links.Archive)
			}
			a, err := rel.SignedArchive(ctx, id, args)
			if err != nil || a.Name != "Ratings-v1.zip" || a.WriteTo(ctx, io.Discard) != nil {
				t.Fatalf("the archive through its link: %v %+v", err, a)
			}
			other := f.done("jsonl")
			changed := map[bool]string{true: "1", false: "0"}[args.Sig[0] == '0'] + args.Sig[1:]
			viewer := f.member("viewer@example.org", store.RoleViewer)
			for name, c := range map[string]struct {
				id string
				l  releases.LinkArgs
			}{
				"another release":   {other, args},
				"a later expiry":    {id, releases.LinkArgs{User: args.User, Exp: args.Exp + "0", Sig: args.Sig}},
				"an expiry of text": {id, releases.LinkArgs{User: args.User, Exp: "soon", Sig: args.Sig}},
				"a changed sig":     {id, releases.LinkArgs{User: args.User, Exp: args.Exp, Sig: changed}},
				"another person":    {id, releases.LinkArgs{User: viewer.ID, Exp: args.Exp, Sig: args.Sig}},
				"no person":         {id, releases.LinkArgs{Exp: args.Exp, Sig: args.Sig}},
			} {
				if _, err := rel.SignedArchive(ctx, c.id, c.l); !errors.Is(err, releases.ErrBadLink) {
					t.Errorf("%s: %v", name, err)
				}
			}
			releases.SetClock(rel, func() time.Time { return now.Add(16 * time.Minute) })
			if _, err := rel.SignedArchive(ctx, id, args); !errors.Is(err, releases.ErrBadLink) {
				t.Fatalf("an expired link: %v", err)
			}
			// the key is the server's, shared by every replica
			replica := releases.New(releases.Deps{Store: f.st, Blobs: f.blobs, Flow: f.flow, Insight: insight.New(f.st, f.flow)})
			releases.SetClock(replica, func() time.Time { return now })
			if _, err := replica.SignedArchive(ctx, id, args); err != nil {
				t.Fatalf("the link on another replica: %v", err)
			}
		})
	}
}

// TestLinksEndWithTheReader: the download links of a viewer stop working the moment the
// viewer is removed from the project, loses the viewer role or is disabled, though they have
// not expired (they used to work for their whole quarter of an hour); an administrator's links
// work without a membership.
func TestLinksEndWithTheReader(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, be.Open(t), testenv.LocalBlobs(t))
			f.importDone(3, text)
			id := f.done("jsonl")
			works := func(u *store.User) error {
				links, err := f.rel.Links(ctx, f.fp.ID, id, u.ID)
				if err != nil {
					t.Fatal(err)
				}
				_, archive := linkArgs(t, links.Archive)
				_, file := linkArgs(t, links.Files[0].URL)
				if _, err := f.rel.SignedArchive(ctx, id, archive); err != nil {
					return err
				}
				d, err := f.rel.SignedFile(ctx, id, links.Files[0].Path, file)
				if err == nil {
					d.Local.Close()
				}
				return err
			}
			for name, end := range map[string]func(u *store.User){
				"removed":  func(u *store.User) { must(t, f.st.SetMember(ctx, f.fp.ID, u.ID, nil)) },
				"demoted":  func(u *store.User) { must(t, f.st.SetMember(ctx, f.fp.ID, u.ID, store.RoleSet{store.RoleAnnotator})) },
				"disabled": func(u *store.User) { must(t, f.st.SetDisabled(ctx, u.ID, true)) },
			} {
				v := f.member(name+"@example.org", store.RoleViewer)
				links, err := f.rel.Links(ctx, f.fp.ID, id, v.ID)
				if err != nil {
					t.Fatal(err)
				}
				if err := works(v); err != nil {
					t.Fatalf("a viewer's links: %v", err)
				}
				end(v)
				_, archive := linkArgs(t, links.Archive)
				_, file := linkArgs(t, links.Files[0].URL)
				if _, err := f.rel.SignedArchive(ctx, id, archive); !errors.Is(err, releases.ErrBadLink) {
					t.Errorf("the archive link of a viewer %s: %v", name, err)
				}
				if _, err := f.rel.SignedFile(ctx, id, links.Files[0].Path, file); !errors.Is(err, releases.ErrBadLink) {
					t.Errorf("a file link of a viewer %s: %v", name, err)
				}
			}
			admin := &store.User{Email: "admin@example.org", Name: "Admin", PasswordHash: "x", IsAdmin: true}
			must(t, f.st.CreateUser(ctx, admin))
			if err := works(admin); err != nil {
				t.Fatalf("an administrator's links: %v", err)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
