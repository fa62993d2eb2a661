package api_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// langLine is a D3-Omni T2I item whose prompt is its external id, in a language ("" for none).
func langLine(id, language string) string {
	lang := ""
	if language != "" {
		lang = fmt.Sprintf(`,"language":%q`, language)
	}
	return fmt.Sprintf(`{"external_id":%q,"inputs":{"prompt":%q,"image":"media/apple.png","generator":"g"}%s}`, id, id, lang)
}

// lineErrors maps an import report's refused lines to the code of their language field.
func lineErrors(t *testing.T, rep map[string]any) map[int]string {
	t.Helper()
	out := map[int]string{}
	errs, _ := rep["errors"].([]any)
	for _, e := range errs {
		le := e.(map[string]any)
		details, _ := le["details"].(map[string]any)
		lang, _ := details["language"].(map[string]any)
		code, _ := lang["code"].(string)
		out[int(le["line"].(float64))] = code
	}
	return out
}

// TestLanguages: item languages are checked and stored canonical on import (a bad line is
// refused with its line and field and nothing of it is written), a project's languages are
// enforced, each annotator's queue holds only items in the languages they read (and items
// without one) until it is empty, work in a language nobody reads is reported as stuck with that
// reason, and the balance and report count by language.
func TestLanguages(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		en, zh := e.newUser("en@example.org", false), e.newUser("zh@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "d3", "template": "d3omni-t2i",
			"workflow": map[string]any{"overlap": 1, "adjudication": "never", "on_no_consensus": "drop"}}, 201, &p)
		pid, items := p.ID, "/api/v1/projects/"+p.ID+"/items"

		// import: good tags stored canonical, bad ones refused by line and field
		rep := lead.importNDJSON(items, langLine("e1", "EN"), langLine("bad-1", "english!"), langLine("e2", "en-gb"),
			langLine("z1", "zh-hans"), langLine("z2", "zh"), langLine("n1", ""), langLine("f1", "fr"), langLine("bad-2", "x"))
		if rep["imported"].(float64) != 6 || !maps.Equal(lineErrors(t, rep), map[int]string{2: tasks.CodeInvalidLanguage, 8: tasks.CodeInvalidLanguage}) {
			t.Fatalf("import report: %v", rep)
		}
		langOf := map[string]string{} // item id → language
		external := map[string]string{}
		var page struct {
			Items []struct {
				ID         string `json:"id"`
				ExternalID string `json:"external_id"`
				Language   string `json:"language"`
			} `json:"items"`
		}
		lead.must("GET", items+"?limit=100", nil, 200, &page)
		for _, it := range page.Items {
			langOf[it.ExternalID], external[it.ID] = it.Language, it.ExternalID
		}
		want := map[string]string{"e1": "en", "e2": "en-GB", "z1": "zh-Hans", "z2": "zh", "n1": "", "f1": "fr"}
		if !maps.Equal(langOf, want) {
			t.Fatalf("stored languages %v, want %v (a refused line written?)", langOf, want)
		}

		// members read languages; bad tags are refused by field, good ones stored canonical
		if st, body := lead.do("PUT", "/api/v1/projects/"+pid+"/members/"+en.user.Email, map[string]any{"roles": []string{"annotator"}, "languages": []string{"en", "??"}}); st != 422 ||
			fieldError(t, body, "languages[1]") != tasks.CodeInvalidLanguage {
			t.Fatalf("bad member language: %d %s", st, body)
		}
		lead.member(pid, en, "annotator")
		lead.member(pid, zh, "annotator")
		var res struct{ Languages []string }
		lead.must("PUT", "/api/v1/projects/"+pid+"/members/"+en.user.ID, map[string]any{"languages": []string{"EN"}}, 200, &res)
		if !slices.Equal(res.Languages, []string{"en"}) {
			t.Fatalf("member languages answer: %+v", res)
		}
		lead.must("PUT", "/api/v1/projects/"+pid+"/members/"+zh.user.ID, map[string]any{"languages": []string{"zh"}}, 200, nil)
		var members []struct {
			Email     string
			Languages []string
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/members", nil, 200, &members)
		for _, m := range members {
			if w := map[string][]string{"en@example.org": {"en"}, "zh@example.org": {"zh"}, "lead@example.org": {}}[m.Email]; !slices.Equal(m.Languages, w) {
				t.Fatalf("members list languages of %s: %v, want %v", m.Email, m.Languages, w)
			}
		}

		// each queue gives only items in the person's languages, until it is empty
		answers := mustTemplate("d3omni-t2i").ExampleAnswers()
		got := map[string][]string{}
		for _, c := range []*client{en, zh, en, zh, en, zh, en, zh} {
			cr := c.next(pid, "label")
			if cr == nil {
				continue
			}
			var prompt string
			json.Unmarshal(cr.Item.Item.Inputs["prompt"], &prompt)
			got[c.user.Email] = append(got[c.user.Email], prompt)
			if stage := c.submitOK(cr.Assignment.ID, map[string]any{"answers": answers}); stage != "done" {
				t.Fatalf("item %s after one label: %s", prompt, stage)
			}
		}
		for _, c := range []*client{en, zh} {
			if st, body := c.do("POST", "/api/v1/projects/"+pid+"/queue/next", map[string]string{"stage": "label"}); st != 204 {
				t.Fatalf("%s's queue not empty: %d %s", c.user.Email, st, body)
			}
			prefix := strings.SplitN(c.user.Email, "@", 2)[0]
			for _, ext := range got[c.user.Email] {
				if l := langOf[ext]; l != "" && l != prefix && !strings.HasPrefix(l, prefix+"-") {
					t.Fatalf("%s got %s in %q", c.user.Email, ext, l)
				}
			}
		}
		all := append(slices.Clone(got["en@example.org"]), got["zh@example.org"]...)
		slices.Sort(all)
		if !slices.Equal(all, []string{"e1", "e2", "n1", "z1", "z2"}) {
			t.Fatalf("items handed out: %v", got)
		}

		// the French item waits for a reader: stuck, with that reason, until a member reads French
		var stuck struct {
			Stages []struct {
				Stage, Reason, Language string
				Count                   int
				IDs                     []string
			}
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/stuck", nil, 200, &stuck)
		if len(stuck.Stages) != 1 || stuck.Stages[0].Stage != "label" || stuck.Stages[0].Language != "fr" || stuck.Stages[0].Count != 1 ||
			!strings.Contains(stuck.Stages[0].Reason, "reads fr") || len(stuck.Stages[0].IDs) != 1 || external[stuck.Stages[0].IDs[0]] != "f1" {
			t.Fatalf("stuck French item: %+v", stuck)
		}
		lead.must("PUT", "/api/v1/projects/"+pid+"/members/"+zh.user.ID, map[string]any{"languages": []string{"zh", "fr"}}, 200, nil)
		lead.must("GET", "/api/v1/projects/"+pid+"/stuck", nil, 200, &stuck)
		if len(stuck.Stages) != 0 {
			t.Fatalf("still stuck with a French reader: %+v", stuck)
		}
		if en.next(pid, "label") != nil {
			t.Fatal("the English reader was given the French item")
		}
		cr := zh.next(pid, "label")
		if cr == nil {
			t.Fatal("the French reader got nothing")
		}
		zh.submitOK(cr.Assignment.ID, map[string]any{"answers": answers})

		// the project's languages: PATCH validated and canonical, imports outside them refused
		if st, body := lead.do("PATCH", "/api/v1/projects/"+pid, map[string]any{"workflow": map[string]any{"overlap": 1, "adjudication": "never", "on_no_consensus": "drop",
			"languages": []string{"en", "not a tag"}}}); st != 422 || fieldError(t, body, "workflow.languages[1]") != tasks.CodeInvalidLanguage {
			t.Fatalf("bad project language: %d %s", st, body)
		}
		var d struct{ Workflow struct{ Languages []string } }
		lead.must("PATCH", "/api/v1/projects/"+pid, map[string]any{"workflow": map[string]any{"overlap": 1, "adjudication": "never", "on_no_consensus": "drop",
			"languages": []string{"ZH", "en", "en"}}}, 200, &d)
		if !slices.Equal(d.Workflow.Languages, []string{"en", "zh"}) {
			t.Fatalf("project languages: %v", d.Workflow.Languages)
		}
		rep = lead.importNDJSON(items, langLine("e3", "en-US"), langLine("f2", "fr"), langLine("n2", ""))
		if rep["imported"].(float64) != 1 || !maps.Equal(lineErrors(t, rep), map[int]string{2: "language_not_allowed", 3: "required"}) {
			t.Fatalf("import under the project's languages: %v", rep)
		}

		// balance and report count by language
		if st, body := lead.do("PATCH", "/api/v1/projects/"+pid, map[string]any{"balance": map[string]any{"by": "lang"}}); st != 422 || fieldError(t, body, "balance.by") != "invalid_value" {
			t.Fatalf("bad balance by: %d %s", st, body)
		}
		lead.must("PATCH", "/api/v1/projects/"+pid, map[string]any{"balance": map[string]any{"by": "language"}}, 200, nil)
		var bal struct {
			Targets   struct{ By string }
			Languages []struct {
				Value string
				Count int
			}
		}
		waitReady(t, lead, "/api/v1/projects/"+pid+"/balance", &bal)
		counts := map[string]int{}
		for _, v := range bal.Languages {
			counts[v.Value] = v.Count
		}
		if bal.Targets.By != "language" || !maps.Equal(counts, map[string]int{"en": 1, "en-GB": 1, "zh-Hans": 1, "zh": 1, "": 1, "fr": 1}) {
			t.Fatalf("balance by language: %+v", bal)
		}
		var report struct {
			Languages []struct {
				Language       string
				Items, Decided int
			}
		}
		waitReady(t, lead, "/api/v1/projects/"+pid+"/report", &report)
		byLang := map[string][2]int{}
		for _, l := range report.Languages {
			byLang[l.Language] = [2]int{l.Items, l.Decided}
		}
		if !maps.Equal(byLang, map[string][2]int{"en": {1, 1}, "en-GB": {1, 1}, "en-US": {1, 0}, "zh-Hans": {1, 1}, "zh": {1, 1}, "": {1, 1}, "fr": {1, 1}}) {
			t.Fatalf("report by language: %+v", report.Languages)
		}
	})
}

// inLanguage adds a language to an item line.
func inLanguage(t *testing.T, line, language string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	m["language"] = language
	b, _ := json.Marshal(m)
	return string(b)
}

// TestLanguagesGoldAndCalibration: gold mixed into label work and the items of a calibration round
// follow the same language rule as production: an annotator who reads only English is never
// given a Chinese gold or calibration item, and is given every English one.
func TestLanguagesGoldAndCalibration(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, en := e.newUser("lead@example.org", false), e.newUser("en@example.org", false)
		pid := checklistProject(t, lead, map[string]any{"overlap": 1, "gold_rate": 1})
		base := "/api/v1/projects/" + pid
		lead.member(pid, en, "annotator")
		lead.must("PUT", base+"/members/"+en.user.ID, map[string]any{"languages": []string{"en"}}, 200, nil)
		var work, pool []string
		for _, l := range []string{"en", "zh"} {
			for i := range 2 {
				work = append(work, inLanguage(t, checklistLine(fmt.Sprintf("gold-%s-%d", l, i), allYes), l),
					inLanguage(t, checklistLine(fmt.Sprintf("prod-%s-%d", l, i), nil), l))
				pool = append(pool, strings.Replace(inLanguage(t, checklistLine(fmt.Sprintf("cal-%s-%d", l, i), allYes), l), `"gold":true,`, "", 1))
			}
		}
		lead.importNDJSON(base+"/items", work...)
		if rep := lead.importNDJSON(base+"/items?pool=calibration", pool...); rep["imported"].(float64) != 4 {
			t.Fatalf("pool import: %v", rep)
		}
		lead.must("POST", base+"/calibration-rounds", map[string]any{"name": "Round one",
			"external_ids": []string{"cal-en-0", "cal-en-1", "cal-zh-0", "cal-zh-1"}, "participants": []string{en.user.ID},
			"pass": map[string]any{"metric": "accuracy_vs_gold", "threshold": 0.5, "questions": []string{"safe"}}}, 201, nil)

		given := map[string][]string{} // stage → external ids, in claim order
		for _, stage := range []string{"calibration", "label"} {
			for range 10 {
				c := en.next(pid, stage)
				if c == nil {
					break
				}
				ext := dbStrings(t, e.store, "SELECT i.external_id FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.id = $1", c.Assignment.ID)[0]
				given[stage] = append(given[stage], ext)
				en.submitOK(c.Assignment.ID, map[string]any{"answers": checklistAnswers("yes", "yes", "no", "yes")})
			}
		}
		slices.Sort(given["calibration"])
		if want := []string{"cal-en-0", "cal-en-1"}; !slices.Equal(given["calibration"], want) {
			t.Errorf("calibration items given: %v, want %v", given["calibration"], want)
		}
		// gold_rate 1: both English gold items come first, then production
		if l := given["label"]; len(l) != 4 || !strings.HasPrefix(l[0], "gold-en-") || !strings.HasPrefix(l[1], "gold-en-") ||
			!slices.Equal(slices.Sorted(slices.Values(l[2:])), []string{"prod-en-0", "prod-en-1"}) {
			t.Errorf("label items given: %v, want both English gold items, then both English production items", l)
		}
	})
}

// TestReleaseLanguages: a release carries each item's language in its records, counts records by
// language in the manifest, the release summary and the dataset card.
func TestReleaseLanguages(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "d3", "template": "d3omni-t2i",
			"workflow": map[string]any{"overlap": 1, "adjudication": "never", "on_no_consensus": "drop"}}, 201, &p)
		pid := p.ID
		lead.member(pid, ann, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", langLine("e1", "en"), langLine("z1", "zh-Hans"), langLine("z2", "zh-Hans"), langLine("n1", ""))
		for c := ann.next(pid, "label"); c != nil; c = ann.next(pid, "label") {
			ann.submitOK(c.Assignment.ID, map[string]any{"answers": mustTemplate("d3omni-t2i").ExampleAnswers()})
		}
		rid := lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"}})
		v := lead.waitRelease(pid, rid)
		if v.Status != "done" {
			t.Fatalf("release: %+v", v)
		}
		files := lead.releaseFiles(pid, v)
		got := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(files["jsonl/test.jsonl"])), "\n") {
			var r struct {
				ExternalID string  `json:"external_id"`
				Language   *string `json:"language"`
			}
			json.Unmarshal([]byte(line), &r)
			got[r.ExternalID] = "absent"
			if r.Language != nil {
				got[r.ExternalID] = *r.Language
			}
		}
		if want := map[string]string{"e1": "en", "z1": "zh-Hans", "z2": "zh-Hans", "n1": "absent"}; !maps.Equal(got, want) {
			t.Errorf("record languages %v, want %v", got, want)
		}
		want := map[string]int64{"en": 1, "zh-Hans": 2, "und": 1}
		var manifest struct {
			Records struct {
				ByLanguage map[string]int64 `json:"by_language"`
			} `json:"records"`
		}
		json.Unmarshal(files["manifest.json"], &manifest)
		var summary struct {
			Summary struct {
				ByLanguage map[string]int64 `json:"by_language"`
			} `json:"summary"`
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/releases/"+rid, nil, 200, &summary)
		if !maps.Equal(manifest.Records.ByLanguage, want) || !maps.Equal(summary.Summary.ByLanguage, want) {
			t.Errorf("by language: manifest %v, summary %v, want %v", manifest.Records.ByLanguage, summary.Summary.ByLanguage, want)
		}
		if card := string(files["README.md"]); !strings.Contains(card, "| `zh-Hans` | 2 |") || !strings.Contains(card, "- en\n- zh\n") {
			t.Errorf("the card does not count by language:\n%s", card)
		}
	})
}
