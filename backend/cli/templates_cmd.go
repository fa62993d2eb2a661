package cli

import (
	"context"
	"errors"
	"io"
)

// runTemplates is replaced by the templates command implementation.
func runTemplates(_ context.Context, _ []string, _, _ io.Writer) error {
	return errors.New("not implemented yet")
}
