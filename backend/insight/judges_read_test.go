package insight

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestValueCodesKeepBounded: answers documents that never repeat (a free-text rationale each)
// are kept only up to the byte budget, repeated ones are answered from the kept codes, and
// every document gets its codes either way.
func TestValueCodesKeepBounded(t *testing.T) {
	qs := []tasks.Question{{Key: "ok", Kind: tasks.KindBinary}}
	vc := newValueCodes()
	var dst []int32
	pad := strings.Repeat("x", 2000)
	for i := range 20000 {
		dst = vc.appendAnswers(dst, qs, fmt.Appendf(nil, `{"ok":"yes","why":"%s %d"}`, pad, i))
	}
	if vc.kept > maxKeptBytes || len(vc.docs) == 0 || len(vc.docs) > maxKeptBytes/2000 {
		t.Fatalf("kept %d documents, %d bytes (budget %d)", len(vc.docs), vc.kept, maxKeptBytes)
	}
	if len(dst) != 20000 || len(vc.names) != 1 {
		t.Fatalf("%d codes, values %q", len(dst), vc.names)
	}
	for i, c := range dst {
		if c != dst[0] {
			t.Fatalf("document %d: code %d, want %d", i, c, dst[0])
		}
	}
	first := fmt.Appendf(nil, `{"ok":"yes","why":"%s %d"}`, pad, 0)
	if _, ok := vc.docs[string(first)]; !ok {
		t.Fatal("the first document was not kept")
	}
	vc.forget()
	if got := vc.appendAnswers(nil, qs, first); len(got) != 1 || got[0] != dst[0] || vc.docs != nil {
		t.Fatalf("after forget: %v, docs %v", got, vc.docs)
	}
}
