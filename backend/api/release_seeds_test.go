package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// The seed round trips: each benchmark's template samples are imported, worked to ground
// truth through the API in the benchmark's own workflow, released in the benchmark's format,
// and the files compared with the hand-written ones under testdata/releases/<seed>.

// seedProject creates a project of a template with a workflow and imports its samples.
func seedProject(t *testing.T, e *env, lead *client, template string, workflow map[string]any, extraMeta func(int) map[string]any) (string, tasks.Template) {
	t.Helper()
	tpl, ok := tasks.LookupTemplate(template)
	if !ok {
		t.Fatalf("no template %s", template)
	}
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": tpl.Name, "template": template, "workflow": workflow}, 201, &p)
	lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", sampleLines(t, tpl, extraMeta)...)
	return p.ID, tpl
}

// releaseAndCompare releases the project and compares its files with the expected ones.
func releaseAndCompare(t *testing.T, lead *client, pid, expected string, formats []string, options map[string]any) {
	t.Helper()
	v := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "seed", "formats": formats, "options": options}))
	if v.Status != "done" {
		t.Fatalf("release: %+v", v)
	}
	files := lead.releaseFiles(pid, v)
	compareRelease(t, "testdata/releases/"+expected, files)
	checkCardAddsUp(t, files)
}

// adjudicateAll has the adjudicator decide every item waiting for adjudication; final gives
// the canonical answers for an item by external id.
func adjudicateAll(t *testing.T, e *env, adj *client, pid string, schema *tasks.Schema, final func(ext string) tasks.Answers) int {
	t.Helper()
	n := 0
	for c := adj.next(pid, "adjudicate"); c != nil; c = adj.next(pid, "adjudicate") {
		ext := externalID(t, e, pid, c.Assignment.ID)
		adj.submitOK(c.Assignment.ID, map[string]any{"answers": shown(t, e, schema, c.Assignment.ID, final(ext)),
			"rationale": "Checked against the guidelines for " + ext + ".", "confidence": 4})
		n++
	}
	return n
}

// externalID is the external id of an assignment's item.
func externalID(t *testing.T, e *env, pid, aid string) string {
	t.Helper()
	a, err := e.store.Assignment(t.Context(), aid)
	if err != nil {
		t.Fatal(err)
	}
	it, err := e.store.Item(t.Context(), pid, a.ItemID)
	if err != nil {
		t.Fatal(err)
	}
	return it.ExternalID
}

// d3Answers are all seventeen D3-Omni dimensions answered yes, but for the given ones.
func d3Answers(tpl tasks.Template, except map[string]string) tasks.Answers {
	a := tasks.Answers{}
	for _, q := range tpl.Schema.Questions {
		v := "yes"
		if x, ok := except[q.Key]; ok {
			v = x
		}
		a[q.Key], _ = json.Marshal(v)
	}
	return a
}

// TestSeedD3Omni: two annotators per item, unanimous consensus, the d3omni per-task file.
// N/A counts as satisfied, so an item one annotator marked N/A and the other yes is unanimous.
// t2i-seed-0002 is a seed with a No (shot requirement): the benchmark admits only all-Yes
// seeds, so the file leaves it out. Records carry their language and not the generator.
func TestSeedD3Omni(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead := e.newUser("lead@example.org", false)
		anns := []*client{e.newUser("a1@example.org", false), e.newUser("a2@example.org", false)}
		pid, tpl := seedProject(t, e, lead, "d3omni-t2i", map[string]any{"overlap": 2, "adjudication": "never", "on_no_consensus": "drop"}, nil)
		for _, a := range anns {
			lead.member(pid, a, "annotator")
		}
		plan := map[string][]map[string]string{
			"t2i-seed-0001": {{"negative_prompt": "na"}, {"negative_prompt": "na"}},
			"t2i-0001-edge": {{"edge_clarity": "no"}, {"edge_clarity": "no"}},
			"t2i-seed-0002": {{"shot_requirement": "no", "text_accuracy": "na"}, {"shot_requirement": "no", "text_accuracy": "yes"}},
		}
		if n := labelAll(t, e, pid, &tpl.Schema, anns, func(ext string, n int) tasks.Answers { return d3Answers(tpl, plan[ext][n]) }); n != 6 {
			t.Fatalf("%d labels, want 6", n)
		}
		releaseAndCompare(t, lead, pid, "d3omni", []string{"d3omni"}, nil)
	})
}

// robojudgeFinal are the adjudicated answers of the RoboJudge samples.
var robojudgeFinal = map[string]tasks.Answers{
	"droid-0421-gen07": answers("physical_adherence", 4, "pa_checklist", map[string]int{"agent_consistency": 2, "scene_consistency": 2, "interaction_realism": 1},
		"pa_evidence", "The cube lifts slightly before the fingers close on it at 2.1 s; otherwise stable.",
		"instruction_alignment", 2, "ia_checklist", map[string]int{"agent_match": 2, "object_correctness": 2, "goal_completion": 0},
		"ia_evidence", "The cube ends to the right of the gripper, not to the left."),
	"egodex-0093-gen02": answers("physical_adherence", 3, "pa_checklist", map[string]int{"agent_consistency": 1, "scene_consistency": 2, "interaction_realism": 1},
		"pa_evidence", "The hand's fingers merge with the block for a few frames.",
		"instruction_alignment", 5, "ia_checklist", map[string]int{"agent_match": 2, "object_correctness": 2, "goal_completion": 2},
		"ia_evidence", "The block is pushed to the back edge without being lifted."),
}

// TestSeedRoboJudge: label, cross-review, expert adjudication of every item; splits by ratio
// kept disjoint by source clip; per-item records, per-axis SFT and reward-only files.
func TestSeedRoboJudge(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead := e.newUser("lead@example.org", false)
		ann, rev, adj := e.newUser("ann@example.org", false), e.newUser("rev@example.org", false), e.newUser("adj@example.org", false)
		pid, tpl := seedProject(t, e, lead, "robojudge", map[string]any{"overlap": 1, "review": "cross", "adjudication": "always"}, nil)
		lead.member(pid, ann, "annotator")
		lead.member(pid, rev, "reviewer")
		lead.member(pid, adj, "adjudicator")
		labelAll(t, e, pid, &tpl.Schema, []*client{ann}, func(string, int) tasks.Answers { return tpl.Schema.ExampleAnswers() })
		for c := rev.next(pid, "review"); c != nil; c = rev.next(pid, "review") {
			rev.submitOK(c.Assignment.ID, map[string]any{"verdict": "approve"})
		}
		if n := adjudicateAll(t, e, adj, pid, &tpl.Schema, func(ext string) tasks.Answers { return robojudgeFinal[ext] }); n != 2 {
			t.Fatalf("%d adjudications, want 2", n)
		}
		releaseAndCompare(t, lead, pid, "robojudge", []string{"robojudge"},
			map[string]any{"split_ratios": "train=0.5,test=0.5", "cluster_key": "source_clip", "split_seed": 4})
	})
}

// orCriteria are the criteria written for the Omni-Reward sample and how three annotators
// judged each (canonical answers): a majority, no consensus, a majority for a tie.
var orCriteria = []struct {
	text  string
	votes []string
}{
	{"The light looks like a warm, low sunset.", []string{"A", "A", "B"}},
	{"Exactly two boats, both of them white.", []string{"A", "B", "tie"}},
	{"Both images keep the sea calm and flat.", []string{"tie", "tie", "B"}},
}

// TestSeedOmniReward: criteria written by an annotator and reviewed, three labels per child
// unit, majority or dropped; the preferences file with and without ties.
func TestSeedOmniReward(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, author := e.newUser("lead@example.org", false), e.newUser("author@example.org", false)
		anns := []*client{e.newUser("a1@example.org", false), e.newUser("a2@example.org", false), e.newUser("a3@example.org", false)}
		tpl, _ := tasks.LookupTemplate("omnireward-pair")
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": tpl.Name, "template": tpl.ID, "workflow": map[string]any{
			"overlap": 3, "consensus": map[string]any{"nominal": "majority"}, "adjudication": "never", "on_no_consensus": "drop",
			"criteria_stage": map[string]any{"form": "criteria", "question": "criteria", "input": "criterion"}}}, 201, &p)
		for _, a := range append(anns, author) {
			lead.member(p.ID, a, "annotator")
		}
		line, _ := json.Marshal(tpl.Forms[0].Samples[0])
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", string(line))
		texts := make([]string, len(orCriteria))
		for i, c := range orCriteria {
			texts[i] = c.text
		}
		c := author.next(p.ID, "criteria")
		author.submitOK(c.Assignment.ID, map[string]any{"answers": answers("criteria", texts)})
		var crit struct{ Items []struct{ ID, Text string } }
		lead.must("GET", "/api/v1/projects/"+p.ID+"/criteria", nil, 200, &crit)
		for _, want := range texts { // note: reviewed in the order written, so the child units are made in that order
			for _, cr := range crit.Items {
				if cr.Text == want {
					lead.must("POST", "/api/v1/projects/"+p.ID+"/criteria/"+cr.ID, map[string]any{"status": "valid"}, 200, nil)
				}
			}
		}
		votes := map[string][]string{}
		for _, c := range orCriteria {
			votes[c.text] = c.votes
		}
		for _, a := range anns {
			for cl := a.next(p.ID, "label"); cl != nil; cl = a.next(p.ID, "label") {
				var criterion string
				json.Unmarshal(cl.Item.Item.Inputs["criterion"], &criterion)
				v := votes[criterion][0]
				votes[criterion] = votes[criterion][1:]
				a.submitOK(cl.Assignment.ID, map[string]any{"answers": shown(t, e, &tpl.Schema, cl.Assignment.ID, answers("preference", v))})
			}
		}
		releaseAndCompare(t, lead, p.ID, "omnireward", []string{"omnireward"}, nil)
		releaseAndCompare(t, lead, p.ID, "omnireward-noties", []string{"omnireward"}, map[string]any{"ties": false})
	})
}

// jaFinal is the adjudicated judgment of every Judge-Anything pair (canonical order).
var jaFinal = answers("overall", "A", "overall_comment", "The first response does what the question asks.",
	"relevance", "A", "trustworthiness", "tie", "creativity", "B", "clarity", "A", "coherence", "tie", "completeness", "B")

// TestSeedJudgeAnything: one label and an expert's judgment per pair; queries, responses and
// the human pairing judgments with choice codes 0/1/2.
func TestSeedJudgeAnything(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, ann, adj := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false), e.newUser("adj@example.org", false)
		pid, tpl := seedProject(t, e, lead, "judgeanything-pair", map[string]any{"overlap": 1, "adjudication": "always"}, nil)
		lead.member(pid, ann, "annotator")
		lead.member(pid, adj, "adjudicator")
		labelAll(t, e, pid, &tpl.Schema, []*client{ann}, func(string, int) tasks.Answers { return tpl.Schema.ExampleAnswers() })
		if n := adjudicateAll(t, e, adj, pid, &tpl.Schema, func(string) tasks.Answers { return jaFinal }); n != 3 {
			t.Fatalf("%d adjudications, want 3", n)
		}
		releaseAndCompare(t, lead, pid, "judgeanything", []string{"judgeanything"}, nil)
	})
}

// storyFinal are the adjudicated scores and rationales of the StoryBench text samples.
var storyFinal = map[string]tasks.Answers{
	"storybook-a/fern/p03__p04/orchestration-large-03/text": answers(
		"alignment_with_metadata", 9, "alignment_with_metadata_rationale", "A warm, simple fable in the past tense.",
		"natural_flow_from_current_narration", 9, "natural_flow_from_current_narration_rationale", "Follows on from Fern watching the sunrise.",
		"satisfaction_of_generation_conditions", 8, "satisfaction_of_generation_conditions_rationale", "She runs and calls out; the birdsong is missing.",
		"semantic_consistency_with_ground_truth", 9, "semantic_consistency_with_ground_truth_rationale", "The same events as the ground truth, reworded."),
	"storybook-a/fern/p03__p04/any-to-any-11/text": answers(
		"alignment_with_metadata", 5, "alignment_with_metadata_rationale", "Plain, but still a fable.",
		"natural_flow_from_current_narration", 2, "natural_flow_from_current_narration_rationale", "Going to sleep breaks the flow from the sunrise.",
		"satisfaction_of_generation_conditions", 1, "satisfaction_of_generation_conditions_rationale", "She neither runs nor calls out.",
		"semantic_consistency_with_ground_truth", 1, "semantic_consistency_with_ground_truth_rationale", "None of the ground-truth events remain."),
}

// TestSeedStoryBench: each narration scored 1-10 on four criteria with rationales, decided by
// an expert; the track's all_results.json.
func TestSeedStoryBench(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, ann, adj := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false), e.newUser("adj@example.org", false)
		pid, tpl := seedProject(t, e, lead, "storybench-text", map[string]any{"overlap": 1, "adjudication": "always"},
			func(int) map[string]any { return map[string]any{"from_key": "p03", "to_key": "p04"} })
		lead.member(pid, ann, "annotator")
		lead.member(pid, adj, "adjudicator")
		labelAll(t, e, pid, &tpl.Schema, []*client{ann}, func(string, int) tasks.Answers { return tpl.Schema.ExampleAnswers() })
		if n := adjudicateAll(t, e, adj, pid, &tpl.Schema, func(ext string) tasks.Answers { return storyFinal[ext] }); n != 2 {
			t.Fatalf("%d adjudications, want 2", n)
		}
		releaseAndCompare(t, lead, pid, "storybench", []string{"storybench"}, nil)
	})
}

// checkCardAddsUp: the card of a release counts what its manifest counts, and the manifest's
// tally accounts for every item read once.
func checkCardAddsUp(t *testing.T, files map[string][]byte) {
	t.Helper()
	var m exports.Manifest
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	r, card := m.Records, string(files["README.md"])
	var left int64
	want := []string{fmt.Sprintf("| read | %d |\n", r.Read), fmt.Sprintf("| left out by the metadata filter | %d |\n", r.Filtered),
		fmt.Sprintf("| released | %d |\n", r.Total)}
	for _, l := range r.LeftOut {
		left += l.Items
		want = append(want, fmt.Sprintf("| left out: %s | %d |\n", l.Text(), l.Items))
	}
	for _, f := range m.Formats {
		want = append(want, fmt.Sprintf("| %s | %d | ", f, r.Formats[f].Records))
	}
	if r.Read != r.Filtered+r.Excluded+r.Total || left != r.Excluded {
		t.Errorf("the tally does not add up: %+v", r)
	}
	for _, w := range want {
		if !strings.Contains(card, w) {
			t.Errorf("the card lacks %q:\n%s", w, card)
		}
	}
}
