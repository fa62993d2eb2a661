// Package cli parses the arbiter command line and runs one sub-command.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one sub-command of the arbiter binary.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is the table of sub-commands, one line each.
func commands() map[string]command {
	return map[string]command{
		"serve":      {"run the server (API, UI, background jobs)", runServe},
		"migrate":    {"apply database migrations and exit", runMigrate},
		"templates":  {"list, show and validate against built-in task templates", runTemplates},
		"agreement":  {"compute inter-annotator agreement for a ratings file", runAgreement},
		"judge-eval": {"compare a judge's predictions with reference labels", runJudgeEval},
		"import":     {"stream an NDJSON file of items (and their media) into a project", runImport},
		"export":     {"release a project's ground truth and download it, verified against the manifest", runExport},
		"loadtest":   {"simulate annotators against running servers, beside pgbench, and verify what was stored", runLoadtest},
		"simulate":   {"run projects of simulated annotators of known accuracies through a server: labels spent, ground truth's accuracy", runSimulate},
		"version":    {"print the version", runVersion},
	}
}

// Version is set at build time with -ldflags "-X .../backend/cli.Version=...".
var Version = "dev"

// errUsage marks an error that was already explained to the user with usage text.
var errUsage = errors.New("usage")

// Main runs the command line and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "arbiter: unknown command %q\n\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := cmd.run(ctx, args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		if !errors.Is(err, errUsage) {
			fmt.Fprintf(stderr, "arbiter %s: %v\n", args[0], err)
		}
		return 1
	}
	return 0
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: arbiter <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-11s %s\n", n, cmds[n].summary)
	}
}

func runVersion(_ context.Context, _ []string, stdout, _ io.Writer) error {
	fmt.Fprintln(stdout, "arbiter", Version)
	return nil
}
