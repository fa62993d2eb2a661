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

// Sign returns an access token for the user.
func (i *Issuer) Sign(userID string) (string, error) {
	t := i.now()
	claims := jwt.RegisteredClaims{
		Issuer:    issuer,
		Subject:   userID,
		IssuedAt:  jwt.NewNumericDate(t),
		NotBefore: jwt.NewNumericDate(t.Add(-30 * time.Second)),
		ExpiresAt: jwt.NewNumericDate(t.Add(i.ttl)),
		ID:        RandomString(9),
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(i.key)
}

// Verify checks a token and returns its user id.
func (i *Issuer) Verify(token string) (string, error) {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return i.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(i.now),
	)
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return "", ErrTokenExpired
	case err != nil || claims.Subject == "":
		return "", ErrTokenInvalid
	}
	return claims.Subject, nil
}
