package workflow_test

import (
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// TestItemLanguage: an item's tag is stored canonical; a project that names its languages takes
// only items in one of them (or under one) and refuses items without a language.
func TestItemLanguage(t *testing.T) {
	open := &workflow.Project{}
	named := &workflow.Project{Policy: workflow.Policy{Languages: []string{"en", "zh-Hans"}}}
	cases := []struct {
		name string
		p    *workflow.Project
		tag  string
		want string
		code string // the refusal's code on field language
	}{
		{"no language, none named", open, " ", "", ""},
		{"canonical form", open, "EN-us", "en-US", ""},
		{"malformed", open, "not a tag!", "", "invalid_language"},
		{"one of the project's", named, "en", "en", ""},
		{"under one of the project's", named, "zh-Hans-CN", "zh-Hans-CN", ""},
		{"not one of the project's", named, "fr", "", "language_not_allowed"},
		{"missing where the project names languages", named, "", "", "required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.p.ItemLanguage(tc.tag)
			if tc.code != "" {
				wantField(t, err, "language", tc.code)
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ItemLanguage(%q) = %q %v, want %q", tc.tag, got, err, tc.want)
			}
		})
	}
}
