package auth

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// Password rules after NIST SP 800-63B (section 5.1.1.2): a minimum length, a generous maximum,
// no composition rules, and a check against passwords that are common, repetitive, sequential
// or made of the account's own words.
const (
	// MinPasswordLength is the shortest new password accepted.
	MinPasswordLength = 12
	// MaxPasswordLength bounds the work of hashing one password.
	MaxPasswordLength = 1024
)

// commonPasswordsText is the most common passwords of the SecLists project
// (Passwords/Common-Credentials/10k-most-common.txt, MIT licence), one a line, less two
// product names.
//
//go:embed common-passwords.txt
var commonPasswordsText string

var commonPasswords = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, 10000)
	for _, p := range strings.Split(commonPasswordsText, "\n") {
		if p = strings.TrimSpace(p); p != "" {
			m[strings.ToLower(p)] = true
		}
	}
	return m
})

// CheckNewPassword returns field errors at field when password may not be set: too short,
// too long, or guessable (common, a common one with digits or symbols around it, one
// character or run repeated, a sequence, or the account's own email or name). context holds
// the account's words.
func CheckNewPassword(field, password string, context ...string) error {
	fe := tasks.FieldErrors{}
	n := utf8.RuneCountInString(password)
	switch {
	case n < MinPasswordLength:
		fe.Add(field, "too_short", "a password needs at least %d characters", MinPasswordLength)
	case len(password) > MaxPasswordLength:
		fe.Add(field, "too_long", "a password may have at most %d bytes", MaxPasswordLength)
	case guessable(password, context):
		fe.Add(field, "too_common", "this password is too easy to guess: it is common, repetitive, sequential or made of your name or email")
	}
	return fe.Err()
}

// guessable reports whether a password is one an attacker tries early.
func guessable(password string, context []string) bool {
	lower := strings.ToLower(password)
	core := strings.TrimFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) })
	if commonPasswords()[lower] || (core != "" && commonPasswords()[core]) || repetitive(lower) || sequential(lower) {
		return true
	}
	for _, c := range context {
		c = strings.ToLower(strings.TrimSpace(c))
		local, _, _ := strings.Cut(c, "@")
		for _, w := range []string{c, local} {
			if len(w) >= 4 && (lower == w || core == w || strings.Trim(lower, "0123456789!@#$%^&*()-_=+.,?") == w) {
				return true
			}
		}
	}
	return lower == "arbiter" || core == "arbiter"
}

// repetitive reports whether s is one run of at most 4 characters, repeated.
func repetitive(s string) bool {
	r := []rune(s)
	for size := 1; size <= 4 && size < len(r); size++ {
		if len(r)%size != 0 {
			continue
		}
		same := true
		for i := size; i < len(r) && same; i++ {
			same = r[i] == r[i-size]
		}
		if same {
			return true
		}
	}
	return false
}

// sequential reports whether s steps through characters by a constant +1 or -1
// ("abcdefghijkl", "987654321098" wraps from 0 to 9).
func sequential(s string) bool {
	r := []rune(s)
	if len(r) < 3 {
		return false
	}
	for _, step := range []rune{1, -1} {
		ok := true
		for i := 1; i < len(r) && ok; i++ {
			d := r[i] - r[i-1]
			ok = d == step || (unicode.IsDigit(r[i]) && unicode.IsDigit(r[i-1]) && d == -9*step)
		}
		if ok {
			return true
		}
	}
	return false
}
