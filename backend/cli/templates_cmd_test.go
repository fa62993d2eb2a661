package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/tasks"
)

func runTemplatesCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := runTemplates(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), err
}

func writeAnswersFile(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTemplatesList(t *testing.T) {
	out, _, err := runTemplatesCmd(t, "list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(tasks.Templates()) {
		t.Fatalf("%d lines for %d templates", len(lines), len(tasks.Templates()))
	}
	for _, want := range []string{"d3omni-t2i", "d3omni-t2v", "d3omni-tts", "robojudge", "judgeanything-score",
		"judgeanything-pair", "omnireward-pair", "storybench-text", "storybench-image", "storybench-speech",
		"storybench-integrated", "pairwise-preference", "likert-rating", "binary-checklist"} {
		if !strings.Contains(out, want+" ") {
			t.Errorf("list lacks %s", want)
		}
	}
	if f := strings.Fields(lines[1]); f[0] != "d3omni-t2i" || f[len(f)-1] != "17" {
		t.Errorf("line %q: want id first and question count last", lines[1])
	}
}

func TestTemplatesShow(t *testing.T) {
	out, _, err := runTemplatesCmd(t, "show", "d3omni-tts")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		ID, Name, Description, Guidelines string
		Schema                            tasks.Schema
		Samples                           []tasks.Item
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.ID != "d3omni-tts" || got.Name == "" || got.Guidelines == "" || len(got.Schema.Questions) != 14 || len(got.Samples) < 2 {
		t.Errorf("show = %+v", got)
	}
	if _, _, err := runTemplatesCmd(t, "show", "nope"); err == nil || !strings.Contains(err.Error(), "unknown template") {
		t.Errorf("unknown id: %v", err)
	}
}

func TestTemplatesValidate(t *testing.T) {
	tpl, _ := tasks.LookupTemplate("robojudge")
	valid := tpl.Schema.ExampleAnswers()
	or, _ := tasks.LookupTemplate("omnireward-pair")
	criteria, _ := or.Form("criteria")
	tests := []struct {
		name     string
		args     func(file string) []string
		answers  any
		wantErr  error
		contains []string
	}{
		{"valid", func(f string) []string { return []string{"validate", "robojudge", "--answers", f} }, valid, nil, []string{`"valid": true`}},
		{"flags first", func(f string) []string { return []string{"validate", "--answers", f, "robojudge"} }, valid, nil, []string{`"valid": true`}},
		{"wrapped", func(f string) []string { return []string{"validate", "robojudge", "--answers", f} }, map[string]any{"answers": valid}, nil, []string{`"valid": true`}},
		{"invalid", func(f string) []string { return []string{"validate", "robojudge", "--answers", f} },
			map[string]any{"physical_adherence": 9, "bogus": 1}, errInvalidAnswers,
			[]string{`"valid": false`, `"physical_adherence": {`, `"out_of_range"`, `"unknown_question"`, `"ia_evidence": {`, `"required"`}},
		{"form", func(f string) []string {
			return []string{"validate", "omnireward-pair", "--form", "criteria", "--answers", f}
		},
			criteria.Schema.ExampleAnswers(), nil, []string{`"valid": true`}},
		{"missing answers flag", func(string) []string { return []string{"validate", "robojudge"} }, nil, errUsage, nil},
		{"unknown sub-command", func(string) []string { return []string{"frobnicate"} }, nil, errUsage, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runTemplatesCmd(t, tt.args(writeAnswersFile(t, tt.answers))...)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			for _, c := range tt.contains {
				if !strings.Contains(out, c) {
					t.Errorf("output lacks %s:\n%s", c, out)
				}
			}
		})
	}
}

func TestTemplatesValidateBadInput(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(p, []byte(`[1, 2]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runTemplatesCmd(t, "validate", "robojudge", "--answers", p); err == nil || errors.Is(err, errInvalidAnswers) {
		t.Errorf("non-object answers: %v", err)
	}
	if _, _, err := runTemplatesCmd(t, "validate", "robojudge", "--answers", p+".missing"); err == nil {
		t.Error("missing file accepted")
	}
}

func TestTemplatesExitCodes(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"templates", "list"}, &out, &errOut); code != 0 {
		t.Errorf("list exit %d", code)
	}
	f := writeAnswersFile(t, map[string]any{"physical_adherence": "high"})
	if code := Main([]string{"templates", "validate", "robojudge", "--answers", f}, &out, &errOut); code == 0 {
		t.Error("invalid answers exit 0")
	}
}
