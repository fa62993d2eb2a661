package workflow

import (
	"sync"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// openWorkCap bounds the assignments a replica remembers; when full it forgets them all (an
// autosave of one it forgot reads it again).
const openWorkCap = 8192

// openWork remembers the assignments this replica handed out or saved, each as it stood at
// its version, so that an autosave at that version need not read the assignment again.
//
// note: safe across replicas and concurrent changes because nothing is trusted beyond its
// version: what an autosave checks or derives from a remembered assignment (its project,
// person, stage and round, the shown order, its pass and draft) is written only at creation or
// with a new version, and the save's write takes effect only while the row is active, the
// person's, and still at that version. Anything else (a miss, another version) reads the row.
type openWork struct {
	mu sync.Mutex
	m  map[string]store.Assignment
}

// at returns the remembered assignment if it is at version.
func (o *openWork) at(id string, version int) (*store.Assignment, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	a, ok := o.m[id]
	if !ok || a.Version != version {
		return nil, false
	}
	return &a, true
}

// keep remembers an assignment as it stands now (a copy).
func (o *openWork) keep(a *store.Assignment) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil || len(o.m) >= openWorkCap {
		o.m = make(map[string]store.Assignment)
	}
	o.m[a.ID] = *a
}

// forget drops an assignment: submitted, skipped, or found changed.
func (o *openWork) forget(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.m, id)
}
