package tasks

import (
	"slices"
	"testing"
)

func TestContentHash(t *testing.T) {
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
	if a.ContentHash() == c.ContentHash() {
		t.Error("changed help text kept the content hash")
	}
	if got := Changes(&a, &c); !slices.Equal(got, []string{"questions[2]"}) {
		t.Errorf("Changes = %v", got)
	}
	if got := Changes(&a, &b); len(got) != 0 {
		t.Errorf("Changes(same) = %v", got)
	}
}
