package auth

import (
	"context"
	"errors"
	"time"
)

// ErrBusy says that the server is hashing as many passwords as its memory budget allows; the
// client tries again in a moment.
var ErrBusy = errors.New("too many sign-ins at once; try again in a moment")

// hashMemory is what one Argon2id hash takes.
const hashMemory = argonMemoryKiB * 1024

// DefaultHashMemory is the memory password hashing may take at once: 256 MiB, 13 hashes.
const DefaultHashMemory = 256 << 20

// hashWait is how long a hash waits for room before it is refused.
const hashWait = time.Second

// hashGate bounds concurrent password hashing to a memory budget: each Argon2id hash holds 19
// MiB while it runs, so a burst of logins could otherwise take gigabytes.
type hashGate struct{ slots chan struct{} }

func newHashGate(budget int64) *hashGate {
	n := max(1, budget/hashMemory)
	return &hashGate{slots: make(chan struct{}, n)}
}

// do runs f when there is room within hashWait, else answers ErrBusy.
func (g *hashGate) do(ctx context.Context, f func() error) error {
	t := time.NewTimer(hashWait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
	case <-t.C:
		return ErrBusy
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-g.slots }()
	return f()
}

// hashPassword is HashPassword within the memory budget.
func (s *Sessions) hashPassword(ctx context.Context, password string) (string, error) {
	var hash string
	err := s.hashing.do(ctx, func() error {
		var err error
		hash, err = HashPassword(password)
		return err
	})
	return hash, err
}

// checkPassword is CheckPassword within the memory budget; a refusal for lack of room is
// ErrBusy, never a mismatch.
func (s *Sessions) checkPassword(ctx context.Context, hash, password string) (match bool, err error) {
	err = s.hashing.do(ctx, func() error {
		match = CheckPassword(hash, password) == nil
		return nil
	})
	return match, err
}
