package projects_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// reviewed is a project of overlap 1 with cross review where ann labeled item "a" and rev
// approved the label, so "a" is done; "b" and "c" wait for labels.
type reviewed struct {
	*fixture
	p        *workflow.Project
	ann, rev *store.User
	label    *store.Assignment
}

func newReviewed(t *testing.T, st *store.Store) *reviewed {
	f := newFixture(t, st)
	r := &reviewed{fixture: f, p: f.ratings(workflow.Policy{Review: workflow.ReviewCross}), ann: f.user("ann@example.org"), rev: f.user("rev@example.org")}
	f.member(r.p, r.ann, store.RoleAnnotator)
	f.member(r.p, r.rev, store.RoleReviewer)
	f.importItems(r.p, "a", "b", "c")
	for {
		c := f.claim(r.p, r.ann, flow.StageLabel)
		if c.ItemID == f.item(r.p, "a").ID {
			r.label = c
			break
		}
		if err := f.wf.Release(f.ctx, r.p, workflow.Worker{ID: r.ann.ID, Roles: f.roles(r.p, r.ann)}, c.ID); err != nil {
			t.Fatal(err)
		}
	}
	w := workflow.Worker{ID: r.ann.ID, Roles: f.roles(r.p, r.ann)}
	if _, err := f.wf.Submit(f.ctx, r.p, w, r.label.ID, workflow.Submission{Answers: answers(4, "yes"), TimeSpentMS: 20_000}); err != nil {
		t.Fatal(err)
	}
	review := f.claim(r.p, r.rev, flow.StageReview)
	res, err := f.wf.Submit(f.ctx, r.p, workflow.Worker{ID: r.rev.ID, Roles: f.roles(r.p, r.rev)}, review.ID,
		workflow.Submission{Verdict: flow.VerdictApprove, Comment: "fine", TimeSpentMS: 20_000})
	if err != nil || res.ItemStage != flow.StageDone {
		t.Fatalf("review: %v %+v", err, res)
	}
	return r
}

// TestItems: the lead's item list pages in id order with each item's work and ground truth,
// and filters by stage and external id; a bad limit or stage is refused.
func TestItems(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			r := newReviewed(t, be.Open(t))
			first, err := r.prj.Items(r.ctx, r.p.ID, store.ItemFilter{Limit: 2})
			if err != nil || len(first.Items) != 2 || first.NextCursor != first.Items[1].ID {
				t.Fatalf("first page: %v %+v", err, first)
			}
			rest, err := r.prj.Items(r.ctx, r.p.ID, store.ItemFilter{Limit: 2, After: first.NextCursor})
			if err != nil || len(rest.Items) != 1 || rest.NextCursor != "" || rest.Items[0].ID <= first.Items[1].ID {
				t.Fatalf("second page: %v %+v", err, rest)
			}
			done, err := r.prj.Items(r.ctx, r.p.ID, store.ItemFilter{Limit: 10, Stage: flow.StageDone})
			if err != nil || len(done.Items) != 1 || done.Items[0].ExternalID != "a" {
				t.Fatalf("done items: %v %+v", err, done)
			}
			v := done.Items[0]
			if len(v.Annotations) != 1 || v.Annotations[0].UserID != r.ann.ID || v.Annotations[0].ReviewStatus != flow.ReviewApproved ||
				answer(t, v.Annotations[0].Answers, "score") != "4" || len(v.Reviews) != 1 || v.Reviews[0].Verdict == nil ||
				*v.Reviews[0].Verdict != flow.VerdictApprove || *v.Reviews[0].Comment != "fine" || v.GroundTruth == nil ||
				v.GroundTruth.Revision != 1 || answer(t, v.GroundTruth.Answers, "ok") != `"yes"` {
				t.Fatalf("a reviewed item: %+v", v)
			}
			byID, err := r.prj.Items(r.ctx, r.p.ID, store.ItemFilter{Limit: 10, ExternalID: "c"})
			if err != nil || len(byID.Items) != 1 || byID.Items[0].Stage != flow.StageLabel || len(byID.Items[0].Annotations) != 0 || byID.Items[0].GroundTruth != nil {
				t.Fatalf("by external id: %v %+v", err, byID)
			}
			for _, bad := range []struct {
				f           store.ItemFilter
				field, code string
			}{
				{store.ItemFilter{Limit: 0}, "limit", "out_of_range"},
				{store.ItemFilter{Limit: 501}, "limit", "out_of_range"},
				{store.ItemFilter{Limit: 10, Stage: "waiting"}, "stage", "invalid_value"},
			} {
				if _, err := r.prj.Items(r.ctx, r.p.ID, bad.f); fieldCode(err, bad.field) != bad.code {
					t.Errorf("%+v: %v", bad.f, err)
				}
			}
		})
	}
}

// TestItemDetail: one item in full: its work, every ground truth revision with the latest
// shown, its predictions; another project's item does not exist.
func TestItemDetail(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			r := newReviewed(t, be.Open(t))
			a := r.item(r.p, "a")
			note := "the lead corrected it"
			if err := r.st.AddGroundTruth(r.ctx, &store.GroundTruth{ItemID: a.ID, Answers: store.JSON(`{"score":2,"ok":"no"}`),
				Provenance: flow.ProvenanceAdjudicated, DecidedBy: &r.lead.ID, Rationale: &note}); err != nil {
				t.Fatal(err)
			}
			rep, err := r.im.ImportPredictions(r.ctx, r.p, r.lead.ID, strings.NewReader(`{"external_id":"a","model":"m1","answers":{"score":5}}`+"\n"), nil)
			if err != nil || rep.Imported != 1 {
				t.Fatalf("predictions: %v %+v", err, rep)
			}
			d, err := r.prj.Item(r.ctx, r.p.ID, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			gt := d.Item.GroundTruth
			if len(d.GroundTruthHistory) != 2 || gt == nil || gt.Revision != 2 || gt.Provenance.Kind != flow.ProvenanceAdjudicated ||
				*gt.Provenance.By != r.lead.ID || *gt.Provenance.Rationale != note || answer(t, gt.Answers, "ok") != `"no"` {
				t.Fatalf("ground truth: %+v, history %+v", gt, d.GroundTruthHistory)
			}
			if len(d.Item.Annotations) != 1 || len(d.Item.Reviews) != 1 || len(d.Predictions) != 1 || d.Predictions[0].Model != "m1" ||
				d.Criteria == nil || len(d.Criteria) != 0 || d.Family != nil {
				t.Fatalf("detail: %+v", d)
			}
			other := r.ratings(workflow.Policy{})
			if _, err := r.prj.Item(r.ctx, other.ID, a.ID); !isNotFound(err) {
				t.Fatalf("another project's item: %v", err)
			}
			c, err := r.prj.Item(r.ctx, r.p.ID, r.item(r.p, "c").ID)
			if err != nil || c.Item.GroundTruth != nil || len(c.GroundTruthHistory) != 0 || c.Predictions == nil {
				t.Fatalf("an item without work: %v %+v", err, c)
			}
		})
	}
}

// TestItemFamily: an item whose metadata names a seed shows its family, the seed first and
// its negatives with the dimensions they flip; a family past the cap says it is truncated.
func TestItemFamily(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.ratings(workflow.Policy{})
	line := func(id string, meta map[string]any) string {
		b, _ := json.Marshal(map[string]any{"external_id": id, "inputs": map[string]any{"prompt": "p", "output": "o"}, "meta": meta})
		return string(b) + "\n"
	}
	f.importLines(p, line("n-2", map[string]any{projects.FamilyKey: "s1", "flip_set": []string{"color"}, "operator": "recolor"})+
		line("seed", map[string]any{projects.FamilyKey: "s1", "is_seed": true})+
		line("n-1", map[string]any{projects.FamilyKey: "s1"})+
		line("other", map[string]any{projects.FamilyKey: "s2"}))
	d, err := f.prj.Item(f.ctx, p.ID, f.item(p, "n-2").ID)
	if err != nil || d.Family == nil {
		t.Fatalf("family: %v %+v", err, d)
	}
	var got []string
	for _, m := range d.Family.Members {
		got = append(got, fmt.Sprintf("%s seed=%v flips=%v op=%s", m.ExternalID, m.IsSeed, m.FlipSet, m.Operator))
	}
	want := []string{"seed seed=true flips=[] op=", "n-1 seed=false flips=[] op=", "n-2 seed=false flips=[color] op=recolor"}
	if d.Family.SeedID != "s1" || d.Family.Truncated || !slices.Equal(got, want) {
		t.Fatalf("family %s: %q", d.Family.SeedID, got)
	}
	var big strings.Builder
	for i := range 201 {
		big.WriteString(line(fmt.Sprintf("big-%03d", i), map[string]any{projects.FamilyKey: "s3"}))
	}
	f.importLines(p, big.String())
	d, err = f.prj.Item(f.ctx, p.ID, f.item(p, "big-000").ID)
	if err != nil || !d.Family.Truncated || len(d.Family.Members) != 200 {
		t.Fatalf("a family past the cap: %v, %d members, truncated %v", err, len(d.Family.Members), d.Family.Truncated)
	}
}

// TestStatsCriteriaAudit: the counts by stage and each person's work, the criteria list (empty,
// never nil) and the audit trail newest first, with its limit checked.
func TestStatsCriteriaAudit(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			r := newReviewed(t, be.Open(t))
			s, err := r.prj.Stats(r.ctx, r.p.ID)
			if err != nil {
				t.Fatal(err)
			}
			counts := map[flow.Stage]int64{}
			for _, c := range s.Items {
				counts[c.Stage] += c.Count
			}
			work := map[string]int64{}
			for _, tp := range s.Throughput {
				work[tp.UserID+"/"+string(tp.Stage)] = tp.Submitted
			}
			if counts[flow.StageDone] != 1 || counts[flow.StageLabel] != 2 || work[r.ann.ID+"/label"] != 1 || work[r.rev.ID+"/review"] != 1 {
				t.Fatalf("stats: %v %v", counts, work)
			}
			cs, err := r.prj.Criteria(r.ctx, r.p.ID, "", "")
			if err != nil || cs == nil || len(cs) != 0 {
				t.Fatalf("criteria: %v %v", err, cs)
			}
			es, err := r.prj.Audit(r.ctx, r.p.ID, 2)
			if err != nil || len(es) != 2 || es[0].CreatedAt.Before(es[1].CreatedAt) {
				t.Fatalf("audit: %v %+v", err, es)
			}
			for _, limit := range []int{0, 1001} {
				if _, err := r.prj.Audit(r.ctx, r.p.ID, limit); fieldCode(err, "limit") != "out_of_range" {
					t.Errorf("limit %d: %v", limit, err)
				}
			}
			none, err := r.prj.Audit(r.ctx, "no-such-project", 10)
			if err != nil || none == nil || len(none) != 0 {
				t.Fatalf("audit of nothing: %v %v", err, none)
			}
		})
	}
}
