package auth

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

var testJWTKey = []byte("0123456789abcdef0123456789abcdef")

// issuerAt is an issuer whose clock stands at base+offset.
func issuerAt(base time.Time, offset time.Duration) *Issuer {
	i := NewIssuer(testJWTKey, time.Minute)
	i.now = func() time.Time { return base.Add(offset) }
	return i
}

// TestJWTLifetime: a token is good from 30 seconds before it was signed (clock skew between
// replicas) until its TTL has passed, expired after, and not yet valid before the skew.
func TestJWTLifetime(t *testing.T) {
	base := time.Now()
	tok, err := issuerAt(base, 0).Sign(Subject{UserID: "u1", Generation: 2, SessionID: "fam"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		at   time.Duration
		want error
	}{
		{-time.Minute, ErrTokenInvalid},
		{-20 * time.Second, nil},
		{0, nil},
		{59 * time.Second, nil},
		{61 * time.Second, ErrTokenExpired},
		{24 * time.Hour, ErrTokenExpired},
	}
	for _, c := range cases {
		sub, err := issuerAt(base, c.at).Verify(tok)
		if !errors.Is(err, c.want) || (err == nil && sub != Subject{UserID: "u1", Generation: 2, SessionID: "fam"}) {
			t.Errorf("verified %v after signing: %+v, %v; want %v", c.at, sub, err, c.want)
		}
	}
	if got := NewIssuer(testJWTKey, 15*time.Minute).TTL(); got != 15*time.Minute {
		t.Fatalf("TTL = %v", got)
	}
}

// TestJWTTampered: changing any part of a signed token, or signing it with another key or
// claims the issuer does not make, is ErrTokenInvalid.
func TestJWTTampered(t *testing.T) {
	iss := NewIssuer(testJWTKey, time.Minute)
	tok, err := iss.Sign(Subject{UserID: "u1", Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(tok, ".")
	enc := base64.RawURLEncoding
	body, _ := enc.DecodeString(parts[1])
	forged := strings.Replace(string(body), `"sub":"u1"`, `"sub":"admin"`, 1)
	if forged == string(body) {
		t.Fatalf("claims %s carry no subject to forge", body)
	}
	flip := func(s string) string {
		b := []byte(s)
		b[len(b)/2] ^= 1
		return string(b)
	}
	cases := map[string]string{
		"forged subject":    parts[0] + "." + enc.EncodeToString([]byte(forged)) + "." + parts[2],
		"flipped signature": parts[0] + "." + parts[1] + "." + flip(parts[2]),
		"no signature":      parts[0] + "." + parts[1] + ".",
		"header of HS512":   enc.EncodeToString([]byte(`{"alg":"HS512","typ":"JWT"}`)) + "." + parts[1] + "." + parts[2],
		"two parts":         parts[0] + "." + parts[1],
		"empty":             "",
		"other issuer":      claimsToken(t, jwt.RegisteredClaims{Issuer: "someone", Subject: "u1", ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour))}),
		"no subject":        claimsToken(t, jwt.RegisteredClaims{Issuer: "arbiter", ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour))}),
		"RS256 public key":  unsignedToken(t, "RS256", "u1") + "c2ln",
	}
	for name, bad := range cases {
		if _, err := iss.Verify(bad); !errors.Is(err, ErrTokenInvalid) {
			t.Errorf("%s: %v, want ErrTokenInvalid", name, err)
		}
	}
	if sub, err := iss.Verify(tok); err != nil || sub.UserID != "u1" {
		t.Fatalf("the untouched token: %+v, %v", sub, err)
	}
}

// TestJWTUniqueIDs: two tokens signed in the same second for the same subject differ, so a
// token can be told apart from its neighbour in logs.
func TestJWTUniqueIDs(t *testing.T) {
	iss := issuerAt(time.Now(), 0)
	a, _ := iss.Sign(Subject{UserID: "u1"})
	b, _ := iss.Sign(Subject{UserID: "u1"})
	if a == b {
		t.Fatal("two tokens are identical")
	}
}

func claimsToken(t *testing.T, c jwt.RegisteredClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(testJWTKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
