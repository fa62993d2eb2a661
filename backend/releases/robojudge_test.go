package releases_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// The texts of the RoboJudge walk: the annotator's evidence, the reviewer's correction and the
// expert's decision.
const (
	annPA = "The cube floats up before the grasp closes; otherwise the scene is stable."
	revPA = "A single-frame lift before the grasp: a minor artifact, the physics holds."
	adjPA = "One frame of early lift; minor, so PA 4 as the reviewer says."
)

// useTemplate makes a project of a built-in template with the policy and releases it from then
// on.
func (f *fixture) useTemplate(template string, pol workflow.Policy) {
	f.t.Helper()
	ctx := context.Background()
	u, err := f.st.User(ctx, f.user)
	if err != nil {
		f.t.Fatal(err)
	}
	d, err := f.projects.CreateProject(ctx, u, projects.ProjectSpec{Name: template, Template: template, Workflow: &pol})
	if err != nil {
		f.t.Fatal(err)
	}
	p, _ := f.st.Project(ctx, d.ID)
	if f.fp, err = f.flow.LoadProject(ctx, p, 0); err != nil {
		f.t.Fatal(err)
	}
}

// robojudgeAnswers are the template's example answers with PA and its evidence replaced.
func robojudgeAnswers(pa int, evidence string) tasks.Answers {
	tpl, _ := tasks.LookupTemplate("robojudge")
	a := tpl.Schema.ExampleAnswers()
	a["physical_adherence"], _ = json.Marshal(pa)
	a["pa_evidence"], _ = json.Marshal(evidence)
	return a
}

// correctedRoboJudge walks one RoboJudge item through label (both passes) → cross-review, where
// the reviewer corrects PA 3 to 4 with their own evidence → expert adjudication.
func correctedRoboJudge(t *testing.T, st *store.Store) (f *fixture, ann, rev, adj *store.User) {
	f = newFixture(t, st, testenv.LocalBlobs(t))
	f.useTemplate("robojudge", workflow.Policy{Overlap: 1, Review: workflow.ReviewCross, Adjudication: workflow.AdjudicateAlways})
	f.importLines(`{"external_id":"droid-0421-gen07","inputs":{"video":"media/robot_rollout.mp4","first_frame":"media/robot_first_frame.png",` +
		`"instruction":"Pick up the green cube and place it to the left of the gripper.","generator":"video-gen-07"},"meta":{"source_clip":"DROID/pick_place/episode_0421"}}`)
	ann, rev, adj = f.member("ann@example.org", store.RoleAnnotator), f.member("rev@example.org", store.RoleReviewer), f.member("adj@example.org", store.RoleAdjudicator)
	own := robojudgeAnswers(3, annPA)
	for pass := range 2 {
		c := f.claim(ann, flow.StageLabel)
		part := tasks.Answers{}
		maps.Copy(part, own)
		maps.DeleteFunc(part, func(k string, _ json.RawMessage) bool { return f.fp.Schema.PassOf(k) != pass })
		f.submit(ann, c.ID, workflow.Submission{Answers: part, TimeSpentMS: 30_000})
	}
	c := f.claim(rev, flow.StageReview)
	f.submit(rev, c.ID, workflow.Submission{Verdict: flow.VerdictCorrect, Answers: robojudgeAnswers(4, revPA), Comment: "PA too harsh", TimeSpentMS: 20_000})
	c = f.claim(adj, flow.StageAdjudicate)
	conf := 4
	f.submit(adj, c.ID, workflow.Submission{Answers: robojudgeAnswers(4, adjPA), Rationale: "The lift is one frame.", Confidence: &conf, TimeSpentMS: 20_000})
	if it := f.item("droid-0421-gen07"); it.Stage != flow.StageDone {
		t.Fatalf("the item is in %s", it.Stage)
	}
	return f, ann, rev, adj
}

// rawRecord is the part of a raw jsonl record the RoboJudge test reads.
type rawRecord struct {
	Labels []struct {
		Annotator, Role, Review string
		Answers                 map[string]json.RawMessage
	}
	Reviews []struct {
		Reviewer, Role, Annotator, Verdict, Comment string
		Answers                                     map[string]json.RawMessage
	}
	Texts      map[string][]exports.TextAnswer
	Provenance struct{ Kind, Adjudicator string }
}

// TestRoboJudgeCorrectionRelease: a RoboJudge label corrected by a reviewer and adjudicated by
// an expert is released with raw=true holding the annotator's original scores and evidence
// under the annotator's pseudonym and role, the correction under the reviewer's, and the
// kept evidence of the correction credited to the reviewer; the robojudge items carry both
// assessments and the expert's decision.
func TestRoboJudgeCorrectionRelease(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f, ann, rev, adj := correctedRoboJudge(t, be.Open(t))
			ctx := context.Background()
			id := f.start([]string{"jsonl", "robojudge"}, map[string]any{"raw": true})
			if err := f.rel.Run(ctx, id); err != nil || f.get(id).Status != flow.ReleaseDone {
				t.Fatalf("release: %v %+v", err, f.get(id))
			}
			salt, err := releases.Salt(ctx, f.rel, f.fp.ID)
			if err != nil {
				t.Fatal(err)
			}
			pAnn, pRev, pAdj := exports.Pseudonym(salt, ann.ID), exports.Pseudonym(salt, rev.ID), exports.Pseudonym(salt, adj.ID)
			var rec rawRecord
			if err := json.Unmarshal(bytes.TrimSpace(f.file(id, "jsonl/test.jsonl")), &rec); err != nil {
				t.Fatal(err)
			}
			if len(rec.Labels) != 1 || len(rec.Reviews) != 1 {
				t.Fatalf("labels %+v reviews %+v", rec.Labels, rec.Reviews)
			}
			l, r := rec.Labels[0], rec.Reviews[0]
			if l.Annotator != pAnn || l.Role != "annotator" || l.Review != "corrected" ||
				string(l.Answers["physical_adherence"]) != "3" || str(l.Answers["pa_evidence"]) != annPA {
				t.Fatalf("the label %+v: want the annotator %s's own PA 3 and evidence", l, pAnn)
			}
			if r.Reviewer != pRev || r.Role != "reviewer" || r.Annotator != pAnn || r.Verdict != "correct" || r.Comment != "PA too harsh" ||
				string(r.Answers["physical_adherence"]) != "4" || str(r.Answers["pa_evidence"]) != revPA {
				t.Fatalf("the review %+v: want the reviewer %s's correction PA 4 with their evidence", r, pRev)
			}
			want := []exports.TextAnswer{{Author: pAdj, Role: "adjudicator", Text: adjPA}, {Author: pRev, Role: "corrected", Text: revPA}}
			if got := rec.Texts["pa_evidence"]; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
				t.Fatalf("kept PA evidence %+v, want %+v", got, want)
			}
			if rec.Provenance.Kind != "adjudicated" || rec.Provenance.Adjudicator != pAdj {
				t.Fatalf("provenance %+v", rec.Provenance)
			}

			var item struct {
				PhysicalAdherence int `json:"physical_adherence"`
				Assessments       []struct {
					Author, Role, Review, Verdict string
					PA                            *int   `json:"physical_adherence"`
					Evidence                      string `json:"pa_evidence"`
				}
				Decision struct {
					Author, Role, Rationale string
					Confidence              float64
				}
			}
			if err := json.Unmarshal(f.file(id, "robojudge/test/items.jsonl"), &item); err != nil {
				t.Fatal(err)
			}
			as := item.Assessments
			if len(as) != 2 || as[0].Author != pAnn || as[0].Role != "annotator" || as[0].Review != "corrected" || as[0].PA == nil || *as[0].PA != 3 || as[0].Evidence != annPA ||
				as[1].Author != pRev || as[1].Role != "reviewer" || as[1].Verdict != "correct" || as[1].PA == nil || *as[1].PA != 4 || as[1].Evidence != revPA {
				t.Fatalf("robojudge assessments %+v: want the annotator's PA 3 and the reviewer's correction PA 4", as)
			}
			if d := item.Decision; item.PhysicalAdherence != 4 || d.Author != pAdj || d.Role != "adjudicator" || d.Rationale != "The lift is one frame." || d.Confidence != 0.75 {
				t.Fatalf("robojudge decision %+v (PA %d)", d, item.PhysicalAdherence)
			}
		})
	}
}

// str reads a JSON string, "" when it is not one.
func str(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// TestReleaseCreditsOldCorrections: ground truth decided before corrections were credited to
// their reviewers names the label's annotator on the corrected text; a release credits it to
// the reviewer who corrected the label.
func TestReleaseCreditsOldCorrections(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f, ann, rev, adj := correctedRoboJudge(t, be.Open(t))
			ctx := context.Background()
			it := f.item("droid-0421-gen07")
			gts, err := f.st.LatestGroundTruth(ctx, []string{it.ID})
			if err != nil {
				t.Fatal(err)
			}
			old := *gts[it.ID]
			old.Texts = workflow.Encode(map[string][]exports.TextAnswer{"pa_evidence": {
				{Author: adj.ID, Role: "adjudicator", Text: adjPA}, {Author: ann.ID, Role: "corrected", Text: revPA}}})
			if err := f.st.AddGroundTruth(ctx, &old); err != nil {
				t.Fatal(err)
			}
			id := f.start([]string{"jsonl"}, nil)
			if err := f.rel.Run(ctx, id); err != nil || f.get(id).Status != flow.ReleaseDone {
				t.Fatalf("release: %v %+v", err, f.get(id))
			}
			salt, err := releases.Salt(ctx, f.rel, f.fp.ID)
			if err != nil {
				t.Fatal(err)
			}
			var rec rawRecord
			if err := json.Unmarshal(bytes.TrimSpace(f.file(id, "jsonl/test.jsonl")), &rec); err != nil {
				t.Fatal(err)
			}
			got := rec.Texts["pa_evidence"]
			if len(got) != 2 || got[0].Author != exports.Pseudonym(salt, adj.ID) || got[1].Author != exports.Pseudonym(salt, rev.ID) || got[1].Text != revPA {
				t.Fatalf("kept PA evidence %+v: want the correction credited to the reviewer %s", got, exports.Pseudonym(salt, rev.ID))
			}
		})
	}
}

// TestReleaseRejectedLabels: a label its reviewer rejected stays in a raw release, marked
// rejected, and counts neither for the item's agreement nor as the label behind the truth.
func TestReleaseRejectedLabels(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t), testenv.LocalBlobs(t))
			f.useProject(likertSchema(t), workflow.Policy{Overlap: 1, Review: workflow.ReviewCross})
			f.importLines(ratingLine(0))
			a, b, r := f.member("a@example.org", store.RoleAnnotator), f.member("b@example.org", store.RoleAnnotator), f.member("r@example.org", store.RoleReviewer)
			c := f.claim(a, flow.StageLabel)
			f.submit(a, c.ID, workflow.Submission{Answers: quality(1), TimeSpentMS: 10_000})
			c = f.claim(r, flow.StageReview)
			f.submit(r, c.ID, workflow.Submission{Verdict: flow.VerdictReject, Comment: "judged the wrong output", TimeSpentMS: 10_000})
			c = f.claim(b, flow.StageLabel)
			f.submit(b, c.ID, workflow.Submission{Answers: quality(4), TimeSpentMS: 10_000})
			c = f.claim(r, flow.StageReview)
			f.submit(r, c.ID, workflow.Submission{Verdict: flow.VerdictApprove, TimeSpentMS: 10_000})
			ctx := context.Background()
			id := f.start([]string{"jsonl"}, map[string]any{"raw": true})
			if err := f.rel.Run(ctx, id); err != nil || f.get(id).Status != flow.ReleaseDone {
				t.Fatalf("release: %v %+v", err, f.get(id))
			}
			var rec struct {
				rawRecord
				Agreement struct{ Labels int }
			}
			if err := json.Unmarshal(bytes.TrimSpace(f.file(id, "jsonl/test.jsonl")), &rec); err != nil {
				t.Fatal(err)
			}
			if len(rec.Labels) != 2 || rec.Labels[0].Review != "rejected" || string(rec.Labels[0].Answers["quality"]) != "1" ||
				rec.Labels[1].Review != "approved" || len(rec.Reviews) != 2 || rec.Reviews[0].Verdict != "reject" ||
				rec.Reviews[0].Annotator != rec.Labels[0].Annotator || rec.Agreement.Labels != 1 {
				t.Fatalf("record %+v", rec)
			}
		})
	}
}

// TestRoboJudgeRuleRelease: a real demonstration imported with the rule PA = IA = 5 and nothing
// else is released with its scores and as RL references, never as SFT reasoning, beside a
// labelled item whose adjudicated evidence is.
func TestRoboJudgeRuleRelease(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f, _, _, _ := correctedRoboJudge(t, be.Open(t))
			f.importLines(`{"external_id":"real-0001","inputs":{"video":"media/real.mp4","first_frame":"media/real.png","instruction":"Open the drawer."},` +
				`"meta":{"source_clip":"DROID/open/episode_0001"},"ground_truth":{"answers":{"physical_adherence":5,"instruction_alignment":5},"provenance":"rule","note":"real demonstration"}}`)
			ctx := context.Background()
			id := f.start([]string{"robojudge"}, nil)
			if err := f.rel.Run(ctx, id); err != nil || f.get(id).Status != flow.ReleaseDone {
				t.Fatalf("release: %v %+v", err, f.get(id))
			}
			for _, axis := range []string{"physical_adherence", "instruction_alignment"} {
				sft := string(f.file(id, "robojudge/test/sft_"+axis+".jsonl"))
				if strings.Count(sft, "\n") != 1 || strings.Contains(sft, "real-0001") || !strings.Contains(sft, "droid-0421-gen07") {
					t.Fatalf("sft_%s.jsonl:\n%s", axis, sft)
				}
			}
			rl := string(f.file(id, "robojudge/test/rl.jsonl"))
			items := string(f.file(id, "robojudge/test/items.jsonl"))
			if strings.Count(rl, `"item_id":"real-0001"`) != 2 || strings.Count(rl, `"reference":5`) < 2 ||
				!strings.Contains(items, `"item_id":"real-0001"`) || !strings.Contains(items, `"generator":null,"physical_adherence":5,"pa_checklist":null,"pa_evidence":null`) ||
				!strings.Contains(items, `"provenance":"rule"`) {
				t.Fatalf("rl.jsonl:\n%s\nitems.jsonl:\n%s", rl, items)
			}
		})
	}
}
