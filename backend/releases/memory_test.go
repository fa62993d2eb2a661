package releases

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestLimitMemory: running jobs set a soft limit above what the process held, a second job
// raises it, and the last one to end restores the limit before them.
func TestLimitMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	first := limitMemory()
	one := debug.SetMemoryLimit(-1)
	second := limitMemory()
	two := debug.SetMemoryLimit(-1)
	second()
	if back := debug.SetMemoryLimit(-1); back != one {
		t.Fatalf("after one of two jobs the limit is %d, want %d", back, one)
	}
	first()
	after := debug.SetMemoryLimit(-1)
	if before == math.MaxInt64 && (one <= goMemory()-releaseHeadroom || two != one+releaseHeadroom) {
		t.Fatalf("limits %d, %d for a process holding %d", one, two, goMemory())
	}
	if after != before {
		t.Fatalf("the limit after the jobs is %d, was %d", after, before)
	}
}
