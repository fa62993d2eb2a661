package auth

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// clock is the time the session service sees: the real time, or some way after it. Failures
// are stamped by the store with the real time, so set(0) is "just after the newest failure"
// and set(d) is d later.
type clock struct{ ahead time.Duration }

func (c *clock) now() time.Time      { return time.Now().Add(c.ahead) }
func (c *clock) set(d time.Duration) { c.ahead = d }
func withClock(s *Sessions, l Limits) *clock {
	c := &clock{}
	s.now, s.limits = c.now, l
	return c
}

// wrong tries a wrong password.
func wrong(s *Sessions, email, addr string) error {
	_, err := s.Login(context.Background(), email, "not the password", addr)
	return err
}

// throttled asserts that err is a ThrottledError of the scope, with a wait near want.
func throttled(t *testing.T, err error, scope string, failures int, want time.Duration) {
	t.Helper()
	var te *ThrottledError
	if !errors.As(err, &te) || te.Scope != scope || te.Failures != failures {
		t.Fatalf("%v, want refused by %s after %d failures", err, scope, failures)
	}
	if te.RetryAfter <= want-5*time.Second || te.RetryAfter > want {
		t.Fatalf("retry after %v, want about %v", te.RetryAfter, want)
	}
}

// failures asserts that err is a counted failure with these counts.
func failures(t *testing.T, err error, account, address int) {
	t.Helper()
	var fe *FailedLoginError
	if !errors.As(err, &fe) || fe.AccountFailures != account || fe.AddressFailures != address {
		t.Fatalf("%v, want a failure counted %d for the account and %d for the address", err, account, address)
	}
}

// TestThrottleAccountDelay: after the free failures an address that failed waits, the wait
// doubles with each failure up to the maximum, a refused try is not counted, and an address
// that never failed on the account is always let through to check its password.
func TestThrottleAccountDelay(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		l := testLimits
		l.PerAddress = 100
		c := withClock(s, l)
		ana := addUser(t, s, "ana@example.org", false)
		const guesser, owner = "203.0.113.7", "198.51.100.2"

		failures(t, wrong(s, ana.Email, guesser), 1, 1)
		failures(t, wrong(s, ana.Email, guesser), 2, 2)
		throttled(t, wrong(s, ana.Email, guesser), "account", 2, time.Minute)
		_, err := s.Login(ctx, ana.Email, testPassword, guesser)
		throttled(t, err, "account", 2, time.Minute)

		if _, err := s.Login(ctx, ana.Email, testPassword, owner); err != nil {
			t.Fatalf("the owner from another address is locked out: %v", err)
		}

		// each wait runs from the newest failure: a second short of it the try is refused,
		// at it the try is checked and counted, and the next wait is twice as long
		steps := []struct {
			after, wait time.Duration
		}{{time.Minute, 2 * time.Minute}, {2 * time.Minute, 4 * time.Minute}, {4 * time.Minute, 4 * time.Minute}}
		for i, st := range steps {
			c.set(st.after - time.Second)
			throttled(t, wrong(s, ana.Email, guesser), "account", 2+i, time.Second)
			c.set(st.after)
			failures(t, wrong(s, ana.Email, guesser), 3+i, 3+i)
			c.set(0)
			throttled(t, wrong(s, ana.Email, guesser), "account", 3+i, st.wait)
		}

		// the owner's own typos are free like anyone's first ones: the guesser's failures do not
		// make the owner wait; only once the owner's address has used its free failures does it
		failures(t, wrong(s, ana.Email, owner), 6, 1)
		failures(t, wrong(s, ana.Email, owner), 7, 2)
		throttled(t, wrong(s, ana.Email, owner), "account", 7, 4*time.Minute)
	})
}

// TestThrottleLoginForgetsPair: a successful login forgets that address's failures on the
// account, not the account's count, so once the guesser has used its free failures it waits as
// long as the whole account's count says.
func TestThrottleLoginForgetsPair(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		c := withClock(s, testLimits)
		ana := addUser(t, s, "ana@example.org", false)
		const owner, guesser = "198.51.100.2", "203.0.113.7"
		failures(t, wrong(s, ana.Email, guesser), 1, 1)
		failures(t, wrong(s, ana.Email, owner), 2, 1)
		c.set(time.Minute)
		if _, err := s.Login(ctx, ana.Email, testPassword, owner); err != nil {
			t.Fatal(err)
		}
		c.set(0)
		if _, err := s.Login(ctx, ana.Email, testPassword, owner); err != nil {
			t.Fatalf("after its login the owner's address must not wait: %v", err)
		}
		failures(t, wrong(s, ana.Email, guesser), 3, 2)
		throttled(t, wrong(s, ana.Email, guesser), "account", 3, 2*time.Minute)
	})
}

// TestThrottleLockoutFromManyAddresses: one failure on an account from each of many addresses
// never keeps its owner out, even after a typo of the owner's own.
func TestThrottleLockoutFromManyAddresses(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		withClock(s, testLimits)
		ana := addUser(t, s, "ana@example.org", false)
		for i := range 40 {
			failures(t, wrong(s, ana.Email, fmt.Sprintf("203.0.113.%d", i+1)), i+1, 1)
		}
		const owner = "198.51.100.2"
		failures(t, wrong(s, ana.Email, owner), 41, 1)
		if _, err := s.Login(ctx, ana.Email, testPassword, owner); err != nil {
			t.Fatalf("a typo after 40 addresses' failures locks the owner out: %v", err)
		}
	})
}

// TestThrottleAddress: an address over its limit is refused on every account it failed on for a
// window from its last failure, and slowed to one try per BaseDelay on the others (password
// spraying); other addresses are not.
func TestThrottleAddress(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		clk := withClock(s, testLimits)
		const spray = "192.0.2.66"
		for i, email := range []string{"a@example.org", "b@example.org", "nobody@example.org"} {
			if email != "nobody@example.org" {
				addUser(t, s, email, false)
			}
			failures(t, wrong(s, email, spray), 1, i+1)
		}
		for _, email := range []string{"a@example.org", "nobody@example.org"} {
			_, err := s.Login(ctx, email, testPassword, spray)
			throttled(t, err, "address", 3, testLimits.Window)
		}
		c := addUser(t, s, "c@example.org", false)
		_, err := s.Login(ctx, c.Email, testPassword, spray)
		throttled(t, err, "address", 3, testLimits.BaseDelay)
		clk.set(testLimits.BaseDelay)
		if _, err := s.Login(ctx, c.Email, testPassword, spray); err != nil {
			t.Fatalf("an account the address never failed on, after the delay: %v", err)
		}
		if _, err := s.Login(ctx, "a@example.org", testPassword, "192.0.2.67"); err != nil {
			t.Fatalf("a neighbouring address: %v", err)
		}
	})
}

// TestThrottleWindowForgets: failures older than the window no longer count.
func TestThrottleWindowForgets(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		s.limits = Limits{Window: time.Second, FreeFailures: 0, BaseDelay: time.Hour, MaxDelay: time.Hour, PerAddress: 100}
		ana := addUser(t, s, "ana@example.org", false)
		failures(t, wrong(s, ana.Email, "203.0.113.7"), 1, 1)
		throttled(t, wrong(s, ana.Email, "203.0.113.7"), "account", 1, time.Hour)
		time.Sleep(1100 * time.Millisecond) // note: the store keeps its own time
		failures(t, wrong(s, ana.Email, "203.0.113.7"), 1, 1)
	})
}

func TestThrottledErrorSeconds(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 0, time.Millisecond: 1, time.Second: 1, 1001 * time.Millisecond: 2, time.Minute: 60} {
		e := &ThrottledError{RetryAfter: d}
		if got := e.RetrySeconds(); got != want {
			t.Errorf("RetrySeconds(%v) = %d, want %d", d, got, want)
		}
	}
	if msg := (&ThrottledError{RetryAfter: 90 * time.Second}).Error(); msg != "too many failed logins; try again in 90 seconds" {
		t.Fatalf("message %q", msg)
	}
}
