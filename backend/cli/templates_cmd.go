package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/arbiter-annotation/arbiter/tasks"
)

const templatesUsage = `usage:
  arbiter templates list
  arbiter templates show ID
  arbiter templates validate ID --answers FILE [--form KEY]

FILE holds a JSON object of answers by question key, or {"answers": {...}};
- reads standard input. --form checks against an extra form of the template
(e.g. "criteria" for omnireward-pair).`

// errInvalidAnswers is returned by `templates validate` after it printed the
// errors, so the process exits non-zero.
var errInvalidAnswers = errors.New("answers are invalid")

// runTemplates lists, shows and validates answers against the built-in task
// templates.
func runTemplates(_ context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, templatesUsage)
		return errUsage
	}
	switch args[0] {
	case "list":
		return listTemplates(args[1:], stdout, stderr)
	case "show":
		return showTemplate(args[1:], stdout, stderr)
	case "validate":
		return validateTemplateAnswers(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, templatesUsage)
		return nil
	}
	fmt.Fprintf(stderr, "unknown templates command %q\n\n%s\n", args[0], templatesUsage)
	return errUsage
}

// listTemplates prints one template per line: id, name, question count.
func listTemplates(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		fmt.Fprintln(stderr, templatesUsage)
		return errUsage
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, t := range tasks.Templates() {
		fmt.Fprintf(tw, "%s\t%s\t%d\n", t.ID, t.Name, t.QuestionCount())
	}
	return tw.Flush()
}

// showTemplate prints a template as indented JSON.
func showTemplate(args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		fmt.Fprintln(stderr, templatesUsage)
		return errUsage
	}
	t, err := lookupTemplate(args[0])
	if err != nil {
		return err
	}
	return encodeIndented(stdout, t)
}

func lookupTemplate(id string) (tasks.Template, error) {
	t, ok := tasks.LookupTemplate(id)
	if !ok {
		return tasks.Template{}, fmt.Errorf("unknown template %q (see arbiter templates list)", id)
	}
	return t, nil
}

func encodeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// validateFlags are the arguments of `templates validate`.
type validateFlags struct {
	id, answers, form string
}

// parseValidateFlags accepts the template id before or after the flags.
func parseValidateFlags(args []string, stderr io.Writer) (validateFlags, error) {
	var f validateFlags
	fs := flag.NewFlagSet("templates validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.answers, "answers", "", "answers file (JSON); - for standard input")
	fs.StringVar(&f.form, "form", "", "extra form of the template to validate against")
	var positional []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return f, err
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(positional) != 1 || f.answers == "" {
		fmt.Fprintln(stderr, templatesUsage)
		return f, errUsage
	}
	f.id = positional[0]
	return f, nil
}

// validateTemplateAnswers prints {"valid": true} or the errors per question
// key, and fails when the answers are invalid.
func validateTemplateAnswers(args []string, stdout, stderr io.Writer) error {
	f, err := parseValidateFlags(args, stderr)
	if err != nil {
		return err
	}
	t, err := lookupTemplate(f.id)
	if err != nil {
		return err
	}
	schema := t.Schema
	if f.form != "" {
		form, ok := t.Form(f.form)
		if !ok {
			return fmt.Errorf("template %s has no form %q", t.ID, f.form)
		}
		schema = form.Schema
	}
	answers, err := readAnswers(f.answers, &schema)
	if err != nil {
		return err
	}
	var fe tasks.FieldErrors
	if err := schema.ValidateAnswers(answers); errors.As(err, &fe) {
		if err := encodeIndented(stdout, map[string]any{"valid": false, "errors": fe}); err != nil {
			return err
		}
		return fmt.Errorf("%w: %d error(s)", errInvalidAnswers, len(fe))
	}
	return encodeIndented(stdout, map[string]bool{"valid": true})
}

// readAnswers reads a JSON object of answers, unwrapping {"answers": {...}}
// unless the schema has a question keyed "answers".
func readAnswers(name string, schema *tasks.Schema) (tasks.Answers, error) {
	var b []byte
	var err error
	if name == "-" {
		b, err = io.ReadAll(os.Stdin)
	} else {
		b, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, err
	}
	var answers tasks.Answers
	if err := json.Unmarshal(b, &answers); err != nil {
		return nil, fmt.Errorf("%s: expected a JSON object of answers: %w", name, err)
	}
	inner, ok := answers["answers"]
	if _, isQuestion := schema.Question("answers"); ok && len(answers) == 1 && !isQuestion {
		if bytes.HasPrefix(bytes.TrimSpace(inner), []byte("{")) {
			answers = nil
			if err := json.Unmarshal(inner, &answers); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	if answers == nil {
		return nil, fmt.Errorf("%s: expected a JSON object of answers", strings.TrimSpace(name))
	}
	return answers, nil
}
