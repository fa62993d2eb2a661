package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
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

// ThrottledError says a login was refused because of too many recent failures.
type ThrottledError struct{ RetryAfter time.Duration }

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("too many failed logins; try again in %s", e.RetryAfter.Round(time.Second))
}

// Limits bound failed logins per account and per client address inside a window.
type Limits struct {
	Window     time.Duration
	PerAccount int
	PerAddress int
}

// DefaultLimits allows 10 failures per account and 100 per address every 15 minutes.
var DefaultLimits = Limits{Window: 15 * time.Minute, PerAccount: 10, PerAddress: 100}

// Sessions logs people in, rotates refresh tokens and authenticates bearer tokens.
type Sessions struct {
	store      *store.Store
	issuer     *Issuer
	refreshTTL time.Duration
	limits     Limits
	dummyHash  string
}

// NewSessions returns the session service.
func NewSessions(s *store.Store, issuer *Issuer, refreshTTL time.Duration, limits Limits) *Sessions {
	dummy, _ := HashPassword(RandomString(16))
	return &Sessions{store: s, issuer: issuer, refreshTTL: refreshTTL, limits: limits, dummyHash: dummy}
}

// Pair is what a login or refresh returns.
type Pair struct {
	AccessToken  string      `json:"access_token"`
	RefreshToken string      `json:"refresh_token"`
	ExpiresIn    int         `json:"expires_in"`
	TokenType    string      `json:"token_type"`
	User         *store.User `json:"user"`
}

// Login checks a password and starts a new token family.
func (s *Sessions) Login(ctx context.Context, email, password, addr string) (*Pair, error) {
	acctKey, addrKey := "acct:"+store.NormalizeEmail(email), "addr:"+addr
	if err := s.checkThrottle(ctx, acctKey, addrKey); err != nil {
		return nil, unavailable(err)
	}
	u, err := s.store.UserByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		CheckPassword(s.dummyHash, password) // note: same work as for a real account, no timing oracle
		return nil, unavailable(s.fail(ctx, acctKey, addrKey))
	}
	if err != nil {
		return nil, unavailable(err)
	}
	if CheckPassword(u.PasswordHash, password) != nil || u.Disabled {
		return nil, unavailable(s.fail(ctx, acctKey, addrKey))
	}
	if err := s.store.ClearLoginFailures(ctx, acctKey); err != nil {
		return nil, unavailable(err)
	}
	pair, err := s.issue(ctx, s.store, u, RandomString(12))
	return pair, unavailable(err)
}

func (s *Sessions) checkThrottle(ctx context.Context, acctKey, addrKey string) error {
	for key, limit := range map[string]int{acctKey: s.limits.PerAccount, addrKey: s.limits.PerAddress} {
		n, err := s.store.LoginFailures(ctx, key, s.limits.Window)
		if err != nil {
			return err
		}
		if n >= limit {
			return &ThrottledError{RetryAfter: s.limits.Window}
		}
	}
	return nil
}

func (s *Sessions) fail(ctx context.Context, keys ...string) error {
	if err := s.store.RecordLoginFailure(ctx, s.limits.Window, keys...); err != nil {
		return err
	}
	return ErrBadCredentials
}

// issue signs an access token and stores a new refresh token of the family through st.
func (s *Sessions) issue(ctx context.Context, st *store.Store, u *store.User, family string) (*Pair, error) {
	access, err := s.issuer.Sign(u.ID)
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
	return &Pair{AccessToken: access, RefreshToken: refresh, ExpiresIn: int(s.issuer.TTL().Seconds()), TokenType: "Bearer", User: u}, nil
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

// Logout revokes the family of the given refresh token. Unknown tokens are ignored.
func (s *Sessions) Logout(ctx context.Context, token string) error {
	rt, err := s.store.RefreshTokenByHash(ctx, HashToken(token))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return unavailable(err)
	}
	return unavailable(s.store.RevokeRefreshFamily(ctx, rt.FamilyID))
}

// Authenticate resolves a bearer token (an access JWT or a personal access token) to its user.
// Only a token that is wrong is ErrUnauthenticated; a store that fails is ErrUnavailable.
func (s *Sessions) Authenticate(ctx context.Context, bearer string) (*store.User, error) {
	var userID string
	if strings.HasPrefix(bearer, AccessTokenPrefix) {
		pat, err := s.store.AccessTokenByHash(ctx, HashToken(bearer))
		if errors.Is(err, store.ErrNotFound) {
			return nil, ErrUnauthenticated
		}
		if err != nil {
			return nil, unavailable(err)
		}
		if pat.ExpiresAt != nil && time.Now().After(*pat.ExpiresAt) {
			return nil, ErrUnauthenticated
		}
		if err := s.store.TouchAccessToken(ctx, pat.ID, time.Now().UTC()); err != nil {
			return nil, unavailable(err)
		}
		userID = pat.UserID
	} else {
		id, err := s.issuer.Verify(bearer)
		if err != nil {
			return nil, err
		}
		userID = id
	}
	u, err := s.store.User(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrUnauthenticated
	}
	if err != nil {
		return nil, unavailable(err)
	}
	if u.Disabled {
		return nil, ErrUnauthenticated
	}
	return u, nil
}

// CreateAccessToken makes a personal access token for the user; the token is returned once.
func (s *Sessions) CreateAccessToken(ctx context.Context, userID, name string, ttl time.Duration) (string, *store.PersonalAccessToken, error) {
	token := NewOpaqueToken(AccessTokenPrefix)
	pat := &store.PersonalAccessToken{
		UserID: userID, Name: name, Prefix: token[:len(AccessTokenPrefix)+6],
		TokenHash: HashToken(token), CreatedAt: time.Now().UTC(),
	}
	if ttl > 0 {
		exp := pat.CreatedAt.Add(ttl)
		pat.ExpiresAt = &exp
	}
	if err := s.store.CreateAccessToken(ctx, pat); err != nil {
		return "", nil, err
	}
	return token, pat, nil
}
