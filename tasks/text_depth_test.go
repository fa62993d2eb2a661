package tasks

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckTextDepth: JSON nested past MaxDepth is refused with too_deep, on either engine's
// behalf; brackets inside strings do not count, and MaxDepth levels are fine.
func TestCheckTextDepth(t *testing.T) {
	deep := func(n int) string { return `{"meta":` + strings.Repeat(`[`, n-1) + strings.Repeat(`]`, n-1) + `}` }
	for _, c := range []struct {
		name string
		text string
		ok   bool
	}{
		{"at the limit", deep(MaxDepth), true},
		{"one past it", deep(MaxDepth + 1), false},
		{"a thousand and one levels", deep(1001), false},
		{"brackets in strings", `{"a":"` + strings.Repeat(`[{`, 500) + `","b":"\"[[["}`, true},
	} {
		err := CheckText([]byte(c.text))
		var fe FieldErrors
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.ok && (!errors.As(err, &fe) || fe[""].Code != CodeTooDeep):
			t.Errorf("%s: %v, want %s", c.name, err, CodeTooDeep)
		}
	}
}
