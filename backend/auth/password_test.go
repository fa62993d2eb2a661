package auth

import (
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/crypto/argon2"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestHashPasswordPHC: the hash is a PHC string carrying the OWASP parameters, a 16-byte salt
// and a 32-byte key, and any password (empty, long, not ASCII) verifies against its own hash
// only.
func TestHashPasswordPHC(t *testing.T) {
	for _, pw := range []string{"", "correct horse battery", "pässwörd ✓ 密码", strings.Repeat("x", MaxPasswordLength)} {
		h, err := HashPassword(pw)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(h, "$")
		if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != "v=19" || parts[3] != "m=19456,t=2,p=1" {
			t.Fatalf("hash %q is not an argon2id PHC string with the OWASP parameters", h)
		}
		salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
		key, err2 := base64.RawStdEncoding.DecodeString(parts[5])
		if err1 != nil || err2 != nil || len(salt) != argonSaltLen || len(key) != argonKeyLen {
			t.Fatalf("salt %d bytes (%v), key %d bytes (%v)", len(salt), err1, len(key), err2)
		}
		if err := CheckPassword(h, pw); err != nil {
			t.Errorf("%.20q: own password refused: %v", pw, err)
		}
		if err := CheckPassword(h, pw+"x"); !errors.Is(err, ErrMismatch) {
			t.Errorf("%.20q: a longer password: %v, want ErrMismatch", pw, err)
		}
	}
}

// TestCheckPasswordReadsParameters: the parameters come from the hash, so hashes made with
// other costs (older settings, another server) keep verifying.
func TestCheckPasswordReadsParameters(t *testing.T) {
	salt := []byte("sixteen byte slt")
	key := argon2.IDKey([]byte("old secret"), salt, 1, 8*1024, 2, 24)
	b64 := base64.RawStdEncoding
	h := fmt.Sprintf("$argon2id$v=19$m=8192,t=1,p=2$%s$%s", b64.EncodeToString(salt), b64.EncodeToString(key))
	if err := CheckPassword(h, "old secret"); err != nil {
		t.Fatalf("hash with other parameters refused: %v", err)
	}
	if err := CheckPassword(h, "old Secret"); !errors.Is(err, ErrMismatch) {
		t.Fatalf("wrong password against other parameters: %v", err)
	}
}

// TestCheckPasswordMalformed: a hash that is not a usable argon2id PHC string is an error,
// never a match, never ErrMismatch (it says nothing about the password), and never a panic.
func TestCheckPasswordMalformed(t *testing.T) {
	good, err := HashPassword("secret")
	if err != nil {
		t.Fatal(err)
	}
	p := strings.Split(good, "$")
	with := func(i int, v string) string {
		q := append([]string(nil), p...)
		q[i] = v
		return strings.Join(q, "$")
	}
	cases := map[string]string{
		"empty":            "",
		"plain text":       "secret",
		"bcrypt":           "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
		"argon2i":          with(1, "argon2i"),
		"one part short":   strings.Join(p[:5], "$"),
		"one part more":    good + "$x",
		"old version":      with(2, "v=16"),
		"no version":       with(2, "version"),
		"bad parameters":   with(3, "m=lots,t=2,p=1"),
		"threads overflow": with(3, "m=19456,t=2,p=256"),
		"zero iterations":  with(3, "m=19456,t=0,p=1"),
		"zero threads":     with(3, "m=19456,t=2,p=0"),
		"salt not base64":  with(4, "!!!!"),
		"key not base64":   with(5, "!!!!"),
		"empty key":        with(5, ""),
		"short key":        with(5, "AAAA"),
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("CheckPassword(%q) panicked: %v", h, r)
				}
			}()
			err := CheckPassword(h, "secret")
			if err == nil || errors.Is(err, ErrMismatch) {
				t.Fatalf("CheckPassword(%q) = %v, want a format error", h, err)
			}
		})
	}
}

// TestRandomTokens: random strings and tokens are URL-safe, of the promised length, and never
// repeat; a token's stored form is its hex sha256.
func TestRandomTokens(t *testing.T) {
	urlSafe := regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	seen := map[string]bool{}
	for range 100 {
		pw := GeneratePassword()
		if len(pw) != 24 || !urlSafe.MatchString(pw) || seen[pw] {
			t.Fatalf("generated password %q: 24 URL-safe characters, never twice", pw)
		}
		seen[pw] = true
	}
	for _, prefix := range []string{RefreshTokenPrefix, AccessTokenPrefix, ResetTokenPrefix} {
		tok := NewOpaqueToken(prefix)
		rest, ok := strings.CutPrefix(tok, prefix)
		if !ok || len(rest) != 43 || !urlSafe.MatchString(rest) {
			t.Errorf("token %q: want %s and 43 URL-safe characters (32 bytes)", tok, prefix)
		}
	}
	// sha256("abc") from FIPS 180-2, appendix B.1
	if got := HashToken("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("HashToken(abc) = %s", got)
	}
}

// TestCheckNewPassword: the NIST rules, one case per reason to refuse and the near misses
// that pass.
func TestCheckNewPassword(t *testing.T) {
	email, name := "ana.lopez@example.org", "Ana Lopez"
	cases := []struct {
		password string
		code     string // "" when accepted
	}{
		{"", "too_short"},
		{"elevenchars", "too_short"},
		{"ñandúñandúñ", "too_short"}, // 11 characters in 15 bytes: runes are counted
		{"twelve chars", ""},
		{"ñandú fuerte", ""},
		{strings.Repeat("k3y", MaxPasswordLength/3) + "z", ""},
		{strings.Repeat("k3y", MaxPasswordLength/3) + "zz", "too_long"},
		{"unbelievable", "too_common"},
		{"UnBelievable", "too_common"},
		{"!!dragon2024!!", "too_common"},
		{"Password1234", "too_common"},
		{"aaaaaaaaaaaa", "too_common"},
		{"abababababab", "too_common"},
		{"abcdabcdabcd", "too_common"},
		{"abcdeabcdeab", ""}, // a run of five, and not whole
		{"abcdefghijkl", "too_common"},
		{"LKJIHGFEDCBA", "too_common"},
		{"789012345678", "too_common"},
		{"987654321098", "too_common"},
		{"ana.lopez@example.org", "too_common"},
		{"ana.lopez2024!", "too_common"},
		{"ana lopez", "too_short"},
		{"!!Ana Lopez!!", "too_common"},
		{"arbiter2024!", "too_common"},
		{"ana.lopez is my friend", ""},
	}
	for _, c := range cases {
		err := CheckNewPassword("new_password", c.password, email, name)
		var fe tasks.FieldErrors
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%.30q refused: %v", c.password, err)
		case c.code != "" && (!errors.As(err, &fe) || fe["new_password"].Code != c.code):
			t.Errorf("%.30q: %v, want %s at new_password", c.password, err, c.code)
		}
	}
	if err := CheckNewPassword("password", "ana.lopez!!!", ""); err != nil {
		t.Fatalf("without the account's words its email is an ordinary password: %v", err)
	}
}
