package workflow

import (
	"strings"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// CheckName is the one rule for project names: 1 to 200 characters after trimming.
func CheckName(fe tasks.FieldErrors, field, name string) string {
	name = strings.TrimSpace(name)
	if n := len(name); n == 0 || n > 200 {
		fe.Add(field, "invalid_length", "name must be 1 to 200 characters")
	}
	return name
}
