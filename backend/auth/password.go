// Package auth holds the credentials primitives: password hashing, access tokens (JWT with a
// pinned algorithm) and random opaque tokens stored as hashes.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters, after the OWASP password storage recommendation (19 MiB, t=2, p=1).
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
	// argonMinKeyLen is the shortest key a stored hash may have: a shorter one would match
	// many passwords, an empty one every password.
	argonMinKeyLen = 16
)

// ErrMismatch is returned when a password does not match its hash.
var ErrMismatch = errors.New("password does not match")

// HashPassword returns an argon2id hash in the PHC string format.
func HashPassword(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemoryKiB, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword compares a password with a hash made by HashPassword, in constant time. A hash
// that is not a usable argon2id PHC string is an error other than ErrMismatch.
func CheckPassword(hash, password string) error {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return errors.New("unknown password hash format")
	}
	var version int
	var mem, iters uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return errors.New("unsupported argon2 version")
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iters, &threads); err != nil {
		return fmt.Errorf("argon2 parameters: %w", err)
	}
	if iters < 1 || threads < 1 {
		// note: argon2 panics on these rather than failing
		return errors.New("argon2 parameters: t and p must be at least 1")
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return err
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil {
		return err
	}
	if len(want) < argonMinKeyLen {
		return fmt.Errorf("argon2 key of %d bytes, at least %d expected", len(want), argonMinKeyLen)
	}
	got := argon2.IDKey([]byte(password), salt, iters, mem, threads, uint32(len(want)))
	if subtle.ConstantTimeCompare(got, want) != 1 {
		return ErrMismatch
	}
	return nil
}

// GeneratePassword returns a strong random password (24 characters, ~143 bits).
func GeneratePassword() string {
	return RandomString(18)
}

// RandomString returns n random bytes, base64url-encoded without padding.
func RandomString(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // note: crypto/rand never fails on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// HashToken returns the hex sha256 of an opaque token, the form in which tokens are stored.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Prefixes of the opaque tokens, so a token says what it is when it leaks into a log.
const (
	RefreshTokenPrefix = "arb_rt_"
	AccessTokenPrefix  = "arb_pat_"
)

// NewOpaqueToken returns a fresh token with the given prefix and 32 random bytes.
func NewOpaqueToken(prefix string) string { return prefix + RandomString(32) }
