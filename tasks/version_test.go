package tasks

import (
	"slices"
	"testing"
)

func TestContentHashAndNeedsNewVersion(t *testing.T) {
	a, b := kitchenSink(), kitchenSink()
	b.Version = 7
	if a.ContentHash() != b.ContentHash() {
		t.Error("version number changed the content hash")
	}
	b.Format = FormatVersion
	if a.ContentHash() != b.ContentHash() {
		t.Error("explicit format changed the content hash")
	}
	if len(a.ContentHash()) != 64 {
		t.Errorf("hash %q is not hex sha256", a.ContentHash())
	}
	c := kitchenSink()
	c.Questions[2].Help = "new guideline"
	tests := []struct {
		name string
		next Schema
		ann  bool
		want bool
	}{
		{"same, annotated", b, true, false},
		{"changed, annotated", c, true, true},
		{"changed, not annotated", c, false, false},
	}
	for _, tt := range tests {
		if got := NeedsNewVersion(&a, &tt.next, tt.ann); got != tt.want {
			t.Errorf("%s: got %v", tt.name, got)
		}
	}
	if got := Changes(&a, &c); !slices.Equal(got, []string{"questions[2]"}) {
		t.Errorf("Changes = %v", got)
	}
	if got := Changes(&a, &b); len(got) != 0 {
		t.Errorf("Changes(same) = %v", got)
	}
}
