package store_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

func (f *fixture) release(p *store.Project) *store.Release {
	f.t.Helper()
	r := &store.Release{ProjectID: p.ID, Name: unique("v"), SchemaVersion: 1, Formats: store.JSON(`["jsonl"]`), Options: store.JSON(`{}`),
		Status: flow.ReleaseQueued, CreatedBy: p.CreatedBy}
	must(f.t, f.s.CreateRelease(f.ctx, r))
	return r
}

// TestReleaseLifecycle: queued, running, then done with its files or failed; a step from the
// wrong status changes nothing.
func TestReleaseLifecycle(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		p, other := f.project(lead), f.project(lead)
		read := func(r *store.Release) *store.Release {
			t.Helper()
			got, err := f.s.Release(f.ctx, p.ID, r.ID)
			must(t, err)
			return got
		}
		files := []store.ReleaseFile{
			{Path: "b.jsonl", Format: "jsonl", Bytes: 10, SHA256: "s1", Records: 2, ContentType: "application/x-ndjson", BlobKey: "k/b"},
			{Path: "a.csv", Format: "csv", Bytes: 5, SHA256: "s2", Records: 2, ContentType: "text/csv", BlobKey: "k/a"},
		}
		r := f.release(p)
		if err := f.s.CompleteRelease(f.ctx, r.ID, 2, store.JSON(`{}`), files); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("completing a queued release: %v, want ErrConflict", err)
		}
		must(t, f.s.ReleaseProgress(f.ctx, r.ID, 1))
		equal(t, "progress of a queued release", read(r).RecordsDone, int64(0))
		if ok, err := f.s.StartRelease(f.ctx, r.ID, 2); err != nil || !ok {
			t.Fatalf("start: %v, %v", ok, err)
		}
		if ok, err := f.s.StartRelease(f.ctx, r.ID, 9); err != nil || ok {
			t.Fatalf("starting twice: %v, %v", ok, err)
		}
		must(t, f.s.ReleaseProgress(f.ctx, r.ID, 1))
		if got := read(r); got.Status != flow.ReleaseRunning || got.RecordsTotal != 2 || got.RecordsDone != 1 {
			t.Fatalf("running release %+v", got)
		}
		must(t, f.s.CompleteRelease(f.ctx, r.ID, 2, store.JSON(`{"files":2}`), files))
		if got := read(r); got.Status != flow.ReleaseDone || got.RecordsDone != 2 || string(got.Manifest) != `{"files":2}` || got.FinishedAt == nil {
			t.Fatalf("done release %+v", got)
		}
		must(t, f.s.FailRelease(f.ctx, r.ID, "too late"))
		if got := read(r); got.Status != flow.ReleaseDone || got.Error != nil {
			t.Fatalf("a done release failed: %+v", got)
		}
		listed, err := f.s.ReleaseFiles(f.ctx, r.ID)
		must(t, err)
		if len(listed) != 2 || listed[0].Path != "a.csv" || listed[1].Path != "b.jsonl" || listed[1].SHA256 != "s1" {
			t.Fatalf("files %+v", listed)
		}
		if got, err := f.s.ReleaseFileAt(f.ctx, r.ID, "a.csv"); err != nil || got.BlobKey != "k/a" {
			t.Fatalf("file at a.csv %+v, %v", got, err)
		}
		if _, err := f.s.ReleaseFileAt(f.ctx, r.ID, "c.csv"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a file the release does not list: %v", err)
		}

		failed := f.release(p)
		must(t, f.s.FailRelease(f.ctx, failed.ID, "disk full"))
		if got := read(failed); got.Status != flow.ReleaseFailed || *got.Error != "disk full" || got.FinishedAt == nil {
			t.Fatalf("failed release %+v", got)
		}
		if ok, _ := f.s.StartRelease(f.ctx, failed.ID, 1); ok {
			t.Fatal("a failed release started")
		}
		f.release(other)
		keys, err := f.s.ReleaseKeys(f.ctx, p.ID)
		must(t, err)
		if !containsAll(keys, "k/a", "k/b") || len(keys) != 2 {
			t.Fatalf("release keys %v", keys)
		}
		rs, err := f.s.Releases(f.ctx, p.ID, 10)
		must(t, err)
		if len(rs) != 2 || rs[0].ID != failed.ID || rs[1].ID != r.ID {
			t.Fatalf("releases, newest first: %+v", rs)
		}
		if rs, _ := f.s.Releases(f.ctx, p.ID, 1); len(rs) != 1 {
			t.Fatalf("one release: %d", len(rs))
		}
		if _, err := f.s.Release(f.ctx, other.ID, r.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a release of another project: %v", err)
		}
		if _, err := f.s.Release(f.ctx, "", r.ID); err != nil {
			t.Fatalf("a release of any project: %v", err)
		}
	})
}

// TestReleaseReads: what a release reads of a project: items of the stages it exports with
// their newest ground truth, a page at a time, and the submitted work behind them.
func TestReleaseReads(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, ann, rev := f.user("lead"), f.user("ann"), f.user("rev")
		p := f.project(lead)
		done := f.items(p, "d", flow.StageDone, 3, func(it *store.Item) { it.Meta = store.JSON(`{"m":1}`) })
		dropped := f.item(p, "x", flow.StageDropped)
		f.item(p, "l", flow.StageLabel)
		for i, it := range done[:2] {
			for rev := 1; rev <= i+1; rev++ {
				must(t, f.s.AddGroundTruth(f.ctx, &store.GroundTruth{ItemID: it.ID, Answers: store.JSON(fmt.Sprintf(`{"rev":%d}`, rev)),
					Provenance: flow.ProvenanceMajority, DecidedBy: &lead.ID}))
			}
		}
		stages := []flow.Stage{flow.StageDone, flow.StageDropped}
		page, err := f.s.ItemsWithTruth(f.ctx, p.ID, stages, "", 2)
		must(t, err)
		if len(page) != 2 || page[0].ID != done[0].ID || page[0].Truth == nil || string(page[0].Truth.Answers) != `{"rev":1}` ||
			page[1].Truth.Revision != 2 || string(page[1].Truth.Answers) != `{"rev":2}` || *page[1].Truth.DecidedBy != lead.ID ||
			string(page[0].Meta) != `{"m":1}` || page[0].ProjectID != p.ID {
			t.Fatalf("first page %+v", page)
		}
		page, err = f.s.ItemsWithTruth(f.ctx, p.ID, stages, page[1].ID, 2)
		must(t, err)
		if len(page) != 2 || page[0].ID != done[2].ID || page[0].Truth != nil || page[1].ID != dropped.ID {
			t.Fatalf("second page %+v", page)
		}
		metas, err := f.s.ItemMetas(f.ctx, p.ID, stages, done[0].ID, 10)
		must(t, err)
		if len(metas) != 3 || metas[0].ID != done[1].ID || string(metas[0].Meta) != `{"m":1}` || metas[2].ExternalID != "x" {
			t.Fatalf("metas %+v", metas)
		}
		n, err := f.s.CountItemsInStages(f.ctx, p.ID, stages)
		must(t, err)
		equal(t, "items in the stages", n, int64(4))

		label := f.assign(done[0], ann, flow.StageLabel, flow.AssignSubmitted)
		rejected := f.assign(done[1], rev, flow.StageLabel, flow.AssignRejected)
		review := f.assign(done[0], rev, flow.StageReview, flow.AssignSubmitted, reviewOf(label), func(a *store.Assignment) {
			a.Verdict, a.Comment = new(flow.VerdictApprove), new("fine")
		})
		f.assign(done[1], ann, flow.StageLabel, flow.AssignActive)
		f.assign(done[0], lead, flow.StageAdjudicate, flow.AssignSubmitted)
		work, err := f.s.SubmittedWork(f.ctx, idsOf(done...))
		must(t, err)
		equalIDs(t, "submitted work", assignmentIDs(work), label.ID, rejected.ID, review.ID)
		if got := work[2]; *got.TargetID != label.ID || *got.Verdict != flow.VerdictApprove || *got.Comment != "fine" || got.Stage != flow.StageReview {
			t.Fatalf("review as a release reads it %+v", got)
		}
	})
}

func TestImports(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		p, other := f.project(lead), f.project(lead)
		create := func() *store.Import {
			im := &store.Import{ID: store.NewImportID(), ProjectID: p.ID, Kind: flow.ImportItems, Filename: "items.jsonl", Status: flow.ImportQueued,
				BlobKey: "imports/x", BytesTotal: 100, CreatedBy: lead.ID}
			must(t, f.s.CreateImport(f.ctx, im))
			return im
		}
		first, second := create(), create()
		first.Status, first.BytesDone, first.LinesDone, first.Report, first.Error = flow.ImportFailed, 50, 3, store.JSON(`{"lines":3}`), new("bad line")
		first.BlobKey, first.Filename = "changed", "changed" // not written by UpdateImport
		must(t, f.s.UpdateImport(f.ctx, first))
		got, err := f.s.Import(f.ctx, p.ID, first.ID)
		must(t, err)
		if got.Status != flow.ImportFailed || got.BytesDone != 50 || got.LinesDone != 3 || string(got.Report) != `{"lines":3}` ||
			*got.Error != "bad line" || got.BlobKey != "imports/x" || got.Filename != "items.jsonl" {
			t.Fatalf("updated import %+v", got)
		}
		if _, err := f.s.Import(f.ctx, other.ID, first.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("an import of another project: %v", err)
		}
		if _, err := f.s.Import(f.ctx, "", first.ID); err != nil {
			t.Fatalf("an import of any project: %v", err)
		}
		ims, err := f.s.Imports(f.ctx, p.ID, 10)
		must(t, err)
		if len(ims) != 2 || ims[0].ID != second.ID {
			t.Fatalf("imports, newest first %+v", ims)
		}
	})
}

func TestAssets(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		p, other := f.project(lead), f.project(lead)
		asset := func(p *store.Project, sha string, bytes int64) *store.Asset {
			a := &store.Asset{ID: store.NewAssetID(), ProjectID: p.ID, BlobKey: unique("blob"), Filename: "a.png", ContentType: "image/png",
				Bytes: bytes, SHA256: sha, CreatedBy: lead.ID}
			must(t, f.s.CreateAsset(f.ctx, a))
			return a
		}
		a1, a2, a3 := asset(p, "s1", 100), asset(p, "s1", 200), asset(p, "s2", 50)
		asset(other, "s1", 1000)
		if got, err := f.s.Asset(f.ctx, a2.ID); err != nil || got.Bytes != 200 || got.CreatedAt.IsZero() {
			t.Fatalf("asset %+v, %v", got, err)
		}
		if _, err := f.s.Asset(f.ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing asset: %v", err)
		}
		if got, err := f.s.AssetBySHA256(f.ctx, p.ID, "s1"); err != nil || got.ID != a1.ID {
			t.Fatalf("the first upload of these bytes %+v, %v", got, err)
		}
		if _, err := f.s.AssetBySHA256(f.ctx, p.ID, "s3"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("bytes never uploaded: %v", err)
		}
		used, err := f.s.StorageUsed(f.ctx, p.ID)
		must(t, err)
		equal(t, "storage used", used, store.StorageUse{Assets: 350})
		keys, err := f.s.AssetKeys(f.ctx, p.ID)
		must(t, err)
		if len(keys) != 3 || !containsAll(keys, a1.BlobKey, a2.BlobKey, a3.BlobKey) {
			t.Fatalf("asset keys %v", keys)
		}
		byID, err := f.s.AssetsByIDs(f.ctx, p.ID, []string{a1.ID, a3.ID, "missing"})
		must(t, err)
		if len(byID) != 2 || byID[a3.ID].SHA256 != "s2" {
			t.Fatalf("assets by ids %v", byID)
		}
		if used, _ := f.s.StorageUsed(f.ctx, f.project(lead).ID); used.Total() != 0 {
			t.Fatalf("storage of a project without assets: %d", used)
		}
	})
}
