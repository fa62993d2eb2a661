package releases_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// reviewedRatings labels three likert items twice each (a and b agree on item-00000 and
// item-00001; on item-00002 a says 3 and b 2) and has r review every label, correcting b's
// label of item-00002 to 3, so that every item is done by consensus.
func reviewedRatings(t *testing.T, st *store.Store) *fixture {
	f := newFixture(t, st, testenv.LocalBlobs(t))
	f.useProject(likertSchema(t), workflow.Policy{Overlap: 2, Review: workflow.ReviewCross})
	f.importLines(ratingLine(0), ratingLine(1), ratingLine(2))
	a, b, r := f.member("a@example.org", store.RoleAnnotator), f.member("b@example.org", store.RoleAnnotator), f.member("r@example.org", store.RoleReviewer)
	score := map[string]map[string]int{a.ID: {"item-00000": 4, "item-00001": 4, "item-00002": 3}, b.ID: {"item-00000": 4, "item-00001": 4, "item-00002": 2}}
	for _, u := range []*store.User{a, b} {
		for range 3 {
			c := f.claim(u, flow.StageLabel)
			f.submit(u, c.ID, workflow.Submission{Answers: quality(score[u.ID][f.externalID(c.ItemID)]), TimeSpentMS: 20_000})
		}
	}
	for range 6 {
		c := f.claim(r, flow.StageReview)
		label, err := f.st.Assignment(context.Background(), *c.TargetID)
		if err != nil {
			t.Fatal(err)
		}
		sub := workflow.Submission{Verdict: flow.VerdictApprove, TimeSpentMS: 20_000}
		if label.UserID == b.ID && f.externalID(label.ItemID) == "item-00002" {
			sub = workflow.Submission{Verdict: flow.VerdictCorrect, Answers: quality(3), Comment: "a 3 at least", TimeSpentMS: 20_000}
		}
		f.submit(r, c.ID, sub)
	}
	if n, _ := f.st.CountItemsInStages(context.Background(), f.fp.ID, []flow.Stage{flow.StageDone}); n != 3 {
		t.Fatalf("%d items done", n)
	}
	return f
}

// TestReleaseLabelsAndAgreement: a release with raw holds each item's labels as their
// annotators gave them and the reviews (a correction with the reviewer's answers) under
// pseudonyms; the item's agreement counts the correction in place of the label; and the
// project's agreement over the items with two or more labels; an adjudicated revision of the
// ground truth is released with its rationale and the confidence on [0, 1].
func TestReleaseLabelsAndAgreement(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := reviewedRatings(t, be.Open(t))
			ctx := context.Background()
			first := f.item("item-00000")
			why := "checked against the reference"
			if err := f.st.AddGroundTruth(ctx, &store.GroundTruth{ItemID: first.ID, Answers: store.JSON(`{"quality":5}`), Provenance: flow.ProvenanceAdjudicated,
				DecidedBy: &f.user, Rationale: &why, Details: store.JSON(`{"confidence":5}`)}); err != nil {
				t.Fatal(err)
			}
			id := f.start([]string{"jsonl"}, map[string]any{"raw": true})
			if err := f.rel.Run(ctx, id); err != nil || f.get(id).Status != flow.ReleaseDone {
				t.Fatalf("release: %v %+v", err, f.get(id))
			}
			recs := map[string]releasedRecord{}
			sc := bufio.NewScanner(bytes.NewReader(f.file(id, "jsonl/test.jsonl")))
			for sc.Scan() {
				var rec releasedRecord
				if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
					t.Fatal(err)
				}
				recs[rec.ExternalID] = rec
			}
			third := recs["item-00002"]
			if len(third.Labels) != 2 || len(third.Reviews) != 2 || labelScores(third) != "2,3" {
				t.Fatalf("labels and reviews of item-00002: %+v", third)
			}
			if a := third.Agreement.PercentAgreement; a == nil || *a != 1 {
				t.Fatalf("agreement of item-00002 %v, want 1 with the correction counted", a)
			}
			corrected := 0
			for _, r := range third.Reviews {
				if r.Verdict == "correct" && r.Comment == "a 3 at least" && r.Annotator != "" && r.Reviewer != "" && !strings.Contains(r.Reviewer, "@") &&
					string(r.Answers["quality"]) == "3" {
					corrected++
				}
			}
			if corrected != 1 {
				t.Fatalf("reviews of item-00002: %+v", third.Reviews)
			}
			p := recs["item-00000"].Provenance
			if p.Kind != "adjudicated" || p.Revision != 2 || p.Rationale != why || p.Confidence == nil || *p.Confidence != 1 || p.Adjudicator == "" || p.Adjudicator == f.user {
				t.Fatalf("adjudicated provenance: %+v", p)
			}
			var agreement struct {
				Questions []struct {
					Question string
					Value    *float64
					Units    int
					Raters   int
				}
			}
			if err := json.Unmarshal(f.file(id, "agreement.json"), &agreement); err != nil {
				t.Fatal(err)
			}
			q := agreement.Questions[0]
			if len(agreement.Questions) != 1 || q.Question != "quality" || q.Value == nil || *q.Value != 1 || q.Units != 3 || q.Raters != 2 {
				t.Fatalf("agreement: %+v", agreement)
			}
			if card := string(f.file(id, "README.md")); !strings.Contains(card, "the 3 items of the project with two or more accepted labels") {
				t.Fatalf("the card's agreement scope:\n%s", card)
			}
		})
	}
}

// releasedRecord is the part of a jsonl record these tests read.
type releasedRecord struct {
	ExternalID string `json:"external_id"`
	Labels     []struct {
		Annotator string
		Answers   map[string]json.RawMessage
	}
	Reviews []struct {
		Reviewer, Annotator, Verdict, Comment string
		Answers                               map[string]json.RawMessage
	}
	Agreement struct {
		PercentAgreement *float64 `json:"percent_agreement"`
	}
	Provenance struct {
		Kind, Rationale, Adjudicator string
		Revision                     int
		Confidence                   *float64
	}
}

// labelScores are a record's label qualities, sorted.
func labelScores(rec releasedRecord) string {
	var out []string
	for _, l := range rec.Labels {
		out = append(out, string(l.Answers["quality"]))
	}
	if len(out) == 2 && out[0] > out[1] {
		out[0], out[1] = out[1], out[0]
	}
	return strings.Join(out, ",")
}

// likertSchema is the likert-rating template's schema.
func likertSchema(t *testing.T) string {
	t.Helper()
	tpl, _ := tasks.LookupTemplate("likert-rating")
	b, err := json.Marshal(tpl.Schema)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ratingLine is likert-rating item i without ground truth.
func ratingLine(i int) string {
	return `{"external_id":"item-0000` + strconv.Itoa(i) + `","inputs":{"prompt":"p","output":[{"id":"o1","type":"text","value":"out"}]}}`
}

// quality answers the likert-rating form.
func quality(q int) tasks.Answers { return tasks.Answers{"quality": json.RawMessage(strconv.Itoa(q))} }
