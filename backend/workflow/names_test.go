package workflow_test

import (
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

func TestCheckName(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"  Sunset study ", "Sunset study", true},
		{strings.Repeat("n", 200), strings.Repeat("n", 200), true},
		{"   ", "", false},
		{"", "", false},
		{strings.Repeat("n", 201), strings.Repeat("n", 201), false},
	}
	for _, tc := range cases {
		fe := tasks.FieldErrors{}
		got := workflow.CheckName(fe, "name", tc.in)
		if got != tc.want || (len(fe) == 0) != tc.ok || (!tc.ok && fe["name"].Code != "invalid_length") {
			t.Errorf("CheckName(%q) = %q %v", tc.in, got, fe)
		}
	}
}
