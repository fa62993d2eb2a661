package workflow

import "time"

// SetClock replaces the service's clock, so that tests can move time past a lease.
func (s *Service) SetClock(now func() time.Time) { s.now = now }
