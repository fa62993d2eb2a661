package cli

import (
	"context"
	"errors"
	"io"
)

func runServe(_ context.Context, _ []string, _, _ io.Writer) error   { return errors.New("not implemented yet") }
func runMigrate(_ context.Context, _ []string, _, _ io.Writer) error { return errors.New("not implemented yet") }
