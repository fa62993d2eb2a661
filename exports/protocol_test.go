package exports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// storyAnswers is a StoryBench ground truth with every criterion scored n.
func storyAnswers(s *tasks.Schema, n int) tasks.Answers {
	a := tasks.Answers{}
	for _, q := range s.Questions {
		if q.Kind == tasks.KindLikert {
			a[q.Key] = json.RawMessage(itoaTest(n))
		} else {
			a[q.Key] = json.RawMessage(`"because"`)
		}
	}
	return a
}

func itoaTest(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestStoryBenchMissingOutputs: a record whose output was missing (every
// question answered "missing" by the system) is stated as missing in
// all_results.json, jsonl and csv, and summary.json reports the valid-only
// and the zero-filled averages.
func TestStoryBenchMissingOutputs(t *testing.T) {
	tpl := template(t, "storybench-text")
	rel := testRelease(tpl)
	s := &rel.Schema
	missing := tasks.Answers{}
	for _, q := range s.Questions {
		missing[q.Key] = json.RawMessage(`"missing"`)
	}
	recs := templateRecords(t, tpl)[:1]
	recs[0].Answers = storyAnswers(s, 8)
	second := recs[0]
	second.ID, second.ExternalID, second.Answers = "sb-2", "sb-2", missing
	third := recs[0]
	third.ID, third.ExternalID, third.Answers = "sb-3", "sb-3", storyAnswers(s, 6)
	recs = append(recs, second, third)
	sink, _ := exportTo(t, rel, mustSpec(t, s, []string{"storybench", "jsonl", "csv"}, nil), recs)

	results, _ := sink.File("storybench/test/text/all_results.json")
	var rows []struct {
		ID        string                     `json:"id"`
		Status    string                     `json:"status"`
		HumanEval map[string]json.RawMessage `json:"human_eval"`
	}
	if err := json.Unmarshal(results, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[1].Status != "missing" || rows[0].Status != "ok" {
		t.Fatalf("statuses: %+v", rows)
	}
	if got := string(rows[1].HumanEval["alignment_with_metadata"]); got != `{"score":null,"status":"missing"}` {
		t.Errorf("missing criterion = %s", got)
	}
	sum, _ := sink.File("storybench/test/text/summary.json")
	var summary struct {
		Records, Valid, Missing int
		Total                   struct{ ValidOnly, ZeroFilled float64 } `json:"total_average"`
	}
	dec := json.NewDecoder(bytes.NewReader(bytes.ReplaceAll(bytes.ReplaceAll(sum, []byte("valid_only"), []byte("ValidOnly")), []byte("zero_filled"), []byte("ZeroFilled"))))
	if err := dec.Decode(&summary); err != nil {
		t.Fatal(err)
	}
	// valid-only: (8 + 6) / 2 = 7; zero-filled: (8 + 6 + 0) / 3 = 4.6667
	if summary.Records != 3 || summary.Valid != 2 || summary.Missing != 1 || summary.Total.ValidOnly != 7 || summary.Total.ZeroFilled != 4.6667 {
		t.Errorf("summary = %s", sum)
	}
	jl, _ := sink.File("jsonl/test.jsonl")
	lines := strings.Split(strings.TrimSpace(string(jl)), "\n")
	if !strings.Contains(lines[1], `"missing":["alignment_with_metadata","alignment_with_metadata_rationale"`) || strings.Contains(lines[0], `"missing"`) {
		t.Errorf("jsonl does not state the missing questions:\n%s", jl)
	}
	csv, _ := sink.File("csv/test.csv")
	if !strings.Contains(string(csv), ",missing,") {
		t.Errorf("csv does not say missing:\n%s", csv)
	}
}

// TestRoboJudgeConsensusEvidence: under consensus the ground truth has no
// evidence of its own; the kept texts are exported (pseudonymised) and the
// SFT rows use the evidence of the labels that gave the agreed score.
func TestRoboJudgeConsensusEvidence(t *testing.T) {
	tpl := template(t, "robojudge")
	rel := testRelease(tpl)
	recs := templateRecords(t, tpl)[:1]
	r := &recs[0]
	r.Provenance = Provenance{Kind: ProvMajority, Revision: 1}
	delete(r.Answers, "pa_evidence")
	delete(r.Answers, "ia_evidence")
	r.Labels = []Label{
		{Annotator: "user-a", Answers: tasks.Answers{"physical_adherence": json.RawMessage(`4`)}},
		{Annotator: "user-b", Answers: tasks.Answers{"physical_adherence": json.RawMessage(`3`)}},
		{Annotator: "user-c", Answers: tasks.Answers{"physical_adherence": json.RawMessage(`4`)}},
	}
	r.Reviews = nil
	r.Texts = map[string][]TextAnswer{"pa_evidence": {
		{Author: "user-a", Role: "annotator", Text: "stable throughout"},
		{Author: "user-b", Role: "annotator", Text: "cube floats"},
		{Author: "user-c", Role: "annotator", Text: "one-frame lift only"},
	}}
	sink, _ := exportTo(t, rel, mustSpec(t, &rel.Schema, []string{"robojudge", "jsonl"}, nil), recs)
	var sft []byte
	for _, p := range sink.Paths() {
		if strings.HasSuffix(p, "sft_physical_adherence.jsonl") {
			sft, _ = sink.File(p)
		}
	}
	got := string(sft)
	if strings.Count(got, "\n") != 2 || !strings.Contains(got, "stable throughout") || !strings.Contains(got, "one-frame lift only") || strings.Contains(got, "cube floats") {
		t.Errorf("sft rows:\n%s", got)
	}
	all := ""
	for _, p := range sink.Paths() {
		b, _ := sink.File(p)
		all += string(b)
	}
	if strings.Contains(all, "user-a") || !strings.Contains(all, `"evidence":{"pa_evidence":[{"author":"anon-`) {
		t.Errorf("texts are not exported under pseudonyms:\n%s", all)
	}
}

// sftRows returns the lines of an axis's SFT files of a release.
func sftRows(sink *MemorySink, axis string) []string {
	var rows []string
	for _, p := range sortedPaths(sink) {
		if strings.HasSuffix(p, "sft_"+axis+".jsonl") {
			b, _ := sink.File(p)
			rows = append(rows, strings.Split(strings.TrimSpace(string(b)), "\n")...)
		}
	}
	return slices.DeleteFunc(rows, func(s string) bool { return s == "" })
}

// TestRoboJudgeCorrectedEvidence: under consensus a label its reviewer corrected counts with
// the correction, so its SFT row is the reviewer's evidence with the corrected score, and the
// items record lists the original and the correction under their authors.
func TestRoboJudgeCorrectedEvidence(t *testing.T) {
	tpl := template(t, "robojudge")
	rel := testRelease(tpl)
	recs := templateRecords(t, tpl)[:1]
	r := &recs[0]
	r.Provenance = Provenance{Kind: ProvMajority, Revision: 1}
	delete(r.Answers, "pa_evidence")
	delete(r.Answers, "ia_evidence")
	r.Labels = []Label{
		{Annotator: "user-a", Answers: tasks.Answers{"physical_adherence": json.RawMessage(`4`)}, Review: "approved"},
		{Annotator: "user-b", Answers: tasks.Answers{"physical_adherence": json.RawMessage(`3`), "pa_evidence": json.RawMessage(`"cube floats"`)}, Review: "corrected"},
	}
	r.Reviews = []Review{
		{Reviewer: "user-r", Annotator: "user-a", Verdict: "approve"},
		{Reviewer: "user-r", Annotator: "user-b", Verdict: "correct", Answers: tasks.Answers{"physical_adherence": json.RawMessage(`4`), "pa_evidence": json.RawMessage(`"lift is one frame"`)}},
	}
	r.Texts = map[string][]TextAnswer{"pa_evidence": {
		{Author: "user-a", Role: "annotator", Text: "stable throughout"},
		{Author: "user-r", Role: "corrected", Text: "lift is one frame"},
	}}
	sink, _ := exportTo(t, rel, mustSpec(t, &rel.Schema, []string{"robojudge"}, nil), recs)
	rows := sftRows(sink, "physical_adherence")
	if len(rows) != 2 || !strings.Contains(rows[0], `"reasoning":"stable throughout","physical_adherence":4`) ||
		!strings.Contains(rows[1], `"reasoning":"lift is one frame","physical_adherence":4`) {
		t.Fatalf("sft rows:\n%s", strings.Join(rows, "\n"))
	}
	items, _ := sink.File("robojudge/test/items.jsonl")
	var rec struct {
		Assessments []map[string]any
		Decision    any
	}
	if err := json.Unmarshal(items, &rec); err != nil {
		t.Fatal(err)
	}
	name := map[any]string{}
	for _, id := range []string{"user-a", "user-b", "user-r"} {
		name[Pseudonym(rel.Salt, id)] = id
	}
	var got []string
	for _, a := range rec.Assessments {
		got = append(got, fmt.Sprintf("%s/%v/%v/%v/%v", name[a["author"]], a["role"], a["verdict"], a["physical_adherence"], a["pa_evidence"]))
	}
	want := "[user-a/annotator/<nil>/4/<nil> user-r/reviewer/approve/<nil>/<nil> user-b/annotator/<nil>/3/cube floats user-r/reviewer/correct/4/lift is one frame]"
	if fmt.Sprint(got) != want || rec.Decision != nil {
		t.Fatalf("assessments %v decision %v, want %s and no decision", got, rec.Decision, want)
	}
}

// TestRoboJudgeRuleLabels: a real demonstration labelled by the rule PA = IA = 5, with no
// checklist or evidence, is released with its scores and as RL references, never as SFT
// reasoning, even when evidence text came with it.
func TestRoboJudgeRuleLabels(t *testing.T) {
	tpl := template(t, "robojudge")
	rel := testRelease(tpl)
	recs := templateRecords(t, tpl)
	for i := range recs {
		recs[i].Labels, recs[i].Reviews, recs[i].Texts = nil, nil, nil
		recs[i].Provenance = Provenance{Kind: ProvRule, Revision: 1}
	}
	recs[0].Answers = tasks.Answers{"physical_adherence": json.RawMessage(`5`), "instruction_alignment": json.RawMessage(`5`)}
	recs[1].Answers["physical_adherence"], recs[1].Answers["instruction_alignment"] = json.RawMessage(`5`), json.RawMessage(`5`)
	sink, _ := exportTo(t, rel, mustSpec(t, &rel.Schema, []string{"robojudge"}, nil), recs)
	for _, axis := range []string{"physical_adherence", "instruction_alignment"} {
		if rows := sftRows(sink, axis); len(rows) != 0 {
			t.Fatalf("rule labels became SFT reasoning:\n%s", strings.Join(rows, "\n"))
		}
	}
	rl, _ := sink.File("robojudge/test/rl.jsonl")
	items, _ := sink.File("robojudge/test/items.jsonl")
	if strings.Count(string(rl), `"reference":5`) != 4 || strings.Count(string(items), `"provenance":"rule"`) != 2 ||
		!strings.Contains(string(items), `"physical_adherence":5,"pa_checklist":null,"pa_evidence":null`) {
		t.Fatalf("rl.jsonl:\n%s\nitems.jsonl:\n%s", rl, items)
	}
}
