// Command arbiter is the Arbiter annotation platform: server, migrations and command-line tools.
package main

import (
	"os"

	"github.com/arbiter-annotation/arbiter/backend/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
