package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/cli"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// balanceView is the body of GET .../balance.
type balanceView struct {
	Status  string `json:"status"`
	Items   int64  `json:"items"`
	Targets struct {
		Ratio  *float64 `json:"ratio"`
		Spread *int64   `json:"spread"`
		By     string   `json:"by"`
	} `json:"targets"`
	Readiness struct {
		Ready         bool     `json:"ready"`
		RatioMet      *bool    `json:"ratio_met"`
		SpreadMet     *bool    `json:"spread_met"`
		NeedMoreNo    []string `json:"need_more_no"`
		BinsNeedItems []int    `json:"bins_need_items"`
	} `json:"readiness"`
	Binary *struct {
		Dimensions []struct {
			Key        string   `json:"key"`
			Yes, No    int64    `json:"-"`
			YesN       int64    `json:"yes"`
			NoN        int64    `json:"no"`
			Open       int64    `json:"open"`
			Ratio      *float64 `json:"ratio"`
			MeetsRatio *bool    `json:"meets_ratio"`
			NeedsNo    *int64   `json:"needs_no"`
		} `json:"dimensions"`
		Histogram []struct {
			Score int    `json:"score"`
			Count int64  `json:"count"`
			Needs *int64 `json:"needs"`
		} `json:"histogram"`
		Spread       int64    `json:"spread"`
		MinRatio     *float64 `json:"min_ratio"`
		Correlations []struct {
			A, B    string
			R       *float64 `json:"r"`
			Flagged bool     `json:"flagged"`
		} `json:"correlations"`
	} `json:"binary"`
	Meta []struct {
		Key    string `json:"key"`
		Values []struct {
			Value string `json:"value"`
			Count int64  `json:"count"`
		} `json:"values"`
	} `json:"meta"`
}

// waitReady polls a derived-figures endpoint until its status is ready.
func waitReady(t *testing.T, c *client, path string, out any) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var st struct {
			Status string `json:"status"`
		}
		code, body := c.do("GET", path, nil)
		if err := json.Unmarshal(body, &st); err != nil || code != 200 {
			t.Fatalf("%s: %s", path, body)
		}
		if st.Status == "ready" {
			c.must("GET", path, nil, 200, out)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still %s after a minute", path, st.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// d3Project is a D3-Omni TTS project built by construction: each item's satisfied dimensions
// are known to the test, which writes the answers through each question's polarity.
type d3Project struct {
	id   string
	keys []string                   // binary questions in schema order
	inv  map[string]bool            // questions whose Yes means a defect
	na   map[string]bool            // questions whose N/A means satisfied
	sat  map[string]map[string]bool // external id → question → satisfied
	meta map[string]map[string]any
}

func newD3Project(t *testing.T, lead *client) *d3Project {
	var p struct {
		ID     string `json:"id"`
		Schema struct {
			Questions []struct {
				Key      string `json:"key"`
				Kind     string `json:"kind"`
				YesMeans string `json:"yes_means"`
				AllowNA  bool   `json:"allow_na"`
				NAMeans  string `json:"na_means"`
			} `json:"questions"`
		} `json:"schema"`
	}
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "d3", "template": "d3omni-tts"}, 201, &p)
	d := &d3Project{id: p.ID, inv: map[string]bool{}, na: map[string]bool{}, sat: map[string]map[string]bool{}, meta: map[string]map[string]any{}}
	for _, q := range p.Schema.Questions {
		if q.Kind == "binary" {
			d.keys = append(d.keys, q.Key)
			d.inv[q.Key] = q.YesMeans == "defect"
			d.na[q.Key] = q.AllowNA && q.NAMeans == "satisfied"
		}
	}
	return d
}

// add imports items with score s: the s dimensions from offset on (cyclically) satisfied.
func (d *d3Project) add(t *testing.T, lead *client, prefix string, s, count int, meta func(i int) map[string]any) {
	var lines []string
	for i := range count {
		ext := fmt.Sprintf("%s-%02d-%02d", prefix, s, i)
		sat := map[string]bool{}
		answers := map[string]any{}
		for k, key := range d.keys {
			ok := (k-i+2*len(d.keys))%len(d.keys) < s
			sat[key] = ok
			answers[key] = map[bool]string{true: "yes", false: "no"}[ok != d.inv[key]]
			if ok && d.na[key] && k == i%len(d.keys) {
				answers[key] = "na" // note: N/A counts as satisfied on D3-Omni's questions
			}
		}
		m := meta(i)
		d.sat[ext], d.meta[ext] = sat, m
		line, _ := json.Marshal(map[string]any{"external_id": ext, "inputs": map[string]any{"prompt_instruction": "calm", "prompt_text": "hello", "audio": "media/a.wav"},
			"meta": m, "ground_truth": map[string]any{"answers": answers, "provenance": "constructed"}})
		lines = append(lines, string(line))
	}
	rep := lead.importNDJSON("/api/v1/projects/"+d.id+"/items", lines...)
	if errs, _ := rep["errors"].([]any); len(errs) > 0 {
		t.Fatalf("import: %v", rep)
	}
}

// check compares the balance with the figures the test computes from its construction.
func (d *d3Project) check(t *testing.T, v balanceView, ratio float64, spread int64) {
	t.Helper()
	D := len(d.keys)
	yes, no := map[string]int64{}, map[string]int64{}
	hist := make([]int64, D+1)
	vec := map[string][]float64{}
	for _, sat := range d.sat {
		s := 0
		for _, k := range d.keys {
			x := 0.0
			if sat[k] {
				yes[k]++
				s++
				x = 1
			} else {
				no[k]++
			}
			vec[k] = append(vec[k], x)
		}
		hist[s]++
	}
	if v.Items != int64(len(d.sat)) || v.Binary == nil || len(v.Binary.Dimensions) != D {
		t.Fatalf("balance: %+v", v)
	}
	allMet := true
	var needNo []string
	for i, dim := range v.Binary.Dimensions {
		k := d.keys[i]
		r := float64(no[k]) / float64(yes[k])
		meets := r > ratio
		need := int64(0)
		if !meets {
			need = int64(math.Floor(ratio*float64(yes[k]))) + 1 - no[k]
			needNo = append(needNo, k)
		}
		allMet = allMet && meets
		if dim.Key != k || dim.YesN != yes[k] || dim.NoN != no[k] || dim.Open != 0 || dim.Ratio == nil || math.Abs(*dim.Ratio-r) > 1e-12 ||
			*dim.MeetsRatio != meets || *dim.NeedsNo != need {
			t.Fatalf("%s: %+v, want yes %d no %d ratio %v meets %v needs %d", k, dim, yes[k], no[k], r, meets, need)
		}
	}
	lo, hi := hist[0], hist[0]
	for _, n := range hist {
		lo, hi = min(lo, n), max(hi, n)
	}
	var bins []int
	for s, n := range hist {
		h := v.Binary.Histogram[s]
		need := max(hi-spread+1-n, 0)
		if need > 0 {
			bins = append(bins, s)
		}
		if h.Score != s || h.Count != n || *h.Needs != need {
			t.Fatalf("bin %d: %+v, want %d needing %d", s, h, n, need)
		}
	}
	if v.Binary.Spread != hi-lo {
		t.Fatalf("spread %d, want %d", v.Binary.Spread, hi-lo)
	}
	ready := allMet && hi-lo < spread
	if v.Readiness.Ready != ready || *v.Readiness.RatioMet != allMet || *v.Readiness.SpreadMet != (hi-lo < spread) ||
		fmt.Sprint(v.Readiness.NeedMoreNo) != fmt.Sprint(nonNilS(needNo)) || fmt.Sprint(v.Readiness.BinsNeedItems) != fmt.Sprint(nonNilI(bins)) {
		t.Fatalf("readiness %+v, want ready %v ratio %v need %v bins %v", v.Readiness, ready, allMet, needNo, bins)
	}
	// correlations: Pearson's r of the test's 0/1 vectors (item order does not matter to r)
	n := 0
	for a := range d.keys {
		for b := a + 1; b < D; b++ {
			c := v.Binary.Correlations[n]
			n++
			want, err := agreement.Pearson(vec[d.keys[a]], vec[d.keys[b]])
			if c.A != d.keys[a] || c.B != d.keys[b] || (err == nil) != (c.R != nil) || (c.R != nil && (math.Abs(*c.R-want) > 1e-9 || c.Flagged != (math.Abs(want) > 0.6))) {
				t.Fatalf("correlation %s/%s: %+v, want %v (%v)", d.keys[a], d.keys[b], c, want, err)
			}
		}
	}
	if n != len(v.Binary.Correlations) {
		t.Fatalf("%d correlations, want %d", len(v.Binary.Correlations), n)
	}
}

func nonNilS(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilI(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// TestBalanceReadiness: a D3-Omni project balanced by construction (every score bin equally
// full, every dimension as often Yes as No) is ready under ρ = 0.95 and δ = 6; six more
// all-Yes seeds push every ratio under ρ and the spread to δ, and the balance says which
// dimensions need No items and which bins need items. Every figure equals the test's own.
func TestBalanceReadiness(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead := e.newUser("lead@example.org", false)
		viewer := e.newUser("viewer@example.org", false)
		d := newD3Project(t, lead)
		lead.member(d.id, viewer, "viewer")
		D := len(d.keys)
		for s := 0; s <= D; s++ {
			d.add(t, lead, "n", s, D, func(i int) map[string]any {
				return map[string]any{"task": "tts", "generator": []string{"g1", "g2"}[i%2], "seed_id": fmt.Sprintf("seed-%d", i)}
			})
		}
		if st, body := lead.do("PATCH", "/api/v1/projects/"+d.id, map[string]any{"balance": map[string]any{"ratio": 0, "spread": 0, "by": "task"}}); st != 422 ||
			fieldError(t, body, "balance.ratio") != "out_of_range" || fieldError(t, body, "balance.spread") != "out_of_range" || fieldError(t, body, "balance.by") != "invalid_value" {
			t.Fatalf("bad targets: %d %s", st, body)
		}
		lead.must("PATCH", "/api/v1/projects/"+d.id, map[string]any{"balance": map[string]any{"ratio": 0.95, "spread": 6, "by": "meta.task"}}, 200, nil)
		var v balanceView
		waitReady(t, viewer, "/api/v1/projects/"+d.id+"/balance", &v)
		d.check(t, v, 0.95, 6)
		if !v.Readiness.Ready || v.Targets.By != "meta.task" {
			t.Fatalf("balanced by construction, not ready: %+v", v.Readiness)
		}
		var gen []string
		for _, m := range v.Meta {
			if m.Key == "generator" {
				for _, x := range m.Values {
					gen = append(gen, fmt.Sprintf("%s=%d", x.Value, x.Count))
				}
			}
		}
		if want := fmt.Sprintf("[g1=%d g2=%d]", (D+1)*((D+1)/2), (D+1)*(D/2)); fmt.Sprint(gen) != want {
			t.Fatalf("generator counts %v, want %s", gen, want)
		}
		// six more seeds (all Yes): the top bin grows by six, every ratio falls under 0.95
		d.add(t, lead, "x", D, 6, func(i int) map[string]any { return map[string]any{"task": "tts", "generator": "g3"} })
		waitReady(t, lead, "/api/v1/projects/"+d.id+"/balance", &v)
		d.check(t, v, 0.95, 6)
		if v.Readiness.Ready || len(v.Readiness.NeedMoreNo) != D || len(v.Readiness.BinsNeedItems) != D {
			t.Fatalf("not balanced, ready: %+v", v.Readiness)
		}
		// a ratio target on a project without binary questions names the field
		var lk struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "lk", "template": "likert-rating"}, 201, &lk)
		if st, body := lead.do("PATCH", "/api/v1/projects/"+lk.ID, map[string]any{"balance": map[string]any{"ratio": 0.95}}); st != 422 || fieldError(t, body, "balance.ratio") != "not_binary" {
			t.Fatalf("ratio on likert: %d %s", st, body)
		}
		if st, _ := e.newUser("out@example.org", false).do("GET", "/api/v1/projects/"+d.id+"/balance", nil); st != 404 {
			t.Fatalf("outsider reads balance: %d", st)
		}
	})
}

// judgeBoardView is the body of GET .../judges, with each report kept raw.
type judgeBoardView struct {
	Status string   `json:"status"`
	Models []string `json:"models"`
	Groups []struct {
		Key       string   `json:"key"`
		Kind      string   `json:"kind"`
		Best      string   `json:"best"`
		Questions []string `json:"questions"`
		Rows      []struct {
			Model  string          `json:"model"`
			Reason string          `json:"reason"`
			Report json.RawMessage `json:"report"`
		} `json:"rows"`
	} `json:"groups"`
}

// TestJudgeLeaderboard: on the D3-Omni project, each model's report on the binary vectors and
// on each dimension equals `arbiter judge-eval` on the test's own reference and prediction
// files (same seed, intervals, clusters and strata); the paired difference to the best model
// is there; a model with no overlap gets a row with its reason; bad input names the field.
func TestJudgeLeaderboard(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead := e.newUser("lead@example.org", false)
		d := newD3Project(t, lead)
		D := len(d.keys)
		for s := 0; s <= D; s++ {
			d.add(t, lead, "n", s, 3, func(i int) map[string]any {
				return map[string]any{"corpus": []string{"c1", "c2", "c3", "c4"}[(s+i)%4], "split": []string{"a", "b"}[s%2]}
			})
		}
		// m1 flips every 7th answer, m2 every 3rd; "late" only answers an item without ground truth
		var lines []string
		refLines, predLines := map[string][]string{}, map[string][]string{}
		n := 0
		for ext, sat := range d.sat {
			for _, m := range []string{"m1", "m2"} {
				answers := map[string]any{}
				for _, k := range d.keys {
					n++
					v := sat[k]
					if (m == "m1" && n%7 == 0) || (m == "m2" && n%3 == 0) {
						v = !v
					}
					answers[k] = map[bool]string{true: "yes", false: "no"}[v != d.inv[k]]
					pl, _ := json.Marshal(map[string]string{"unit": ext, "question": k, "value": map[bool]string{true: "yes", false: "no"}[v]})
					predLines[m] = append(predLines[m], string(pl))
				}
				l, _ := json.Marshal(map[string]any{"external_id": ext, "model": m, "answers": answers})
				lines = append(lines, string(l))
			}
		}
		for _, ext := range sortedKeys(d.sat) {
			for _, k := range sortedStrings(d.keys) {
				rl, _ := json.Marshal(map[string]string{"unit": ext, "question": k, "value": map[bool]string{true: "yes", false: "no"}[d.sat[ext][k]],
					"corpus": fmt.Sprint(d.meta[ext]["corpus"]), "split": fmt.Sprint(d.meta[ext]["split"])})
				refLines[k] = append(refLines[k], string(rl))
				refLines["binary"] = append(refLines["binary"], string(rl))
			}
		}
		lead.importNDJSON("/api/v1/projects/"+d.id+"/items", `{"external_id":"open-1","inputs":{"prompt_instruction":"x","prompt_text":"y","audio":"media/a.wav"}}`)
		lines = append(lines, `{"external_id":"open-1","model":"late","answers":{}}`)
		lead.importNDJSON("/api/v1/projects/"+d.id+"/predictions", lines...)
		// a prediction that does not validate is a line error naming the question
		rep := lead.importNDJSON("/api/v1/projects/"+d.id+"/predictions", fmt.Sprintf(`{"external_id":"n-00-00","model":"bad","answers":{%q:"maybe"}}`, d.keys[0]))
		if errs, _ := rep["errors"].([]any); len(errs) != 1 || !strings.Contains(fmt.Sprint(errs[0]), d.keys[0]) {
			t.Fatalf("invalid prediction: %v", rep)
		}
		if st, body := lead.do("GET", "/api/v1/projects/"+d.id+"/judges?cluster_key=nope", nil); st != 422 || fieldError(t, body, "cluster_key") != "missing_meta" {
			t.Fatalf("missing cluster key: %d %s", st, body)
		}
		var v judgeBoardView
		waitReady(t, lead, "/api/v1/projects/"+d.id+"/judges?cluster_key=corpus&strata_key=split", &v)
		if fmt.Sprint(v.Models) != "[late m1 m2]" || len(v.Groups) != D+1 {
			t.Fatalf("board: %v, %d groups", v.Models, len(v.Groups))
		}
		dir := t.TempDir()
		write := func(name string, ls []string) string {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte(strings.Join(ls, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}
		preds := map[string]string{"m1": write("m1.jsonl", predLines["m1"]), "m2": write("m2.jsonl", predLines["m2"])}
		// a release of the project, downloaded into a directory: judge-eval reads it as the reference
		rel := lead.waitRelease(d.id, lead.startRelease(d.id, map[string]any{"name": "v1", "formats": []string{"jsonl"}}))
		if rel.Status != "done" {
			t.Fatalf("release: %+v", rel)
		}
		relDir := filepath.Join(dir, "release")
		for name, b := range lead.releaseFiles(d.id, rel) {
			p := filepath.Join(relDir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for _, g := range v.Groups {
			ref := write(g.Key+".jsonl", refLines[g.Key])
			for _, row := range g.Rows {
				if row.Model == "late" {
					if row.Reason == "" || string(row.Report) != "null" {
						t.Fatalf("no overlap: %+v", row)
					}
					continue
				}
				args := []string{"judge-eval", "--reference", ref, "--predictions", preds[row.Model], "--kind", "binary",
					"--cluster-key", "corpus", "--strata-key", "split", "--intervals", "1000", "--bootstrap", "1000", "--seed", "20260311", "--elo-k", "32"}
				if row.Model != g.Best {
					args = append(args, "--compare", preds[g.Best])
				}
				var out, errb bytes.Buffer
				if code := cli.Main(args, &out, &errb); code != 0 {
					t.Fatalf("judge-eval: %d %s", code, errb.String())
				}
				var want, got map[string]any
				json.Unmarshal(out.Bytes(), &want)
				json.Unmarshal(row.Report, &got)
				if row.Model != g.Best {
					// note: judge-eval with --compare scores the items both models answered; both
					// answered every item here, so only the notes of the comparison differ
					delete(want, "notes")
					delete(got, "notes")
				}
				if fmt.Sprint(want) != fmt.Sprint(got) {
					t.Fatalf("group %s model %s:\n got %v\nwant %v", g.Key, row.Model, got, want)
				}
				// the same from the release directory as the reference
				args[2] = relDir
				args = append(args, "--questions", strings.Join(g.Questions, ","))
				out.Reset()
				if code := cli.Main(args, &out, &errb); code != 0 {
					t.Fatalf("judge-eval on the release: %d %s", code, errb.String())
				}
				var fromRelease map[string]any
				json.Unmarshal(out.Bytes(), &fromRelease)
				if row.Model != g.Best {
					delete(fromRelease, "notes")
				}
				if fmt.Sprint(fromRelease) != fmt.Sprint(got) {
					t.Fatalf("group %s model %s from the release:\n got %v\nwant %v", g.Key, row.Model, fromRelease, got)
				}
				if g.Key == "binary" && (got["exact_match"] == nil || got["ci95"] == nil || got["coupling"] == nil) {
					t.Fatalf("binary group without perfect match or intervals: %v", got)
				}
			}
		}
		if v.Groups[0].Best != "m1" {
			t.Fatalf("best %q, want m1", v.Groups[0].Best)
		}
		// while the kept figures are current the options are checked against the job's own count
		// of items without the keys (not part of the answer); once an item loses its cluster key
		// the data changed, and the answer counts again and refuses
		board := "/api/v1/projects/" + d.id + "/judges?cluster_key=corpus&strata_key=split"
		if st, body := lead.do("GET", board, nil); st != 200 || strings.Contains(string(body), "missing_meta") {
			t.Fatalf("kept board: %d %s", st, body)
		}
		if _, err := e.store.SQL().ExecContext(context.Background(), `UPDATE items SET meta = '{"split": "a"}', updated_at = $1 WHERE project_id = $2 AND external_id = $3`,
			time.Now().Add(time.Minute).UTC(), d.id, sortedKeys(d.sat)[0]); err != nil {
			t.Fatal(err)
		}
		if st, body := lead.do("GET", board, nil); st != 422 || fieldError(t, body, "cluster_key") != "missing_meta" || strings.Contains(string(body), "strata_key") {
			t.Fatalf("an item without the cluster key after the figures were kept: %d %s", st, body)
		}
	})
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return sortedStrings(out)
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

var _ = insight.JudgeSeed

// TestBalancePositionBias: one annotator labels pairwise items whose outputs are shuffled per
// label and picks by position (the first shown twice as often as the second, some ties). The
// balance counts the labels by the output chosen and by the position shown, each equal to the
// test's own tally from what it was shown and what it answered.
func TestBalancePositionBias(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "pp", "template": "pairwise-preference",
			"workflow": map[string]any{"overlap": 1}}, 201, &p)
		lead.member(p.ID, ann, "annotator")
		const n = 30
		var lines []string
		for i := range n {
			lines = append(lines, fmt.Sprintf(`{"external_id":"pp-%02d","inputs":{"prompt":"p","responses":[`+
				`{"id":"x","type":"text","value":"first-%d"},{"id":"y","type":"text","value":"second-%d"}]}}`, i, i, i))
		}
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", lines...)
		outputs, positions := map[string]int64{}, map[string]int64{}
		swapped := 0
		for i := range n {
			c := ann.next(p.ID, "label")
			if c == nil {
				t.Fatalf("queue empty after %d labels", i)
			}
			var shown []struct {
				Slot  string `json:"slot"`
				Value string `json:"value"`
			}
			if err := json.Unmarshal(c.Item.Item.Inputs["responses"], &shown); err != nil || len(shown) != 2 {
				t.Fatalf("shown: %s", c.Item.Item.Inputs["responses"])
			}
			pick := []string{"A", "A", "B", "tie", "A", "B"}[i%6]
			positions[pick]++
			firstIsX := strings.HasPrefix(shown[0].Value, "first-")
			if !firstIsX {
				swapped++
			}
			switch {
			case pick == "tie":
				outputs["tie"]++
			case (pick == "A") == firstIsX:
				outputs["A"]++
			default:
				outputs["B"]++
			}
			ann.submitOK(c.Assignment.ID, map[string]any{"answers": map[string]any{"preference": pick}})
		}
		if swapped == 0 || swapped == n {
			t.Fatalf("the outputs were never (or always) swapped: %d of %d", swapped, n)
		}
		var v struct {
			Positions []struct {
				Key     string `json:"key"`
				Labels  int64  `json:"labels"`
				Outputs []struct {
					Value string
					Count int64
					Share float64
				} `json:"outputs"`
				Positions []struct {
					Value string
					Count int64
					Share float64
				} `json:"positions"`
			} `json:"positions"`
		}
		waitReady(t, lead, "/api/v1/projects/"+p.ID+"/balance", &v)
		if len(v.Positions) != 1 || v.Positions[0].Key != "preference" || v.Positions[0].Labels != n {
			t.Fatalf("positions: %+v", v.Positions)
		}
		pb := v.Positions[0]
		for k, want := range []map[string]int64{outputs, positions} {
			got := pb.Outputs
			if k == 1 {
				got = pb.Positions
			}
			if len(got) != 3 {
				t.Fatalf("%d: %+v", k, got)
			}
			for i, slot := range []string{"A", "B", "tie"} {
				if got[i].Value != slot || got[i].Count != want[slot] || math.Abs(got[i].Share-float64(want[slot])/n) > 1e-12 {
					t.Fatalf("%d %s: %+v, want %d of %d", k, slot, got[i], want[slot], n)
				}
			}
		}
		// a project without pairwise questions has no position figures
		var lk struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "lk", "template": "likert-rating"}, 201, &lk)
		var lv struct {
			Positions []any `json:"positions"`
		}
		waitReady(t, lead, "/api/v1/projects/"+lk.ID+"/balance", &lv)
		if lv.Positions == nil || len(lv.Positions) != 0 {
			t.Fatalf("likert positions: %v", lv.Positions)
		}
	})
}

// TestItemFamily: a D3-Omni seed and its perturbed negatives (seed_id, is_seed, flip_set and
// operator in item meta) are one family on the item page: every member's page lists the same
// members, the seed first, with their flipped dimensions and operators; an item without a
// seed_id has no family.
func TestItemFamily(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "D3", "template": "d3omni-t2i"}, 201, &p)
		line := func(ext string, meta map[string]any) string {
			b, _ := json.Marshal(map[string]any{"external_id": ext, "inputs": map[string]any{"prompt": "an apple", "image": "media/apple.png", "generator": "g"}, "meta": meta})
			return string(b)
		}
		// note: the seed's external id sorts after its negatives, so the seed-first order is the service's
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items",
			line("a-neg-blur", map[string]any{"seed_id": "s1", "is_seed": false, "flip_set": []string{"edge_clarity"}, "operator": "gaussian_blur"}),
			line("a-neg-color", map[string]any{"seed_id": "s1", "is_seed": false, "flip_set": []string{"color", "lighting"}, "operator": "prompt_rewrite"}),
			line("z-seed-1", map[string]any{"seed_id": "s1", "is_seed": true, "flip_set": []string{}}),
			line("seed-2", map[string]any{"seed_id": "s2", "is_seed": true}),
			line("loose", map[string]any{"source": "web"}))
		ids := map[string]string{}
		for _, it := range lead.items(p.ID, "") {
			ids[it.ExternalID] = it.ID
		}
		type member struct {
			ID         string   `json:"id"`
			ExternalID string   `json:"external_id"`
			IsSeed     bool     `json:"is_seed"`
			FlipSet    []string `json:"flip_set"`
			Operator   string   `json:"operator"`
		}
		family := func(ext string) (string, []member, bool) {
			var d struct {
				Family *struct {
					SeedID  string   `json:"seed_id"`
					Members []member `json:"members"`
				} `json:"family"`
			}
			lead.must("GET", "/api/v1/projects/"+p.ID+"/items/"+ids[ext], nil, 200, &d)
			if d.Family == nil {
				return "", nil, false
			}
			return d.Family.SeedID, d.Family.Members, true
		}
		want := fmt.Sprint([]member{
			{ids["z-seed-1"], "z-seed-1", true, []string{}, ""},
			{ids["a-neg-blur"], "a-neg-blur", false, []string{"edge_clarity"}, "gaussian_blur"},
			{ids["a-neg-color"], "a-neg-color", false, []string{"color", "lighting"}, "prompt_rewrite"},
		})
		for _, ext := range []string{"a-neg-blur", "a-neg-color", "z-seed-1"} {
			seed, ms, ok := family(ext)
			if !ok || seed != "s1" || fmt.Sprint(ms) != want {
				t.Fatalf("family of %s: %v %s %v, want %s", ext, ok, seed, ms, want)
			}
		}
		if seed, ms, ok := family("seed-2"); !ok || seed != "s2" || len(ms) != 1 || !ms[0].IsSeed || ms[0].FlipSet == nil {
			t.Fatalf("family of seed-2: %v %s %+v", ok, seed, ms)
		}
		if _, _, ok := family("loose"); ok {
			t.Fatal("an item without seed_id has a family")
		}
	})
}

// TestCardNumbersAreTheReport: the release's dataset card prints the items, labels, review
// verdicts and drop reasons of the dataset report (gold items count in neither).
func TestCardNumbersAreTheReport(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
		pid := checklistProject(t, lead, map[string]any{"overlap": 1})
		lead.member(pid, ann, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", checklistLine("a", nil), checklistLine("b", nil), checklistLine("c", nil),
			checklistLine("g1", allYes), checklistLine("g2", allYes))
		for range 2 {
			c := ann.next(pid, "label")
			if c == nil {
				t.Fatal("no work")
			}
			ann.submitOK(c.Assignment.ID, map[string]any{"answers": checklistAnswers("yes", "no", "no", "yes")})
		}
		var rep struct {
			Items   int64 `json:"items"`
			Labels  int64 `json:"labels"`
			Reviews []struct {
				Value string
				Count int64
			} `json:"reviews"`
			Dropped []struct {
				Value string
				Count int64
			} `json:"dropped"`
		}
		waitReady(t, lead, "/api/v1/projects/"+pid+"/report", &rep)
		rel := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"}}))
		card := string(lead.releaseFiles(pid, rel)["README.md"])
		if rep.Items != 3 {
			t.Fatalf("report items %d, want 3 (gold left out)", rep.Items)
		}
		for _, want := range []string{fmt.Sprintf("| read | %d |\n", rep.Items), fmt.Sprintf("labels submitted: %d\n", rep.Labels)} {
			if !strings.Contains(card, want) {
				t.Fatalf("card lacks %q:\n%s", want, card)
			}
		}
		verdicts := "none"
		if len(rep.Reviews) > 0 {
			var parts []string
			for _, v := range rep.Reviews {
				parts = append(parts, fmt.Sprintf("%s %d", v.Value, v.Count))
			}
			verdicts = strings.Join(parts, ", ")
		}
		if !strings.Contains(card, "- Review verdicts: "+verdicts+"\n") {
			t.Fatalf("card verdicts, want %s:\n%s", verdicts, card)
		}
		for _, d := range rep.Dropped {
			if !strings.Contains(card, fmt.Sprintf("| %s | %d |", d.Value, d.Count)) {
				t.Fatalf("card lacks drop %v:\n%s", d, card)
			}
		}
	})
}
