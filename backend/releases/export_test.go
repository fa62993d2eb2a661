package releases

import (
	"context"
	"time"
)

// SetClock sets the service's clock, for tests of what expires.
func SetClock(s *Service, now func() time.Time) { s.now = now }

// Salt returns the pseudonym salt of a project's releases.
func Salt(ctx context.Context, s *Service, projectID string) ([]byte, error) {
	return s.salt(ctx, projectID)
}
