package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/tasks"
)

func TestTemplates(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	u := e.newUser("ann@example.org", false)
	var list []struct {
		ID            string `json:"id"`
		QuestionCount int    `json:"question_count"`
	}
	u.must("GET", "/api/v1/templates", nil, 200, &list)
	if len(list) != len(tasks.Templates()) || len(list) == 0 {
		t.Fatalf("listed %d templates, the package has %d", len(list), len(tasks.Templates()))
	}
	byID := map[string]int{}
	for _, l := range list {
		byID[l.ID] = l.QuestionCount
	}
	if byID["d3omni-t2i"] != 17 {
		t.Fatalf("d3omni-t2i has %d questions, want 17", byID["d3omni-t2i"])
	}
	tpl, _ := tasks.LookupTemplate("d3omni-t2i")
	first := tpl.Schema.Questions[0].Key
	valid := tasks.Answers{}
	for _, q := range tpl.Schema.Questions {
		valid[q.Key] = json.RawMessage(`"yes"`)
	}
	runScenarios(t, e, []scenario{
		{name: "show", as: u, method: "GET", path: "/api/v1/templates/d3omni-t2i", status: 200, contains: []string{`"schema"`, `"samples"`, first}},
		{name: "unknown template", as: u, method: "GET", path: "/api/v1/templates/nope", status: 404, code: "not_found"},
		{name: "anonymous", method: "GET", path: "/api/v1/templates", status: 401, code: "unauthorized"},
		{name: "valid answers", as: u, method: "POST", path: "/api/v1/templates/d3omni-t2i/validate", body: map[string]any{"answers": valid}, status: 200, contains: []string{`"valid":true`}},
		{name: "missing answers name their keys", as: u, method: "POST", path: "/api/v1/templates/d3omni-t2i/validate", body: map[string]any{"answers": map[string]any{first: "maybe"}}, status: 422, code: "validation_failed",
			contains: []string{`"` + first + `":{"code":`, `"` + tpl.Schema.Questions[1].Key + `":{"code":"required"`}},
		{name: "malformed", as: u, method: "POST", path: "/api/v1/templates/d3omni-t2i/validate", body: `{"answers": [`, status: 400, code: "invalid_json"},
	})
	for _, s := range tpl.Samples {
		for _, raw := range s.Inputs {
			var ref struct{ URL string }
			if json.Unmarshal(raw, &ref) == nil && ref.URL != "" || json.Unmarshal(raw, &ref.URL) == nil && len(ref.URL) > 6 && ref.URL[:6] == "media/" {
				resp, err := http.Get(e.srv.URL + "/template-media/" + ref.URL)
				if err != nil || resp.StatusCode != 200 {
					t.Fatalf("sample media %s: %v %v", ref.URL, resp.StatusCode, err)
				}
				resp.Body.Close()
				return
			}
		}
	}
	t.Fatal("no sample media found to fetch")
}
