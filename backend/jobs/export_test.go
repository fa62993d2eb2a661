package jobs

import (
	"context"
	"time"
)

// Freeze makes r behave as a replica whose process stopped: the jobs it runs hang where they
// are and their leases are no longer renewed, it takes no new job and rescues none. thaw lets
// the process go on, as a stopped process that is continued: its jobs renew their leases again
// and find them lost. r stops once its hung jobs end.
func Freeze(r Runner) (thaw func()) {
	s := r.(interface{ freeze() func() })
	return s.freeze()
}

func (s *split[TTx]) freeze() func() {
	w := s.workers
	w.leases.frozen.Store(true)
	w.reaper.frozen.Store(true)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		w.client.Stop(ctx) // note: no new job; returns once the hung jobs end
	}()
	return func() { w.leases.frozen.Store(false) }
}
