package auth

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// Errors of the session service; the API maps each to a stable code.
var (
	ErrBadCredentials  = errors.New("email or password is wrong")
	ErrRefreshInvalid  = errors.New("refresh token is invalid or expired")
	ErrRefreshReused   = errors.New("refresh token was already used; every session of that login is revoked")
	ErrUnauthenticated = errors.New("missing or invalid credentials")
	// ErrUnavailable says the credentials could not be checked because the store failed; it
	// is no verdict on them, so a client keeps its session and tries again.
	ErrUnavailable = errors.New("the account store is unavailable; try again shortly")
)

// unavailable marks a store failure met while checking credentials.
func unavailable(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

// ThrottledError says a login was refused before its password was checked.
type ThrottledError struct {
	Scope      string // "account": the account's delay has not passed; "address": the address is over its limit
	Failures   int    // the failures counted for that scope
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("too many failed logins; try again in %d seconds", e.RetrySeconds())
}

// RetrySeconds is RetryAfter in whole seconds, rounded up: a client that waits that long is
// let through.
func (e *ThrottledError) RetrySeconds() int { return int(math.Ceil(e.RetryAfter.Seconds())) }

// FailedLoginError is ErrBadCredentials with the failures counted so far, for logs and metrics.
type FailedLoginError struct{ AccountFailures, AddressFailures int }

func (e *FailedLoginError) Error() string { return ErrBadCredentials.Error() }

// Is makes a FailedLoginError match ErrBadCredentials.
func (e *FailedLoginError) Is(target error) bool { return target == ErrBadCredentials }

// Limits slow down password guessing without letting anyone lock an account out.
//
// Failures are counted per account, per account and address, and per address; a count is
// forgotten once its key has been quiet for Window. An address's first FreeFailures failures on
// an account never make it wait, so nobody else's guesses (from however many addresses) can
// keep the owner out: a correct password from an address that has failed fewer times than that
// always gets in. An address that has used its free failures on the account waits before each
// further try: BaseDelay once the account has FreeFailures failures, doubling with each further
// failure of the account, up to MaxDelay. An address with PerAddress failures or more, on any
// accounts, is refused on the accounts it failed on until it has been quiet for Window, and
// slowed to one try per BaseDelay on every other account: password spraying from one address
// is slowed, and people behind a proxy they share with a guesser still get in.
type Limits struct {
	Window       time.Duration
	FreeFailures int
	BaseDelay    time.Duration
	MaxDelay     time.Duration
	PerAddress   int
	// HashMemory is the memory password hashing may take at once (DefaultHashMemory when 0);
	// a hash that finds no room within a second is refused with ErrBusy.
	HashMemory int64
}

// DefaultLimits: 5 free failures per address and account, then 1 s doubling to 15 minutes
// between tries from the addresses that used them; 100 failures per address; counts forgotten
// after an hour of quiet. A guesser gets 5 tries on one account from each address, then about
// 4 an hour; past 100 failures an address gets one try a second on accounts it never failed on.
var DefaultLimits = Limits{Window: time.Hour, FreeFailures: 5, BaseDelay: time.Second, MaxDelay: 15 * time.Minute, PerAddress: 100}

// delay is how long after the newest failure an account with n failures takes its next try.
func (l Limits) delay(n int) time.Duration {
	if n < l.FreeFailures {
		return 0
	}
	d := l.BaseDelay
	for i := l.FreeFailures; i < n && d < l.MaxDelay; i++ {
		d *= 2
	}
	return min(d, l.MaxDelay)
}

// Sessions logs people in, rotates refresh tokens and authenticates bearer tokens.
type Sessions struct {
	store      *store.Store
	issuer     *Issuer
	refreshTTL time.Duration
	limits     Limits
	dummyHash  string
	now        func() time.Time
	touched    sync.Map // personal access token id → when this replica last wrote its use
	hashing    *hashGate
}

// NewSessions returns the session service.
func NewSessions(s *store.Store, issuer *Issuer, refreshTTL time.Duration, limits Limits) *Sessions {
	dummy, _ := HashPassword(RandomString(16))
	budget := limits.HashMemory
	if budget <= 0 {
		budget = DefaultHashMemory
	}
	return &Sessions{store: s, issuer: issuer, refreshTTL: refreshTTL, limits: limits, dummyHash: dummy, now: time.Now, hashing: newHashGate(budget)}
}

// Pair is what a login or refresh returns.
type Pair struct {
	AccessToken string `json:"access_token"`
	// RefreshToken goes into an HttpOnly cookie, never into a response body.
	RefreshToken string    `json:"-"`
	ExpiresIn    int       `json:"expires_in"`
	TokenType    string    `json:"token_type"`
	User         *UserView `json:"user"`
}

// throttleKeys are the keys failures of one login are counted under.
type throttleKeys struct{ account, pair, address string }

func newThrottleKeys(email, addr string) throttleKeys {
	e := store.NormalizeEmail(email)
	return throttleKeys{account: "acct:" + e, pair: "pair:" + e + "|" + addr, address: "addr:" + addr}
}

// Login checks a password and starts a new token family. addr is the client's address.
func (s *Sessions) Login(ctx context.Context, email, password, addr string) (*Pair, error) {
	keys := newThrottleKeys(email, addr)
	if err := s.checkThrottle(ctx, keys); err != nil {
		return nil, err
	}
	u, err := s.store.UserByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		// note: same work as for a real account, no timing oracle
		if _, err := s.checkPassword(ctx, s.dummyHash, password); err != nil {
			return nil, err
		}
		return nil, s.fail(ctx, keys)
	}
	if err != nil {
		return nil, unavailable(err)
	}
	match, err := s.checkPassword(ctx, u.PasswordHash, password)
	if err != nil {
		return nil, err
	}
	if !match || u.Disabled {
		return nil, s.fail(ctx, keys)
	}
	// note: only this address's failures are forgotten; the account's count decays with
	// time, so a guesser gains nothing when its owner logs in
	if err := s.store.ClearLoginFailures(ctx, keys.pair); err != nil {
		return nil, unavailable(err)
	}
	pair, err := s.issue(ctx, s.store, u, RandomString(12))
	return pair, unavailable(err)
}

// checkThrottle refuses a try from an address over its limit on the accounts it failed on, slows
// it on the others, and refuses an address that has used its free failures on the account while
// the account's delay runs.
func (s *Sessions) checkThrottle(ctx context.Context, keys throttleKeys) error {
	addr, err := s.store.LoginFailures(ctx, keys.address, s.limits.Window)
	if err != nil {
		return unavailable(err)
	}
	pair, err := s.store.LoginFailures(ctx, keys.pair, s.limits.Window)
	if err != nil {
		return unavailable(err)
	}
	if addr.Count >= s.limits.PerAddress {
		if pair.Count > 0 {
			return &ThrottledError{Scope: "address", Failures: addr.Count, RetryAfter: addr.Last.Add(s.limits.Window).Sub(s.now())}
		}
		// note: on accounts it never failed on, an address over its limit (a sprayer, or a proxy
		// everyone shares) is slowed to one try per BaseDelay, never locked out
		if wait := addr.Last.Add(s.limits.BaseDelay).Sub(s.now()); wait > 0 {
			return &ThrottledError{Scope: "address", Failures: addr.Count, RetryAfter: wait}
		}
	}
	if pair.Count < s.limits.FreeFailures {
		return nil
	}
	acct, err := s.store.LoginFailures(ctx, keys.account, s.limits.Window)
	if err != nil {
		return unavailable(err)
	}
	if wait := acct.Last.Add(s.limits.delay(acct.Count)).Sub(s.now()); wait > 0 {
		return &ThrottledError{Scope: "account", Failures: acct.Count, RetryAfter: wait}
	}
	return nil
}

// fail counts a failure under every key and answers ErrBadCredentials with the counts.
func (s *Sessions) fail(ctx context.Context, keys throttleKeys) error {
	counts, err := s.store.RecordLoginFailure(ctx, s.limits.Window, keys.account, keys.pair, keys.address)
	if err != nil {
		return unavailable(err)
	}
	return &FailedLoginError{AccountFailures: counts[0], AddressFailures: counts[2]}
}

// issue signs an access token and stores a new refresh token of the family through st.
func (s *Sessions) issue(ctx context.Context, st *store.Store, u *store.User, family string) (*Pair, error) {
	access, err := s.issuer.Sign(Subject{UserID: u.ID, Generation: u.SessionGeneration, SessionID: family})
	if err != nil {
		return nil, err
	}
	refresh := NewOpaqueToken(RefreshTokenPrefix)
	t := time.Now().UTC()
	err = st.CreateRefreshToken(ctx, &store.RefreshToken{
		UserID: u.ID, FamilyID: family, TokenHash: HashToken(refresh),
		ExpiresAt: t.Add(s.refreshTTL), CreatedAt: t,
	})
	if err != nil {
		return nil, err
	}
	return &Pair{AccessToken: access, RefreshToken: refresh, ExpiresIn: int(s.issuer.TTL().Seconds()), TokenType: "Bearer", User: UserViewOf(u)}, nil
}

// Refresh exchanges a refresh token for a new pair. The old token stops working; presenting
// it again revokes its whole family, since one of the two holders must be a thief. A store
// failure is ErrUnavailable and leaves the token as it was, so the client can try again.
func (s *Sessions) Refresh(ctx context.Context, token string) (*Pair, error) {
	rt, err := s.store.RefreshTokenByHash(ctx, HashToken(token))
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrRefreshInvalid
	}
	if err != nil {
		return nil, unavailable(err)
	}
	if rt.RevokedAt != nil || time.Now().After(rt.ExpiresAt) {
		return nil, ErrRefreshInvalid
	}
	u, err := s.store.User(ctx, rt.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrRefreshInvalid
	}
	if err != nil {
		return nil, unavailable(err)
	}
	if u.Disabled {
		return nil, ErrRefreshInvalid
	}
	var pair *Pair
	reused := false
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		ok, err := tx.UseRefreshToken(ctx, rt.ID)
		if err != nil || !ok {
			reused = err == nil
			return err
		}
		pair, err = s.issue(ctx, tx, u, rt.FamilyID)
		return err
	})
	if err != nil {
		return nil, unavailable(err)
	}
	if reused {
		if err := s.store.RevokeRefreshFamily(ctx, rt.FamilyID); err != nil {
			return nil, unavailable(err)
		}
		return nil, ErrRefreshReused
	}
	return pair, nil
}

// Logout ends the principal's session by revoking its refresh-token family; a personal
// access token has no session and nothing happens.
func (s *Sessions) Logout(ctx context.Context, p *Principal) error {
	if p.SessionID == "" {
		return nil
	}
	return unavailable(s.store.RevokeRefreshFamily(ctx, p.SessionID))
}

// Authenticate resolves a bearer token (an access JWT or a personal access token) to who it
// acts for. Only a token that is wrong is ErrUnauthenticated; a store that fails is
// ErrUnavailable. The token and the user come from the store's short cache, which every
// change to them clears on every replica, so revoking a token, disabling an account, changing
// or resetting its password ends its tokens at once.
func (s *Sessions) Authenticate(ctx context.Context, bearer string) (*Principal, error) {
	p := &Principal{}
	generation := -1
	if strings.HasPrefix(bearer, AccessTokenPrefix) {
		pat, err := s.store.CachedAccessToken(ctx, HashToken(bearer))
		if errors.Is(err, store.ErrNotFound) {
			return nil, ErrUnauthenticated
		}
		if err != nil {
			return nil, unavailable(err)
		}
		if pat.ExpiresAt != nil && time.Now().After(*pat.ExpiresAt) {
			return nil, ErrUnauthenticated
		}
		if err := s.touch(ctx, pat); err != nil {
			return nil, unavailable(err)
		}
		p.User, p.TokenID, p.scopes = &store.User{ID: pat.UserID}, pat.ID, tokenScopes(pat.Scopes)
	} else {
		sub, err := s.issuer.Verify(bearer)
		if err != nil {
			return nil, err
		}
		p.User, p.SessionID, generation = &store.User{ID: sub.UserID}, sub.SessionID, sub.Generation
	}
	u, err := s.store.CachedUser(ctx, p.User.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrUnauthenticated
	}
	if err != nil {
		return nil, unavailable(err)
	}
	if u.Disabled || (generation >= 0 && generation != u.SessionGeneration) {
		return nil, ErrUnauthenticated
	}
	p.User = u
	return p, nil
}

// touchEvery is how often a personal access token's last use is written.
const touchEvery = time.Minute

// touch records a personal access token's use at most once a minute per token and replica.
func (s *Sessions) touch(ctx context.Context, pat *store.PersonalAccessToken) error {
	t := time.Now().UTC()
	last := time.Time{}
	if pat.LastUsedAt != nil {
		last = *pat.LastUsedAt
	}
	if v, ok := s.touched.Load(pat.ID); ok && v.(time.Time).After(last) {
		last = v.(time.Time)
	}
	if t.Sub(last) < touchEvery {
		return nil
	}
	if err := s.store.TouchAccessToken(ctx, pat.ID, t); err != nil {
		return err
	}
	s.touched.Store(pat.ID, t)
	return nil
}

// createAccessToken makes a personal access token through st; the token is returned once.
func createAccessToken(ctx context.Context, st *store.Store, userID, name string, scopes []string, ttl time.Duration) (string, *store.PersonalAccessToken, error) {
	token := NewOpaqueToken(AccessTokenPrefix)
	pat := &store.PersonalAccessToken{
		UserID: userID, Name: name, Prefix: token[:len(AccessTokenPrefix)+6], Scopes: scopes,
		TokenHash: HashToken(token), CreatedAt: time.Now().UTC(),
	}
	if ttl > 0 {
		exp := pat.CreatedAt.Add(ttl)
		pat.ExpiresAt = &exp
	}
	if err := st.CreateAccessToken(ctx, pat); err != nil {
		return "", nil, err
	}
	return token, pat, nil
}
