package api_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/exports"
)

// TestFormats serves the export formats to any caller holding the read scope, exactly as the
// exports package lists them.
func TestFormats(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	ann := e.newUser("ann@example.org", false)
	token := func(scope string) *client {
		var tok struct{ Token string }
		ann.must("POST", "/api/v1/me/tokens", map[string]any{"name": scope, "scopes": []string{scope}}, 201, &tok)
		return &client{e: e, user: ann.user, token: tok.Token}
	}
	runScenarios(t, e, []scenario{
		{name: "a member of no project", as: ann, method: "GET", path: "/api/v1/formats", status: 200,
			contains: []string{`"name":"jsonl"`, `"name":"hf","description":`, `"options":["row_group_rows"]`, `"options":["ties"]`}},
		{name: "a read token", as: token("read"), method: "GET", path: "/api/v1/formats", status: 200, contains: []string{`"name":"storybench"`}},
		{name: "an annotate token", as: token("annotate"), method: "GET", path: "/api/v1/formats", status: 403, code: "insufficient_scope", notContain: []string{"jsonl"}},
		{name: "anonymous", method: "GET", path: "/api/v1/formats", status: 401, code: "unauthorized", notContain: []string{"jsonl"}},
		{name: "not a write route", as: ann, method: "POST", path: "/api/v1/formats", body: map[string]any{}, status: 405, code: "method_not_allowed"},
	})
	var got struct{ Formats []exports.FormatInfo }
	ann.must("GET", "/api/v1/formats", nil, 200, &got)
	if want := exports.Formats(); !reflect.DeepEqual(got.Formats, want) {
		t.Fatalf("GET /api/v1/formats answered\n%+v\nwant exports.Formats()\n%+v", got.Formats, want)
	}
}

// TestOpenAPIExportFormats holds the contract's ExportFormat enum to exports.FormatNames():
// the same names in the same order, so a format added to the exports package is documented.
func TestOpenAPIExportFormats(t *testing.T) {
	schemas, _ := loadSpec(t)["components"].(map[string]any)["schemas"].(map[string]any)
	format, _ := schemas["ExportFormat"].(map[string]any)
	values, _ := format["enum"].([]any)
	var enum []string
	for _, v := range values {
		name, _ := v.(string)
		enum = append(enum, name)
	}
	if want := exports.FormatNames(); !reflect.DeepEqual(enum, want) {
		t.Fatalf("docs/openapi.yaml components.schemas.ExportFormat.enum is %v; exports.FormatNames() is %v", enum, want)
	}
}

// TestReadmeNamesEveryFormat checks the README's list of formats (under "Releasing") against
// exports.FormatNames(): every name in backticks, in the same order.
func TestReadmeNamesEveryFormat(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Releasing\n")
	if !ok {
		t.Fatal(`README.md has no "## Releasing" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	at := 0
	for _, name := range exports.FormatNames() {
		i := strings.Index(section[at:], "`"+name+"`")
		if i < 0 {
			t.Fatalf("README.md's Releasing section does not name the format `%s` after the formats before it (%s)",
				name, strings.Join(exports.FormatNames(), ", "))
		}
		at += i
	}
}
