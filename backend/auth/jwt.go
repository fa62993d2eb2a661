package auth

import (
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Errors of access-token verification.
var (
	ErrTokenExpired = errors.New("access token expired")
	ErrTokenInvalid = errors.New("access token invalid")
)

const issuer = "arbiter"

// Issuer signs and verifies short-lived access tokens with HS256; no other algorithm is accepted.
type Issuer struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

// NewIssuer returns an Issuer with the given secret and token lifetime.
func NewIssuer(secret []byte, ttl time.Duration) *Issuer {
	return &Issuer{key: secret, ttl: ttl, now: time.Now}
}

// TTL is the lifetime of the tokens this issuer signs.
func (i *Issuer) TTL() time.Duration { return i.ttl }

// Subject is what an access token speaks for: a user, the generation of their sessions when it
// was signed (a password change, reset or disable bumps it and so ends every token signed
// before), and the refresh-token family of the login it belongs to.
type Subject struct {
	UserID     string
	Generation int
	SessionID  string
}

// claims are the JWT claims of an access token.
type claims struct {
	jwt.RegisteredClaims
	Generation int    `json:"gen"`
	SessionID  string `json:"sid,omitempty"`
}

// Sign returns an access token for the subject.
func (i *Issuer) Sign(sub Subject) (string, error) {
	t := i.now()
	c := claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Subject:   sub.UserID,
			IssuedAt:  jwt.NewNumericDate(t),
			NotBefore: jwt.NewNumericDate(t.Add(-30 * time.Second)),
			ExpiresAt: jwt.NewNumericDate(t.Add(i.ttl)),
			ID:        RandomString(9),
		},
		Generation: sub.Generation,
		SessionID:  sub.SessionID,
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(i.key)
}

// Verify checks a token and returns its subject.
func (i *Issuer) Verify(token string) (Subject, error) {
	var c claims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return i.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(i.now),
	)
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return Subject{}, ErrTokenExpired
	case err != nil || c.Subject == "":
		return Subject{}, ErrTokenInvalid
	}
	return Subject{UserID: c.Subject, Generation: c.Generation, SessionID: c.SessionID}, nil
}
