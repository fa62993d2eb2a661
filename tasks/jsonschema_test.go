package tasks

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// miniSchema checks a document against the subset of JSON Schema 2020-12
// that docs/task-schema.json uses. It is small on purpose: enough to keep
// the published schema honest without a dependency.
type miniSchema struct {
	root map[string]any
}

func (m miniSchema) validate(node any, doc any, path string) []string {
	s, ok := node.(map[string]any)
	if !ok {
		return nil // true / false schemas are not used
	}
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := s["$ref"].(string); ok {
		errs = append(errs, m.validate(m.resolve(ref), doc, path)...)
	}
	if t, ok := s["type"].(string); ok && !hasType(doc, t) {
		fail("want %s", t)
		return errs
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(v any) bool { return equalJSON(v, doc) }) {
		fail("%v not in enum", doc)
	}
	if c, ok := s["const"]; ok && !equalJSON(c, doc) {
		fail("want const %v", c)
	}
	errs = append(errs, m.scalar(s, doc, fail)...)
	errs = append(errs, m.object(s, doc, path)...)
	errs = append(errs, m.array(s, doc, path)...)
	errs = append(errs, m.combinators(s, doc, path)...)
	return errs
}

func (m miniSchema) resolve(ref string) any {
	var node any = m.root
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		node = node.(map[string]any)[part]
	}
	return node
}

func hasType(doc any, t string) bool {
	switch t {
	case "object":
		_, ok := doc.(map[string]any)
		return ok
	case "array":
		_, ok := doc.([]any)
		return ok
	case "string":
		_, ok := doc.(string)
		return ok
	case "boolean":
		_, ok := doc.(bool)
		return ok
	case "integer":
		f, ok := doc.(float64)
		return ok && f == math.Trunc(f)
	case "number":
		_, ok := doc.(float64)
		return ok
	}
	panic("unsupported type " + t)
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func (m miniSchema) scalar(s map[string]any, doc any, fail func(string, ...any)) []string {
	if f, ok := doc.(float64); ok {
		if lo, ok := s["minimum"].(float64); ok && f < lo {
			fail("%v below minimum %v", f, lo)
		}
		if hi, ok := s["maximum"].(float64); ok && f > hi {
			fail("%v above maximum %v", f, hi)
		}
	}
	if str, ok := doc.(string); ok {
		if n, ok := s["minLength"].(float64); ok && float64(len([]rune(str))) < n {
			fail("shorter than %v", n)
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			fail("%q does not match %s", str, p)
		}
	}
	return nil
}

func (m miniSchema) object(s map[string]any, doc any, path string) []string {
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	var errs []string
	for _, r := range asSlice(s["required"]) {
		if _, ok := obj[r.(string)]; !ok {
			errs = append(errs, fmt.Sprintf("%s: missing %s", path, r))
		}
	}
	props, _ := s["properties"].(map[string]any)
	for k, v := range obj {
		if p, ok := props[k]; ok {
			errs = append(errs, m.validate(p, v, path+"."+k)...)
		} else if s["additionalProperties"] == false {
			errs = append(errs, fmt.Sprintf("%s: unexpected property %s", path, k))
		}
	}
	return errs
}

func (m miniSchema) array(s map[string]any, doc any, path string) []string {
	arr, ok := doc.([]any)
	if !ok {
		return nil
	}
	var errs []string
	if n, ok := s["minItems"].(float64); ok && float64(len(arr)) < n {
		errs = append(errs, fmt.Sprintf("%s: fewer than %v items", path, n))
	}
	if n, ok := s["maxItems"].(float64); ok && float64(len(arr)) > n {
		errs = append(errs, fmt.Sprintf("%s: more than %v items", path, n))
	}
	if items, ok := s["items"]; ok {
		for i, v := range arr {
			errs = append(errs, m.validate(items, v, fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return errs
}

func (m miniSchema) combinators(s map[string]any, doc any, path string) []string {
	var errs []string
	for _, sub := range asSlice(s["allOf"]) {
		errs = append(errs, m.validate(sub, doc, path)...)
	}
	if alts := asSlice(s["anyOf"]); len(alts) > 0 && !slices.ContainsFunc(alts, func(sub any) bool { return len(m.validate(sub, doc, path)) == 0 }) {
		errs = append(errs, path+": matches none of anyOf")
	}
	if not, ok := s["not"]; ok && len(m.validate(not, doc, path)) == 0 {
		errs = append(errs, path+": matches a forbidden schema")
	}
	if cond, ok := s["if"]; ok && len(m.validate(cond, doc, path)) == 0 {
		if then, ok := s["then"]; ok {
			errs = append(errs, m.validate(then, doc, path)...)
		}
	}
	return errs
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

func loadPublishedSchema(t *testing.T) (miniSchema, []byte) {
	t.Helper()
	b, err := os.ReadFile("../docs/task-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatalf("docs/task-schema.json does not parse: %v", err)
	}
	return miniSchema{root}, b
}

func checkPublished(m miniSchema, s Schema) []string {
	b, _ := json.Marshal(s)
	var doc any
	_ = json.Unmarshal(b, &doc)
	return m.validate(m.root, doc, "$")
}

func TestPublishedJSONSchema(t *testing.T) {
	m, raw := loadPublishedSchema(t)
	if m.root["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", m.root["$schema"])
	}
	for _, k := range Kinds {
		if !strings.Contains(string(raw), `"`+string(k)+`"`) {
			t.Errorf("kind %s is not in the JSON Schema", k)
		}
	}
	for _, it := range InputTypes {
		if !strings.Contains(string(raw), `"`+string(it)+`"`) {
			t.Errorf("input type %s is not in the JSON Schema", it)
		}
	}
	for _, tpl := range Templates() {
		for _, f := range allForms(tpl) {
			if errs := checkPublished(m, f.Schema); len(errs) > 0 {
				t.Errorf("%s/%s: %v", tpl.ID, f.Key, errs)
			}
		}
	}
	if errs := checkPublished(m, kitchenSink()); len(errs) > 0 {
		t.Errorf("kitchen sink: %v", errs)
	}
}

// TestPublishedJSONSchemaRejects checks that the JSON Schema rejects what
// Validate rejects, where JSON Schema can express the rule.
func TestPublishedJSONSchemaRejects(t *testing.T) {
	m, _ := loadPublishedSchema(t)
	tests := map[string]func(s *Schema){
		"unknown kind":       func(s *Schema) { s.Questions[0].Kind = "slider" },
		"anchors on binary":  func(s *Schema) { s.Questions[0].Anchors = []Anchor{{1, "x"}} },
		"likert without max": func(s *Schema) { s.Questions[2].Max = nil },
		"tie on ranking":     func(s *Schema) { s.Questions[8].AllowTie = true },
		"bad key":            func(s *Schema) { s.Questions[1].Key = "Bad Key" },
		"bad input type":     func(s *Schema) { s.Inputs[0].Type = "pdf" },
		"version 0":          func(s *Schema) { s.Version = 0 },
		"checklist max 0":    func(s *Schema) { s.Questions[9].Items[0].Max = 0 },
		"one option":         func(s *Schema) { s.Questions[4].Options = s.Questions[4].Options[:1] },
		"bad role":           func(s *Schema) { s.Inputs[1].VisibleTo = []Role{"boss"} },
	}
	for name, mutate := range tests {
		s := kitchenSink()
		mutate(&s)
		if s.Validate() == nil {
			t.Errorf("%s: Validate accepted it", name)
		}
		if len(checkPublished(m, s)) == 0 {
			t.Errorf("%s: JSON Schema accepted it", name)
		}
	}
}
