package releases

import "time"

// SetClock sets the service's clock, for tests of what expires.
func SetClock(s *Service, now func() time.Time) { s.now = now }
