package auth

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestPasswordRoundTrip(t *testing.T) {
	h, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash format: %s", h)
	}
	if err := CheckPassword(h, "correct horse battery"); err != nil {
		t.Fatalf("right password rejected: %v", err)
	}
	if err := CheckPassword(h, "correct horse batterY"); !errors.Is(err, ErrMismatch) {
		t.Fatalf("wrong password: %v", err)
	}
	h2, _ := HashPassword("correct horse battery")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: salt not random")
	}
}

func TestJWT(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	iss := NewIssuer(key, time.Minute)
	tok, err := iss.Sign(Subject{UserID: "u1", Generation: 3, SessionID: "fam"})
	if err != nil {
		t.Fatal(err)
	}
	if sub, err := iss.Verify(tok); err != nil || sub != (Subject{UserID: "u1", Generation: 3, SessionID: "fam"}) {
		t.Fatalf("Verify = %+v, %v", sub, err)
	}

	later := NewIssuer(key, time.Minute)
	later.now = func() time.Time { return time.Now().Add(2 * time.Minute) }
	if _, err := later.Verify(tok); !errors.Is(err, ErrTokenExpired) {
		t.Fatalf("expired token: %v", err)
	}

	other := NewIssuer([]byte("another key, just as long as the first"), time.Minute)
	if _, err := other.Verify(tok); !errors.Is(err, ErrTokenInvalid) {
		t.Fatalf("foreign key: %v", err)
	}

	cases := map[string]string{
		"alg none":  unsignedToken(t, "none", "u1"),
		"alg HS512": signedWith(t, jwt.SigningMethodHS512, key, "u1"),
		"alg HS384": signedWith(t, jwt.SigningMethodHS384, key, "u1"),
		"garbage":   "a.b.c",
		"no expiry": signedNoExp(t, key),
	}
	for name, tok := range cases {
		if _, err := iss.Verify(tok); !errors.Is(err, ErrTokenInvalid) {
			t.Errorf("%s: got %v, want ErrTokenInvalid", name, err)
		}
	}
}

// unsignedToken builds a token with the given alg header and no signature.
func unsignedToken(t *testing.T, alg, sub string) string {
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"alg":"` + alg + `","typ":"JWT"}`))
	exp := time.Now().Add(time.Hour).Unix()
	body := enc.EncodeToString([]byte(`{"iss":"arbiter","sub":"` + sub + `","exp":` + itoa(exp) + `}`))
	return head + "." + body + "."
}

func signedWith(t *testing.T, m jwt.SigningMethod, key []byte, sub string) string {
	claims := jwt.RegisteredClaims{Issuer: "arbiter", Subject: sub, ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour))}
	s, err := jwt.NewWithClaims(m, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func signedNoExp(t *testing.T, key []byte) string {
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.RegisteredClaims{Issuer: "arbiter", Subject: "u1"}).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestOpaqueTokens(t *testing.T) {
	a, b := NewOpaqueToken(AccessTokenPrefix), NewOpaqueToken(AccessTokenPrefix)
	if a == b || !strings.HasPrefix(a, "arb_pat_") || len(a) < 40 {
		t.Fatalf("tokens %q %q", a, b)
	}
	if HashToken(a) == HashToken(b) || len(HashToken(a)) != 64 {
		t.Fatal("hashes collide or have the wrong length")
	}
}

func TestLimitsDelay(t *testing.T) {
	l := DefaultLimits
	for n, want := range map[int]time.Duration{0: 0, 4: 0, 5: time.Second, 6: 2 * time.Second, 7: 4 * time.Second,
		14: 512 * time.Second, 15: 15 * time.Minute, 1000: 15 * time.Minute} {
		if got := l.delay(n); got != want {
			t.Errorf("delay(%d) = %v, want %v", n, got, want)
		}
	}
}
