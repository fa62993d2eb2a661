//go:build unix

package insight_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

var (
	agreementVsCLI = flag.String("agreement-cli", "", "run TestAgreementAgainstCLI against this arbiter binary")
	agreementRound = flag.Int("agreement-rounds", 5, "rounds of TestAgreementAgainstCLI and TestAgreement1M")
)

// TestAgreementAgainstCLI times the agreement job against `arbiter agreement --metrics alpha`
// and the numpy `krippendorff` package on the same labels, interleaved round by round. It
// generates TestAgreement1M's project with -agreement-labels labels, writes every rating the
// job's four tables hold (each question's answers mapped as the job maps them, one unit per
// item and question, the questions one after another) to a unit,rater,value CSV, checks that
// the command and the package give the same alpha of it, then runs in each round, in an order
// that alternates: the job's work in this process (RunAgreement: read the labels, four
// questions' alpha with its 1000-replicate interval, percent agreement, Fleiss' kappa, Gwet's
// AC1, the annotator pairs, the raw answers' alpha and percent agreement, and keeping the
// figures), the command (a process: start, read the CSV, alpha of all its units), and
// agreement/testdata/krippendorff_alpha.py (KRIPPENDORFF_SRC names the package's source):
//
//	go build -tags no_ui -o /tmp/arbiter ./backend/cmd/arbiter
//	KRIPPENDORFF_SRC=/tmp/krippendorff go test -tags no_ui ./backend/insight -run TestAgreementAgainstCLI \
//	    -agreement-cli /tmp/arbiter -agreement-labels 100000 -agreement-rounds 7 -v -timeout 30m
//
// It reports min / median / max of each one's wall-clock and CPU time and of the per-round
// ratios, with the load average before and after.
func TestAgreementAgainstCLI(t *testing.T) {
	if *agreementVsCLI == "" {
		t.Skip("run with -agreement-cli BINARY")
	}
	st, flow, p, _ := agreementProject(t, *agreementLabels)
	csvPath := filepath.Join(t.TempDir(), "ratings.csv")
	ratings := writeRatingsCSV(t, st, p, csvPath)
	cmds := map[string][]string{
		"cli":    {*agreementVsCLI, "agreement", "--metrics", "alpha", "--format", "csv", "--level", "nominal", "--input", csvPath},
		"python": {"/usr/bin/python3", "../../agreement/testdata/krippendorff_alpha.py", csvPath, "nominal"},
	}
	var cliOut struct {
		Alpha float64 `json:"krippendorff_alpha"`
	}
	out, _, _ := runCommand(t, cmds["cli"])
	pyOut, _, _ := runCommand(t, cmds["python"])
	py, pyErr := strconv.ParseFloat(strings.TrimSpace(string(pyOut)), 64)
	if err := json.Unmarshal(out, &cliOut); err != nil || pyErr != nil || math.Abs(cliOut.Alpha-py) > 1e-12 {
		t.Fatalf("alpha of %d ratings: command %v (%s, %v), krippendorff %v (%v)", ratings, cliOut.Alpha, out, err, py, pyErr)
	}
	t.Logf("%d ratings in %s; alpha %.12f by the command and the package", ratings, csvPath, py)

	names := []string{"job", "cli", "python"}
	wall, cpu := map[string][]time.Duration{}, map[string][]time.Duration{}
	load := testenv.LoadAverage()
	for r := range *agreementRound {
		order := slices.Clone(names)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, n := range order {
			var w, c time.Duration
			if n == "job" {
				w, c = runAgreementJob(t, flow, p)
			} else {
				_, w, c = runCommand(t, cmds[n])
			}
			wall[n], cpu[n] = append(wall[n], w), append(cpu[n], c)
		}
	}
	t.Logf("%d rounds, %d labels, load average before %s, after %s", *agreementRound, *agreementLabels, load, testenv.LoadAverage())
	var b strings.Builder
	fmt.Fprintf(&b, "\n| | wall min / median / max | CPU min / median / max |\n|---|---|---|\n")
	for _, n := range names {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", n, spread(wall[n], ms), spread(cpu[n], ms))
	}
	for _, ratio := range []struct{ name, a, b string }{{"job ÷ cli", "job", "cli"}, {"python ÷ job", "python", "job"}} {
		fmt.Fprintf(&b, "| %s, per round | %s | %s |\n", ratio.name, spread(ratios(wall[ratio.a], wall[ratio.b]), times),
			spread(ratios(cpu[ratio.a], cpu[ratio.b]), times))
	}
	t.Log(b.String())
}

// writeRatingsCSV writes the ratings of the job's mapped tables as unit,rater,value rows, the
// units of one question after another, and returns how many there are.
func writeRatingsCSV(t *testing.T, st *store.Store, p *workflow.Project, path string) int {
	t.Helper()
	var keys []string
	rows := map[string]*bytes.Buffer{}
	for _, q := range p.Schema.Questions {
		if _, err := agreement.ParseLevel(string(tasks.KindOf(q).Level())); err == nil { // as the job picks its questions
			keys, rows[q.Key] = append(keys, q.Key), &bytes.Buffer{}
		}
	}
	n := 0
	err := st.EachProductionLabel(context.Background(), p.ID, false, func(r *store.LabelRow) error {
		var answers map[string]json.RawMessage
		if err := json.Unmarshal(r.Answers, &answers); err != nil {
			return err
		}
		for _, q := range p.Schema.Questions {
			if rows[q.Key] == nil {
				continue
			}
			for _, rt := range insight.AnswerRatings(q, answers[q.Key], false) {
				fmt.Fprintf(rows[q.Key], "%s/%s%s,%s,%s\n", r.ItemID, q.Key, rt.UnitSuffix, r.UserID, rt.Value)
				n++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("unit,rater,value\n")
	for _, k := range keys {
		w.Write(rows[k].Bytes())
	}
	if err := w.Flush(); err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	return n
}

// runCommand runs a command and returns its output, wall-clock time and CPU time.
func runCommand(t *testing.T, argv []string) ([]byte, time.Duration, time.Duration) {
	t.Helper()
	c := osexec.Command(argv[0], argv[1:]...)
	c.Stderr = os.Stderr
	began := time.Now()
	out, err := c.Output()
	wall := time.Since(began)
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(argv, " "), err)
	}
	return out, wall, c.ProcessState.UserTime() + c.ProcessState.SystemTime()
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ratios(a, b []time.Duration) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = float64(a[i]) / float64(b[i])
	}
	return out
}

func spread[T time.Duration | float64](xs []T, show func(T) string) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return show(s[0]) + " / " + show(med) + " / " + show(s[len(s)-1])
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func times(x float64) string { return fmt.Sprintf("%.2f×", x) }
