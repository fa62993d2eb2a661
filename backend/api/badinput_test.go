package api_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestLinesAfterOverLongLine: a line over the limit is reported and every line after it is
// still imported; the report counts them all.
func TestLinesAfterOverLongLine(t *testing.T) {
	e := newEnv(t, openSQLite, func(o *options) { o.maxUpload = 64 << 20 })
	pid := robojudgeProject(t, e.admin, nil)
	huge := `{"external_id":"huge","inputs":{"instruction":"` + strings.Repeat("x", 17<<20) + `"}}`
	body := strings.Join([]string{robojudgeLine("l-1", "g"), huge, robojudgeLine("l-3", "g"), robojudgeLine("l-4", "g")}, "\n")
	var rep struct {
		Lines, Imported int
		Errors          []struct{ Line int }
	}
	status, out := e.admin.do("POST", "/api/v1/projects/"+pid+"/items", body, "Content-Type", "application/x-ndjson")
	if status != 200 || jsonUnmarshal(out, &rep) != nil {
		t.Fatalf("import: %d %.300s", status, out)
	}
	if rep.Lines != 4 || rep.Imported != 3 || len(rep.Errors) != 1 || rep.Errors[0].Line != 2 {
		t.Fatalf("report %+v", rep)
	}
}

// TestInvalidTextRefused: invalid UTF-8 and NUL are refused at the boundary with the field or
// line named, on both databases alike, and an import with such a line reports it and keeps the
// rest.
func TestInvalidTextRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		for _, tc := range []struct {
			method, path, body, field string
		}{
			{"POST", "/api/v1/projects", `{"name":"a\u0000b"}`, "name"},
			{"POST", "/api/v1/projects", "{\"name\":\"ok\",\"description\":\"\xff\xfe\"}", "description"},
			{"POST", "/api/v1/users", `{"email":"n@example.org","name":"N\u0000","password":"long-enough-password"}`, "name"},
		} {
			status, body := e.admin.do(tc.method, tc.path, tc.body)
			if status != 422 || !strings.Contains(string(body), `"`+tc.field+`":{"code":"invalid_text"`) {
				t.Errorf("%s %s %q: %d %s", tc.method, tc.path, tc.body, status, body)
			}
		}
		pid := robojudgeProject(t, e.admin, map[string]any{"overlap": 1})
		lines := make([]string, 1200)
		for i := range lines {
			lines[i] = robojudgeLine(fmt.Sprintf("t-%04d", i+1), "g")
		}
		lines[600] = "{\"external_id\":\"t-0601\",\"inputs\":{\"instruction\":\"bad \xc3\x28 text\",\"video\":\"media/robot_rollout.mp4\",\"first_frame\":\"media/robot_first_frame.png\",\"generator\":\"g\"}}"
		var rep struct {
			Lines, Imported int
			Errors          []struct {
				Line    int
				Details map[string]struct{ Code string }
			}
		}
		status, out := e.admin.do("POST", "/api/v1/projects/"+pid+"/items", strings.Join(lines, "\n"), "Content-Type", "application/x-ndjson")
		if status != 200 || jsonUnmarshal(out, &rep) != nil {
			t.Fatalf("import: %d %.300s", status, out)
		}
		if rep.Lines != 1200 || rep.Imported != 1199 || len(rep.Errors) != 1 || rep.Errors[0].Line != 601 ||
			rep.Errors[0].Details["inputs.instruction"].Code != "invalid_text" {
			t.Fatalf("report %+v", rep)
		}
		e.admin.member(pid, e.admin, "lead", "annotator")
		c := e.admin.next(pid, "label")
		status, body := e.admin.do("POST", "/api/v1/projects/"+pid+"/assignments/"+c.Assignment.ID+"/submit",
			`{"answers":{"physical_adherence":3,"instruction_alignment":3,"evidence":"seen \u0000"}}`)
		if status != 422 || !strings.Contains(string(body), `"answers.evidence"`) {
			t.Fatalf("answers with NUL: %d %s", status, body)
		}
	})
}
