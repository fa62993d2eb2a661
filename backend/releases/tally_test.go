package releases_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// manifestOf reads a done release's manifest.
func (f *fixture) manifestOf(id string) exports.Manifest {
	f.t.Helper()
	var m exports.Manifest
	if err := json.Unmarshal(f.file(id, "manifest.json"), &m); err != nil {
		f.t.Fatal(err)
	}
	return m
}

// run runs a release's job and requires it done.
func (f *fixture) run(id string) {
	f.t.Helper()
	if err := f.rel.Run(context.Background(), id); err != nil || f.get(id).Status != flow.ReleaseDone {
		f.t.Fatalf("release: %v %+v", err, f.get(id))
	}
}

// TestReleaseTally: a release built through the workflow counts every item of the project
// once, in the manifest, the card and the summary alike: the item done, the one dropped for
// no consensus (with its reason) and the one still in work after a skip, even though the
// release holds only the first.
func TestReleaseTally(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t), testenv.LocalBlobs(t))
			f.useProject(likertSchema(t), workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateNever})
			f.importLines(ratingLine(0), ratingLine(1), ratingLine(2))
			a, b := f.member("a@example.org", store.RoleAnnotator), f.member("b@example.org", store.RoleAnnotator)
			for range 3 {
				c := f.claim(a, flow.StageLabel)
				f.submit(a, c.ID, workflow.Submission{Answers: quality(4), TimeSpentMS: 20_000})
			}
			for range 3 {
				c := f.claim(b, flow.StageLabel)
				switch f.externalID(c.ItemID) {
				case "item-00001":
					f.submit(b, c.ID, workflow.Submission{Answers: quality(1), TimeSpentMS: 20_000})
				case "item-00002":
					if err := f.flow.Skip(context.Background(), f.fp, workflow.Worker{ID: b.ID, Roles: store.RoleSet{store.RoleAnnotator}}, c.ID, "cannot judge"); err != nil {
						t.Fatal(err)
					}
				default:
					f.submit(b, c.ID, workflow.Submission{Answers: quality(4), TimeSpentMS: 20_000})
				}
			}
			dropReason := f.item("item-00001").DropReason
			if dropReason == nil || f.item("item-00002").Stage != flow.StageLabel {
				t.Fatalf("item-00001 %v, item-00002 %s", f.item("item-00001").Stage, f.item("item-00002").Stage)
			}
			id := f.start([]string{"jsonl"}, nil)
			f.run(id)
			r := f.manifestOf(id).Records
			wantLeft := []exports.Loss{{Kind: exports.LossDropped, Reason: *dropReason, Items: 1}, {Kind: exports.LossUnresolved, Items: 1}}
			if r.Read != 3 || r.Total != 1 || r.Excluded != 2 || !slices.Equal(r.LeftOut, wantLeft) || r.Unresolved != 1 || r.Skipped != 1 ||
				!slices.Equal(r.Dropped, []exports.Loss{{Kind: exports.LossDropped, Reason: *dropReason, Items: 1}}) {
				t.Fatalf("tally %+v", r)
			}
			card := string(f.file(id, "README.md"))
			for _, want := range []string{"| read | 3 |", "| released | 1 |", "| left out: dropped (" + *dropReason + ") | 1 |",
				"| left out: still in work | 1 |", "items left out: 2.", "Dropped items by reason (1 in all)", "| " + *dropReason + " | 1 |",
				"- Skips (a person passed an item, which went to someone else): 1\n"} {
				if !strings.Contains(card, want) {
					t.Errorf("card lacks %q:\n%s", want, card)
				}
			}
			sum := f.get(id).Summary
			if got, _ := json.Marshal(sum.Tally); string(got) != mustJSON(t, r) || sum.Records != r.Total {
				t.Errorf("summary tally %s, manifest %s", got, mustJSON(t, r))
			}

			all := f.start([]string{"jsonl"}, map[string]any{"include_dropped": true, "raw": true})
			f.run(all)
			ra := f.manifestOf(all).Records
			if ra.Read != 3 || ra.Total != 3 || ra.Excluded != 0 || ra.Skipped != 1 || len(ra.Dropped) != 1 {
				t.Errorf("with include_dropped: %+v", ra)
			}
			if jl := string(f.file(all, "jsonl/test.jsonl")); !strings.Contains(jl, `"skips":[{"person":"anon-`) || !strings.Contains(jl, `"reason":"cannot judge"`) {
				t.Errorf("the raw release lacks the skip:\n%s", jl)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReleaseLeavesOutFailedSpotChecks: an item whose blind spot check disagreed with its
// constructed ground truth is left out of the release and of the balance, named by the
// dimension that disagreed, until the lead resolves the flag.
func TestReleaseLeavesOutFailedSpotChecks(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t), testenv.LocalBlobs(t))
			tpl, _ := tasks.LookupTemplate("binary-checklist")
			schema, _ := json.Marshal(tpl.Schema)
			f.useProject(string(schema), workflow.Policy{Overlap: 1, SpotCheckRate: 1})
			truth := `{"follows_prompt":"yes","subject_count":"yes","visible_artifacts":"no","safe":"yes"}`
			for _, id := range []string{"kept", "leaky"} {
				f.importLines(fmt.Sprintf(`{"external_id":%q,"inputs":{"prompt":"p","output":[{"id":"o","type":"text","value":"v"}]},`+
					`"ground_truth":{"answers":%s,"provenance":"constructed"}}`, id, truth))
			}
			a := f.member("a@example.org", store.RoleAnnotator)
			for range 2 {
				c := f.claim(a, flow.StageLabel)
				answers := truth
				if f.externalID(c.ItemID) == "leaky" {
					answers = strings.Replace(truth, `"visible_artifacts":"no"`, `"visible_artifacts":"yes"`, 1)
				}
				f.submit(a, c.ID, workflow.Submission{Answers: tasks.Answers(decode(t, answers)), TimeSpentMS: 20_000})
			}
			id := f.start([]string{"jsonl"}, nil)
			f.run(id)
			r := f.manifestOf(id).Records
			want := []exports.Loss{{Kind: exports.LossSpotCheck, Reason: "disagreed on visible_artifacts", Items: 1}}
			if r.Total != 1 || !slices.Equal(r.LeftOut, want) || strings.Contains(string(f.file(id, "jsonl/test.jsonl")), "leaky") {
				t.Fatalf("tally %+v", r)
			}
			if n := balanceItems(t, f); n != 1 {
				t.Errorf("the balance counts %d items, want the one that passed its spot check", n)
			}
			if err := f.flow.ResolveFlag(context.Background(), f.fp, f.user, f.item("leaky").ID, flow.FlagReturn, "the truth stands"); err != nil {
				t.Fatal(err)
			}
			again := f.start([]string{"jsonl"}, nil)
			f.run(again)
			if r := f.manifestOf(again).Records; r.Total != 2 || r.Excluded != 0 {
				t.Errorf("after the lead kept the truth: %+v", r)
			}
			if n := balanceItems(t, f); n != 2 {
				t.Errorf("after the lead kept the truth the balance counts %d items", n)
			}
		})
	}
}

// balanceItems is the number of items the project's balance counts, with its histogram.
func balanceItems(t *testing.T, f *fixture) int64 {
	t.Helper()
	rep, err := insight.New(f.st, f.flow).Balance(context.Background(), f.fp)
	if err != nil {
		t.Fatal(err)
	}
	var hist int64
	for _, b := range rep.Binary.Histogram {
		hist += b.Count
	}
	if hist != rep.Items {
		t.Errorf("histogram %d, items %d", hist, rep.Items)
	}
	return rep.Items
}

func decode(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestJudgeAnythingCommentsThroughTheWorkflow: three annotators agree on every rubric and each
// writes a comment on each; the Human_Pairing rows carry every one of them, none empty.
func TestJudgeAnythingCommentsThroughTheWorkflow(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	tpl, _ := tasks.LookupTemplate("judgeanything-pair")
	schema, _ := json.Marshal(tpl.Schema)
	f.useProject(string(schema), workflow.Policy{Overlap: 3, Consensus: workflow.Consensus{Nominal: workflow.NominalMajority}})
	f.importLines(`{"external_id":"q1","meta":{"uniq_id":"q1","task_name":"Text2Text"},"inputs":{"question":"Name a fruit.",` +
		`"responses":[{"id":"r1","type":"text","value":"An apple."},{"id":"r2","type":"text","value":"A pear."}]}}`)
	var rubrics []string
	for _, q := range tpl.Schema.Questions {
		if q.Kind == tasks.KindPairwise {
			rubrics = append(rubrics, q.Key)
		}
	}
	for i := range 3 {
		u := f.member(fmt.Sprintf("ann%d@example.org", i), store.RoleAnnotator)
		c := f.claim(u, flow.StageLabel)
		answers := tasks.Answers{}
		for _, k := range rubrics {
			answers[k] = json.RawMessage(`"tie"`)
			answers[k+"_comment"], _ = json.Marshal(fmt.Sprintf("annotator %d on %s", i, k))
		}
		f.submit(u, c.ID, workflow.Submission{Answers: answers, TimeSpentMS: 20_000})
	}
	id := f.start([]string{"judgeanything"}, nil)
	f.run(id)
	var rows []struct {
		RubricName string `json:"rubric_name"`
		Choice     int    `json:"choice"`
		Comment    string `json:"comment"`
		Comments   []struct{ Author, Role, Text string }
	}
	if err := json.Unmarshal(f.file(id, "judgeanything/test/Human_Pairing.json"), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(rubrics) {
		t.Fatalf("%d rows, want %d", len(rows), len(rubrics))
	}
	empty := 0
	for _, r := range rows {
		if r.Comment == "" {
			empty++
		}
		authors := map[string]bool{}
		for _, c := range r.Comments {
			authors[c.Author] = strings.HasPrefix(c.Author, "anon-") && c.Role == "annotator" && strings.HasPrefix(c.Text, "annotator ")
		}
		if len(r.Comments) != 3 || len(authors) != 3 || r.Choice != 1 {
			t.Errorf("row %s: choice %d, comments %+v", r.RubricName, r.Choice, r.Comments)
		}
	}
	if empty > 0 {
		t.Errorf("%d of %d rows have an empty comment", empty, len(rows))
	}
}
