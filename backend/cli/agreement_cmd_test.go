package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// krippendorffCSV is Krippendorff's (2011) reliability data, long format.
const krippendorffCSV = `unit,rater,value
1,A,1
1,B,1
1,D,1
2,A,2
2,B,2
2,C,3
2,D,2
3,A,3
3,B,3
3,C,3
3,D,3
4,A,3
4,B,3
4,C,3
4,D,3
5,A,2
5,B,2
5,C,2
5,D,2
6,A,1
6,B,2
6,C,3
6,D,4
7,A,4
7,B,4
7,C,4
7,D,4
8,A,1
8,B,1
8,C,2
8,D,1
9,A,2
9,B,2
9,C,2
9,D,2
10,B,5
10,C,5
10,D,5
11,C,1
11,D,1
12,B,3
`

func runCmd(t *testing.T, run func(context.Context, []string, io.Writer, io.Writer) error, args ...string) (map[string]any, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, &errOut)
	if err != nil {
		return nil, errOut.String(), err
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out.String())
	}
	return m, errOut.String(), nil
}

func TestAgreementCommand(t *testing.T) {
	csvPath := writeTemp(t, "k.csv", krippendorffCSV)
	tests := []struct {
		level   string
		alpha   float64
		present []string
		absent  []string
	}{
		{"nominal", 0.743, []string{"fleiss_kappa", "scott_pi", "gwet_ac1", "brennan_prediger", "pairwise"}, []string{"icc", "cohen_kappa", "exact_agreement"}},
		{"ordinal", 0.815, []string{"exact_agreement", "within_one", "mean_abs_diff"}, []string{"icc"}},
		{"interval", 0.849, []string{"icc", "exact_agreement"}, []string{"cohen_kappa"}},
		{"ratio", 0.797, []string{"icc"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.level, func(t *testing.T) {
			m, _, err := runCmd(t, runAgreement, "--input", csvPath, "--level", tc.level)
			if err != nil {
				t.Fatal(err)
			}
			if a := m["krippendorff_alpha"].(float64); int(a*1000+0.5) != int(tc.alpha*1000+0.5) {
				t.Errorf("alpha = %v, want %v", a, tc.alpha)
			}
			if m["n_units"].(float64) != 12 || m["n_raters"].(float64) != 4 || m["n_pairable_units"].(float64) != 11 {
				t.Errorf("counts = %v %v %v", m["n_units"], m["n_raters"], m["n_pairable_units"])
			}
			for _, k := range tc.present {
				if _, ok := m[k]; !ok {
					t.Errorf("key %q missing", k)
				}
			}
			for _, k := range tc.absent {
				if _, ok := m[k]; ok {
					t.Errorf("key %q should be absent", k)
				}
			}
		})
	}
}

func TestAgreementCommandJSONLBootstrapAndNulls(t *testing.T) {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(krippendorffCSV), "\n")[1:] {
		f := strings.Split(line, ",")
		b.WriteString(`{"unit": "` + f[0] + `", "rater": "` + f[1] + `", "value": ` + f[2] + `, "site": "s` + f[0] + `"}` + "\n")
	}
	p := writeTemp(t, "k.jsonl", b.String())
	m, _, err := runCmd(t, runAgreement, "--input", p, "--level", "nominal", "--bootstrap", "50", "--seed", "3", "--cluster-key", "site", "--dawid-skene")
	if err != nil {
		t.Fatal(err)
	}
	if ds, ok := m["dawid_skene"].(map[string]any); !ok || len(ds["rater_accuracy"].(map[string]any)) != 4 {
		t.Errorf("dawid_skene = %v", m["dawid_skene"])
	}
	ci, ok := m["ci95"].(map[string]any)
	if !ok || ci["krippendorff_alpha"] == nil {
		t.Fatalf("ci95 = %v", m["ci95"])
	}
	m2, _, _ := runCmd(t, runAgreement, "--input", p, "--level", "nominal", "--bootstrap", "50", "--seed", "3", "--cluster-key", "site")
	if a, b := mustJSON(m["ci95"]), mustJSON(m2["ci95"]); a != b {
		t.Errorf("bootstrap not deterministic: %s vs %s", a, b)
	}

	one := writeTemp(t, "one.csv", "unit,rater,value\nu1,a,yes\nu1,b,yes\nu2,a,yes\nu2,b,yes\n")
	m, _, err = runCmd(t, runAgreement, "--input", one)
	if err != nil {
		t.Fatal(err)
	}
	if m["krippendorff_alpha"] != nil || m["cohen_kappa"] != nil || m["percent_agreement"].(float64) != 1 {
		t.Errorf("degenerate output = %v", m)
	}
	if notes := m["notes"].([]any); len(notes) == 0 {
		t.Error("undefined metrics need notes")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestAgreementCommandErrors(t *testing.T) {
	bad := writeTemp(t, "bad.csv", "unit,value\nu1,1\n")
	tests := []struct {
		name string
		args []string
	}{
		{"no input", nil},
		{"unknown flag", []string{"--nope"}},
		{"missing file", []string{"--input", "/nonexistent.csv"}},
		{"bad level", []string{"--input", bad, "--level", "loud"}},
		{"bad header", []string{"--input", bad}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := runCmd(t, runAgreement, tc.args...); err == nil {
				t.Error("want an error")
			}
		})
	}
	var out, errOut bytes.Buffer
	if err := runAgreement(context.Background(), nil, &out, &errOut); !errors.Is(err, errUsage) || !strings.Contains(errOut.String(), "usage") {
		t.Errorf("usage error = %v, stderr %q", err, errOut.String())
	}
}

func TestJudgeEvalCommand(t *testing.T) {
	ref := writeTemp(t, "ref.csv", "unit,question,value\nu1,q1,yes\nu1,q2,no\nu2,q1,yes\nu2,q2,yes\nu3,q1,no\nu3,q2,no\n")
	pred := writeTemp(t, "pred.csv", "unit,question,value\nu1,q1,yes\nu1,q2,yes\nu2,q1,yes\nu2,q2,yes\nu3,q1,no\nu3,q2,no\n")
	other := writeTemp(t, "other.jsonl", `{"unit":"u1","question":"q1","value":"no"}
{"unit":"u1","question":"q2","value":"no"}
{"unit":"u2","question":"q1","value":"no"}
{"unit":"u2","question":"q2","value":"yes"}
{"unit":"u3","question":"q1","value":"no"}
{"unit":"u3","question":"q2","value":"no"}
`)
	m, _, err := runCmd(t, runJudgeEval, "--reference", ref, "--predictions", pred, "--compare", other, "--bootstrap", "100")
	if err != nil {
		t.Fatal(err)
	}
	if m["accuracy"].(float64) != 5.0/6 || m["exact_match"].(float64) != 2.0/3 || m["no_accuracy"].(float64) != 2.0/3 {
		t.Errorf("binary metrics = %v", m)
	}
	if d := m["difference"].(map[string]any)["accuracy"].(map[string]any); d["estimate"].(float64) < 0.16 {
		t.Errorf("difference = %v", d)
	}

	pref := writeTemp(t, "p.csv", "unit,a,b,value\n1,m1,m2,A\n2,m1,m3,tie\n3,m2,m3,B\n4,m1,m2,A\n")
	ppred := writeTemp(t, "pp.csv", "unit,value\n1,0.9\n2,0.1\n3,-0.7\n4,0.3\n")
	m, _, err = runCmd(t, runJudgeEval, "--reference", pref, "--predictions", ppred, "--kind", "pairwise")
	if err != nil {
		t.Fatal(err)
	}
	if m["best_three_class"].(map[string]any)["accuracy"].(float64) != 1 || m["elo"] == nil {
		t.Errorf("pairwise = %v", m)
	}

	sref := writeTemp(t, "s.csv", "unit,value\n1,1\n2,2\n3,3\n4,5\n")
	spred := writeTemp(t, "sp.csv", "unit,value\n1,2\n2,2\n3,3\n4,4\n")
	m, _, err = runCmd(t, runJudgeEval, "--reference", sref, "--predictions", spred, "--kind", "score")
	if err != nil {
		t.Fatal(err)
	}
	if m["mae"].(float64) != 0.5 || m["share_over"].(float64) != 0.25 || m["kendall_tau_b"] == nil {
		t.Errorf("score = %v", m)
	}
	if _, _, err := runCmd(t, runJudgeEval, "--reference", sref); err == nil {
		t.Error("missing --predictions accepted")
	}
}

func TestAgreementCommandMetrics(t *testing.T) {
	p := writeTemp(t, "k.csv", krippendorffCSV)
	m, _, err := runCmd(t, runAgreement, "--input", p, "--level", "ordinal", "--metrics", "alpha,fleiss")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"fleiss_kappa", "krippendorff_alpha", "level", "n_categories", "n_pairable_units", "n_raters", "n_ratings", "n_units", "notes"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys = %v, want %v", keys, want)
	}
	if a := m["krippendorff_alpha"].(float64); int(a*1000+0.5) != 815 {
		t.Errorf("ordinal alpha = %v, want .815", a)
	}

	var out, errOut bytes.Buffer
	err = runAgreement(context.Background(), []string{"--input", p, "--metrics", "alpha,kappa"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), `"kappa"`) || !strings.Contains(err.Error(), "alpha, percent, fleiss, scott") {
		t.Errorf("unknown metric: error %v, want one naming it and the valid metrics", err)
	}
	if out.Len() != 0 {
		t.Errorf("output despite the error: %s", out.String())
	}
}

// ratingsCSV generates a ratings file: units × 5 raters, values 1..7, about
// a fifth of the ratings missing (as empty values or absent rows), CRLF line
// ends, and, when scatter is set, each unit's rows spread over the file.
func ratingsCSV(units int, scatter bool) string {
	rng := rand.New(rand.NewPCG(uint64(units), 17))
	var rows []string
	for u := range units {
		truth := 1 + rng.IntN(7)
		for r := range 5 {
			v := fmt.Sprint(max(1, min(7, truth+rng.IntN(3)-1)))
			switch rng.IntN(10) {
			case 0:
				v = ""
			case 1:
				continue
			}
			rows = append(rows, fmt.Sprintf("item-%d,rater-%d,%s\r\n", u, r, v))
		}
	}
	if scatter {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	}
	return "unit,rater,value\r\n" + strings.Join(rows, "")
}

// TestAgreementAlphaOnlyEqualsFullReport runs the command with --metrics
// alpha and without on inputs with missing data, at every level, and
// requires the alpha-only output to be the full report's alpha (and counts
// and interval), bit for bit, and nothing else.
func TestAgreementAlphaOnlyEqualsFullReport(t *testing.T) {
	quoted := strings.Replace(ratingsCSV(300, false), "item-150,", `"item-150",`, -1)
	inputs := map[string]string{
		"krippendorff 2011": writeTemp(t, "k.csv", krippendorffCSV),
		"units together":    writeTemp(t, "together.csv", ratingsCSV(400, false)),
		"units scattered":   writeTemp(t, "scattered.csv", ratingsCSV(400, true)),
		"quoted rows":       writeTemp(t, "quoted.csv", quoted),
	}
	header := []string{"level", "n_ratings", "n_units", "n_raters", "n_categories", "n_pairable_units"}
	for name, path := range inputs {
		for _, level := range []string{"nominal", "ordinal", "interval", "ratio"} {
			args := []string{"--input", path, "--level", level, "--bootstrap", "40", "--seed", "5"}
			full, _, err := runCmd(t, runAgreement, args...)
			if err != nil {
				t.Fatalf("%s %s: %v", name, level, err)
			}
			alpha, _, err := runCmd(t, runAgreement, append(args, "--metrics", "alpha")...)
			if err != nil {
				t.Fatalf("%s %s --metrics alpha: %v", name, level, err)
			}
			if _, ok := full["krippendorff_alpha"].(float64); !ok {
				t.Fatalf("%s %s: alpha = %v", name, level, full["krippendorff_alpha"])
			}
			for _, k := range append(header, "krippendorff_alpha") {
				if a, f := mustJSON(alpha[k]), mustJSON(full[k]); a != f {
					t.Errorf("%s %s: %s = %s alone, %s in the full report", name, level, k, a, f)
				}
			}
			ci := func(m map[string]any) string { return mustJSON(m["ci95"].(map[string]any)["krippendorff_alpha"]) }
			if ci(alpha) != ci(full) {
				t.Errorf("%s %s: alpha interval %s alone, %s in the full report", name, level, ci(alpha), ci(full))
			}
			if len(alpha) != len(header)+3 { // + krippendorff_alpha, ci95, notes
				t.Errorf("%s %s: alpha-only output has keys beyond alpha: %v", name, level, alpha)
			}
		}
	}
}
