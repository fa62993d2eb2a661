package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/exports"
)

// agreementFlags are the flags of `arbiter agreement`.
type agreementFlags struct {
	input, format, level  string
	bootstrap             int
	seed                  uint64
	clusterKey, strataKey string
	multiSep, setMetric   string
	dawidSkene            bool
	metrics               agreement.MetricSet
}

func parseAgreementFlags(args []string, stderr io.Writer) (*agreementFlags, error) {
	f := &agreementFlags{}
	fs := flag.NewFlagSet("agreement", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.input, "input", "", "ratings file (JSONL or CSV with unit,rater,value header); - for stdin")
	fs.StringVar(&f.format, "format", "", "input format: jsonl or csv (default: from the file extension)")
	fs.StringVar(&f.level, "level", "nominal", "level of measurement: nominal, ordinal, interval or ratio")
	fs.IntVar(&f.bootstrap, "bootstrap", 0, "bootstrap replicates for 95% confidence intervals (0: none)")
	fs.Uint64Var(&f.seed, "seed", 1, "bootstrap seed")
	fs.StringVar(&f.clusterKey, "cluster-key", "", "column or field whose value clusters units in the bootstrap")
	fs.StringVar(&f.strataKey, "strata-key", "", "column or field whose value stratifies the bootstrap")
	fs.StringVar(&f.multiSep, "multi-select", "", "values are sets joined by this separator (JSONL arrays are joined by |)")
	fs.StringVar(&f.setMetric, "set-distance", "masi", "set distance for multi-select alpha: jaccard or masi")
	fs.BoolVar(&f.dawidSkene, "dawid-skene", false, "add a Dawid-Skene fit (class prior, rater accuracy)")
	metrics := fs.String("metrics", "all", "comma-separated metrics to compute: alpha, percent, fleiss, scott, conger, gwet, bp, cohen, ordinal, kendall_w, icc, pairwise (or report keys)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if f.input == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: arbiter agreement --input FILE [--format jsonl|csv] --level nominal|ordinal|interval|ratio [--metrics alpha,fleiss,...] [--bootstrap N --seed S] [--cluster-key COL] [--strata-key COL]")
		fs.PrintDefaults()
		return nil, errUsage
	}
	var err error
	if f.metrics, err = agreement.ParseMetrics(*metrics); err != nil {
		return nil, fmt.Errorf("--metrics: %w", err)
	}
	return f, nil
}

// runAgreement reads a ratings file and prints the agreement metrics of its
// level that --metrics asks for (default: all) as one JSON object.
func runAgreement(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseAgreementFlags(args, stderr)
	if err != nil {
		return err
	}
	opts, err := f.readOptions()
	if err != nil {
		return err
	}
	in, closeIn, err := openInput(f.input)
	if err != nil {
		return err
	}
	defer closeIn()
	rep, err := agreement.SummarizeRatings(in, opts, f.reportOptions())
	if err != nil {
		return fmt.Errorf("%s: %w", f.input, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return writeJSON(stdout, rep)
}

func (f *agreementFlags) readOptions() (agreement.ReadOptions, error) {
	level, err := agreement.ParseLevel(f.level)
	if err != nil {
		return agreement.ReadOptions{}, err
	}
	format := agreement.FormatFromName(f.input)
	if f.format != "" {
		if format, err = agreement.ParseFormat(f.format); err != nil {
			return agreement.ReadOptions{}, err
		}
	}
	if f.bootstrap < 0 {
		return agreement.ReadOptions{}, errors.New("--bootstrap must not be negative")
	}
	return agreement.ReadOptions{Format: format, Level: level, ClusterKey: f.clusterKey, StrataKey: f.strataKey}, nil
}

func (f *agreementFlags) reportOptions() agreement.ReportOptions {
	o := agreement.ReportOptions{
		Bootstrap: f.bootstrap, Seed: f.seed,
		SetSeparator: f.multiSep, DawidSkene: f.dawidSkene, Metrics: f.metrics,
	}
	if f.setMetric == "jaccard" {
		o.SetMetric = agreement.Jaccard
	} else {
		o.SetMetric = agreement.MASI
	}
	return o
}

// openInput opens a file, or stdin for "-".
func openInput(name string) (io.Reader, func(), error) {
	if name == "-" {
		return os.Stdin, func() {}, nil
	}
	fh, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return fh, func() { fh.Close() }, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// judgeFlags are the flags of `arbiter judge-eval`.
type judgeFlags struct {
	reference, predictions, compare string
	format, kind, clusterKey        string
	strataKey, questions            string
	bootstrap, intervals            int
	seed                            uint64
	eloK, eloTie                    float64
}

func parseJudgeFlags(args []string, stderr io.Writer) (*judgeFlags, error) {
	f := &judgeFlags{}
	fs := flag.NewFlagSet("judge-eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.reference, "reference", "", "reference labels (JSONL or CSV: unit,value[,question,a,b]), or a release directory (its jsonl records' ground truth)")
	fs.StringVar(&f.questions, "questions", "", "with a release directory: the comma-separated question keys to evaluate (default: every question of the kind)")
	fs.StringVar(&f.predictions, "predictions", "", "the judge's predictions, same layout")
	fs.StringVar(&f.compare, "compare", "", "a second judge's predictions: adds the paired bootstrap of the difference")
	fs.StringVar(&f.format, "format", "", "input format: jsonl or csv (default: from each file's extension)")
	fs.StringVar(&f.kind, "kind", "binary", "label kind: binary, pairwise or score")
	fs.StringVar(&f.clusterKey, "cluster-key", "", "reference column or field that clusters items in the bootstrap")
	fs.StringVar(&f.strataKey, "strata-key", "", "reference column or field that stratifies items in the bootstrap")
	fs.IntVar(&f.bootstrap, "bootstrap", 1000, "bootstrap replicates for --compare")
	fs.IntVar(&f.intervals, "intervals", 0, "bootstrap replicates of the judge's own 95% intervals (0: none)")
	fs.Uint64Var(&f.seed, "seed", 1, "bootstrap seed")
	fs.Float64Var(&f.eloK, "elo-k", 32, "Elo K factor (pairwise rows with a and b players)")
	fs.Float64Var(&f.eloTie, "elo-tie", 0.5, "Elo score of a tie")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if f.reference == "" || f.predictions == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: arbiter judge-eval --reference FILE --predictions FILE [--kind binary|pairwise|score] [--compare FILE]")
		fs.PrintDefaults()
		return nil, errUsage
	}
	return f, nil
}

// runJudgeEval compares a judge's predictions with reference labels and
// prints the judge metrics of the kind as one JSON object.
func runJudgeEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseJudgeFlags(args, stderr)
	if err != nil {
		return err
	}
	kind, err := agreement.ParseJudgeKind(f.kind)
	if err != nil {
		return err
	}
	ref, err := f.readReference(kind)
	if err != nil {
		return err
	}
	pred, err := f.read(f.predictions, "", "")
	if err != nil {
		return err
	}
	var second *agreement.JudgeData
	if f.compare != "" {
		if second, err = f.read(f.compare, "", ""); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	rep, err := agreement.EvaluateJudge(ref, pred, second, agreement.JudgeOptions{
		Kind: kind, Bootstrap: f.bootstrap, Seed: f.seed, Intervals: f.intervals,
		Elo: agreement.EloOptions{K: f.eloK, Tie: f.eloTie},
	})
	if err != nil {
		return err
	}
	return writeJSON(stdout, rep)
}

// readReference reads the reference file, or a release directory's ground truth.
func (f *judgeFlags) readReference(kind agreement.JudgeKind) (*agreement.JudgeData, error) {
	if st, err := os.Stat(f.reference); err == nil && st.IsDir() {
		o := exports.ReleaseJudgeOptions{Kind: kind, ClusterKey: f.clusterKey, StrataKey: f.strataKey}
		if f.questions != "" {
			o.Questions = strings.Split(f.questions, ",")
		}
		jd, err := exports.ReadReleaseJudgeReference(os.DirFS(f.reference), o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.reference, err)
		}
		return jd, nil
	}
	return f.read(f.reference, f.clusterKey, f.strataKey)
}

func (f *judgeFlags) read(name, clusterKey, strataKey string) (*agreement.JudgeData, error) {
	format := agreement.FormatFromName(name)
	if f.format != "" {
		var err error
		if format, err = agreement.ParseFormat(f.format); err != nil {
			return nil, err
		}
	}
	in, closeIn, err := openInput(name)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	jd, err := agreement.ReadJudgeFileStrata(in, format, clusterKey, strataKey)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return jd, nil
}
