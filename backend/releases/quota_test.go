package releases_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// copiedMediaProject makes a mediaSchema project of n done items, each referencing a file of
// its own of size bytes, and returns the bytes uploaded.
func copiedMediaProject(t *testing.T, f *fixture, n, size int) int64 {
	t.Helper()
	f.useProject(mediaSchema, workflow.Policy{})
	var lines []string
	var total int64
	for i := range n {
		data := make([]byte, size) // note: a PNG, padded with noise that does not compress
		for j := range data {
			data[j] = byte(rand.IntN(256))
		}
		copy(data, pngBytes)
		a, err := f.media.Upload(context.Background(), f.fp.ID, f.user, fmt.Sprintf("f%d.png", i), bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		total += a.Bytes
		ref := `{"asset":"` + a.ID + `"}`
		lines = append(lines, `{"external_id":"q-`+fmt.Sprint(i)+`","inputs":{"photo":`+ref+`,"album":[`+ref+`],`+
			`"output":[{"id":"o1","type":"image","value":`+ref+`}]},"ground_truth":{"answers":{"ok":"yes"},"provenance":"rule"}}`)
	}
	f.importLines(lines...)
	return total
}

// TestReleasesCountTowardTheQuota: the files of a release count toward its project's storage
// quota as they are written. A release that fits is done and counted in the storage the
// project reports; releases run side by side past what is left fail with an error that says
// so, their files removed; an upload past what the releases left is refused, and so is a
// release asked for once the quota is used up.
func TestReleasesCountTowardTheQuota(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			ctx := context.Background()
			rec := &flakyBlobs{Store: testenv.LocalBlobs(t), limited: true}
			rec.budget.Store(1 << 40)
			f := newFixture(t, be.Open(t), rec)
			assets := copiedMediaProject(t, f, 6, 40_000)
			quota := 2*assets + 60_000 // note: room for the media and one copy of it, not two
			if err := f.st.SetStorageQuota(ctx, f.fp.ID, &quota); err != nil {
				t.Fatal(err)
			}
			reload := func() {
				p, _ := f.st.Project(ctx, f.fp.ID)
				f.fp.Project = p
			}
			reload()
			first := f.start([]string{"jsonl"}, map[string]any{"media": "copy"})
			if err := f.rel.Run(ctx, first); err != nil || f.get(first).Status != flow.ReleaseDone {
				t.Fatalf("a release that fits: %v %+v", err, f.get(first))
			}
			written := f.get(first).Summary.Bytes
			ids := []string{f.start([]string{"jsonl"}, map[string]any{"media": "copy"}), f.start([]string{"jsonl"}, map[string]any{"media": "copy"})}
			var wg sync.WaitGroup
			for _, id := range ids {
				wg.Go(func() {
					if err := f.rel.Run(ctx, id); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			for _, id := range ids {
				r := f.get(id)
				if r.Status != flow.ReleaseFailed || r.Error == nil || !strings.Contains(*r.Error, "storage quota") {
					t.Fatalf("a release past the quota: %s %v", r.Status, r.Error)
				}
				if len(rec.keys) == 0 {
					t.Fatal("nothing was written")
				}
				if files, _ := f.st.ReleaseFiles(ctx, id); len(files) != 0 {
					t.Errorf("a failed release lists %d files", len(files))
				}
				if n := storedUnder(t, f, rec, id); n != 0 {
					t.Errorf("a failed release left %d files in the blob store", n)
				}
			}
			st, err := f.media.Storage(ctx, f.fp.Project)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("quota %d: assets %d, a release of %d bytes done, 2 more failed; storage reports used %d (assets %d, releases %d)",
				quota, assets, written, st.UsedBytes, st.AssetBytes, st.ReleaseBytes)
			if st.AssetBytes != assets || st.ReleaseBytes < written || st.UsedBytes != st.AssetBytes+st.ReleaseBytes || st.UsedBytes > quota {
				t.Fatalf("storage %+v: assets %d, done releases %d, quota %d", *st, assets, written, quota)
			}
			_, err = f.media.Upload(ctx, f.fp.ID, f.user, "more.bin", bytes.NewReader(make([]byte, quota-st.UsedBytes+1)))
			if !errors.Is(err, media.ErrQuotaExceeded) {
				t.Fatalf("an upload past what the releases left: %v", err)
			}
			full := st.UsedBytes
			if err := f.st.SetStorageQuota(ctx, f.fp.ID, &full); err != nil {
				t.Fatal(err)
			}
			reload()
			if _, err := f.rel.Start(ctx, f.fp, f.user, releases.Request{Name: "v2", Formats: []string{"jsonl"}}); !errors.Is(err, media.ErrQuotaExceeded) {
				t.Fatalf("a release asked for with the quota used up: %v", err)
			}
		})
	}
}

// storedUnder counts the blobs the release wrote that the store still holds.
func storedUnder(t *testing.T, f *fixture, rec *flakyBlobs, id string) int {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	n, prefix := 0, "releases/"+f.fp.ID+"/"+id+"/"
	for _, k := range rec.keys {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		if rc, err := rec.Store.Get(context.Background(), k); err == nil {
			rc.Close()
			n++
		}
	}
	return n
}
