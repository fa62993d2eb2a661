package releases

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// releaseHeadroom is the memory one release job may add to what the server held when the job
// started before the garbage collector works harder to stay under it.
const releaseHeadroom = 48 << 20

// jobMemoryT is the soft memory limit the running release jobs set.
type jobMemoryT struct {
	sync.Mutex
	jobs  int
	base  int64
	prev  int64
	owned bool
}

var jobMemory jobMemoryT

// limitMemory sets a soft memory limit on the process while release jobs run: the memory the
// server holds when the first job starts plus releaseHeadroom per running job. A limit the
// operator set (GOMEMLIMIT) is left alone. The returned function lifts the job's share.
//
// note: the limit is soft; near it the collector runs more often (at most half the CPU, as
// the runtime caps it), it never fails an allocation.
func limitMemory() (release func()) {
	m := &jobMemory
	m.Lock()
	defer m.Unlock()
	if m.jobs == 0 {
		m.prev = debug.SetMemoryLimit(-1)
		m.owned = m.prev == math.MaxInt64
		m.base = goMemory()
	}
	m.jobs++
	m.apply()
	return func() {
		m.Lock()
		defer m.Unlock()
		m.jobs--
		m.apply()
	}
}

// apply sets the limit for the running jobs, or restores the one before them; m is locked.
func (m *jobMemoryT) apply() {
	switch {
	case !m.owned:
	case m.jobs == 0:
		debug.SetMemoryLimit(m.prev)
	default:
		debug.SetMemoryLimit(m.base + int64(m.jobs)*releaseHeadroom)
	}
}

// goMemory is the memory the Go runtime holds from the OS and has not returned.
func goMemory() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}
