package cli

import (
	"context"
	"errors"
	"io"
)

// runAgreement is replaced by the agreement command implementation.
func runAgreement(_ context.Context, _ []string, _, _ io.Writer) error {
	return errors.New("not implemented yet")
}

// runJudgeEval is replaced by the judge-eval command implementation.
func runJudgeEval(_ context.Context, _ []string, _, _ io.Writer) error {
	return errors.New("not implemented yet")
}
