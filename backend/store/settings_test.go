package store_test

import (
	"errors"
	"testing"
)

func TestSettings(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		key, other, raced := unique("k"), unique("other"), unique("raced")
		first, err := f.s.Setting(f.ctx, key, func() (string, error) { return "one", nil })
		if err != nil || first != "one" {
			t.Fatalf("first = %q, %v", first, err)
		}
		again, err := f.s.Setting(f.ctx, key, func() (string, error) { return "", errors.New("initial called again") })
		if err != nil || again != "one" {
			t.Fatalf("again = %q, %v", again, err)
		}
		failed := errors.New("no randomness")
		if _, err := f.s.Setting(f.ctx, other, func() (string, error) { return "", failed }); !errors.Is(err, failed) {
			t.Fatalf("a failing initial value: %v", err)
		}
		// another replica stores the key between this one's read and its insert: its value wins
		got, err := f.s.Setting(f.ctx, raced, func() (string, error) {
			f.exec("INSERT INTO settings (key, value, created_at) VALUES ("+f.ph(1)+", 'theirs', CURRENT_TIMESTAMP)", raced)
			return "mine", nil
		})
		if err != nil || got != "theirs" {
			t.Fatalf("raced = %q, %v", got, err)
		}
	})
}
