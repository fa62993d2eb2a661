package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/deploy/bench"
)

// benchDB is the load test's view of the servers' database: pgbench beside the servers on
// PostgreSQL, and the check of what was stored.
type benchDB struct {
	st      *store.Store // nil without --database-url
	pgbench string       // path of pgbench; empty when it does not run
	url     string
	scripts []benchScript
	local   bool // PostgreSQL runs on this machine: its CPU time is measured
}

// benchScript is one pgbench script, written to a temporary file.
type benchScript struct {
	name string // submit: one label; unit: claim, autosave and submit
	file string
}

// benchScripts are the scripts the load test runs after each round, in order.
var benchScripts = []struct{ name, text string }{{"submit", bench.Submit}, {"unit", bench.Unit}}

func newBench(ctx context.Context, o *loadOptions, stdout io.Writer) (*benchDB, error) {
	b := &benchDB{url: o.databaseURL}
	if o.databaseURL == "" {
		fmt.Fprintln(stdout, "no --database-url: the stored submits are not verified and pgbench does not run")
		return b, nil
	}
	st, err := store.OpenPool(ctx, o.databaseURL, store.Pool{MaxOpen: 2})
	if err != nil {
		return nil, err
	}
	st.UseCache(0)
	b.st = st
	b.local = st.Dialect() == store.Postgres && localDatabase(o.databaseURL)
	if st.Dialect() != store.Postgres || o.pgbench == "off" {
		return b, nil
	}
	path, err := exec.LookPath(o.pgbench)
	if err != nil {
		fmt.Fprintf(stdout, "%s not found: pgbench does not run\n", o.pgbench)
		return b, nil
	}
	if _, err := st.SQL().ExecContext(ctx, bench.Setup); err != nil {
		return nil, fmt.Errorf("pgbench tables: %w", err)
	}
	for _, sc := range benchScripts {
		f, err := os.CreateTemp("", "arbiter-bench-"+sc.name+"-*.sql")
		if err != nil {
			b.close()
			return nil, err
		}
		b.scripts = append(b.scripts, benchScript{name: sc.name, file: f.Name()})
		_, err = f.WriteString(sc.text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			b.close()
			return nil, err
		}
	}
	b.pgbench = path
	return b, nil
}

func (b *benchDB) enabled() bool { return b.pgbench != "" }

func (b *benchDB) close() {
	for _, sc := range b.scripts {
		os.Remove(sc.file)
	}
	if b.st != nil {
		b.st.Close()
	}
}

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)

// run runs a pgbench script with the clients for the duration and returns its TPS.
func (b *benchDB) run(ctx context.Context, sc benchScript, clients int, d time.Duration) (float64, error) {
	conn, err := pgbenchURL(b.url)
	if err != nil {
		return 0, err
	}
	threads := min(clients, 4)
	cmd := exec.CommandContext(ctx, b.pgbench, "-n", "-c", strconv.Itoa(clients), "-j", strconv.Itoa(threads),
		"-T", strconv.Itoa(max(1, int(d.Seconds()))), "-f", sc.file, conn)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("pgbench %s.sql: %w\n%s", sc.name, err, out.String())
	}
	m := tpsLine.FindStringSubmatch(out.String())
	if m == nil {
		return 0, fmt.Errorf("pgbench %s.sql printed no tps:\n%s", sc.name, out.String())
	}
	return strconv.ParseFloat(m[1], 64)
}

// pgbenchURL is the database URL as libpq takes it, with the pgbench schema first on the
// search path (the server's own query parameters, such as search_path, are not libpq's).
func pgbenchURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	q := url.Values{}
	for _, k := range []string{"sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name"} {
		if v := u.Query().Get(k); v != "" {
			q.Set(k, v)
		}
	}
	q.Set("options", "-csearch_path="+bench.Schema)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// verify checks that the database holds exactly the acknowledged submits of this run's
// annotators: each acknowledged assignment submitted, with one submit revision, and no other.
func (b *benchDB) verify(ctx context.Context, stdout io.Writer, project, run string, acked []string) error {
	if b.st == nil {
		return nil
	}
	q := `SELECT a.id, (SELECT count(*) FROM assignment_revisions r WHERE r.assignment_id = a.id AND r.kind = 'submit')
FROM assignments a JOIN users u ON u.id = a.user_id
WHERE a.project_id = $1 AND u.email LIKE $2 AND a.status = 'submitted'`
	if b.st.Dialect() == store.SQLite {
		q = strings.NewReplacer("$1", "?", "$2", "?").Replace(q)
	}
	rows, err := b.st.SQL().QueryContext(ctx, q, project, "load-"+strings.ToLower(run)+"-%")
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer rows.Close()
	stored := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return err
		}
		stored[id] = n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return checkStored(stdout, acked, stored)
}

// checkStored compares the acknowledged submits with the stored ones.
func checkStored(stdout io.Writer, acked []string, stored map[string]int) error {
	seen := map[string]bool{}
	var missing, twice, unacked []string
	for _, id := range acked {
		if seen[id] {
			twice = append(twice, id+" (acknowledged twice)")
		}
		seen[id] = true
		switch n := stored[id]; {
		case n == 0:
			missing = append(missing, id)
		case n > 1:
			twice = append(twice, fmt.Sprintf("%s (%d submit revisions)", id, n))
		}
	}
	for id := range stored {
		if !seen[id] {
			unacked = append(unacked, id)
		}
	}
	fmt.Fprintf(stdout, "verify: %d acknowledged submits, %d submitted assignments stored", len(acked), len(stored))
	if len(missing)+len(twice)+len(unacked) == 0 {
		fmt.Fprintln(stdout, ": each acknowledged submit stored exactly once")
		return nil
	}
	fmt.Fprintln(stdout)
	sort.Strings(missing)
	return fmt.Errorf("the database does not hold exactly the acknowledged submits: missing %d %v, more than once %d %v, stored without acknowledgement %d %v",
		len(missing), head(missing), len(twice), head(twice), len(unacked), head(unacked))
}

func head(s []string) []string { return s[:min(len(s), 5)] }

// summarize prints min/median/max over the rounds.
func summarize(w io.Writer, rounds []roundResult, withBench bool) {
	if len(rounds) == 0 {
		return
	}
	col := func(f func(r roundResult) float64) (lo, mid, hi float64) {
		v := make([]float64, len(rounds))
		for i, r := range rounds {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[0], median(v), v[len(v)-1]
	}
	lo, mid, hi := col(func(r roundResult) float64 { return r.submitsPerSec })
	fmt.Fprintf(w, "summary over %d rounds (min / median / max)\n  submits/s  %.1f / %.1f / %.1f\n", len(rounds), lo, mid, hi)
	lo, mid, hi = col(func(r roundResult) float64 { return r.claimP99.Seconds() * 1000 })
	fmt.Fprintf(w, "  claim p99  %.1fms / %.1fms / %.1fms\n", lo, mid, hi)
	if withBench {
		for i, sc := range benchScripts {
			lo, mid, hi = col(func(r roundResult) float64 { return r.tps[i] })
			fmt.Fprintf(w, "  pgbench %-6s  %.0f / %.0f / %.0f tps\n", sc.name, lo, mid, hi)
			lo, mid, hi = col(func(r roundResult) float64 { return r.submitsPerSec / r.tps[i] })
			fmt.Fprintf(w, "  ratio   %-6s  %.3f / %.3f / %.3f (submits/s ÷ pgbench %s.sql tps, per round)\n", sc.name, lo, mid, hi, sc.name)
		}
	}
	if rounds[0].dbCPU[0] > 0 {
		lo, mid, hi = col(func(r roundResult) float64 { return r.dbCPU[0].Seconds() * 1000 })
		fmt.Fprintf(w, "  database CPU per submit       %.2fms / %.2fms / %.2fms\n", lo, mid, hi)
		for i, sc := range benchScripts {
			if !withBench {
				break
			}
			lo, mid, hi = col(func(r roundResult) float64 { return r.dbCPU[i+1].Seconds() * 1000 })
			fmt.Fprintf(w, "  database CPU per %s.sql tx  %.2fms / %.2fms / %.2fms\n", sc.name, lo, mid, hi)
		}
	}
	var loads []string
	for _, r := range rounds {
		loads = append(loads, r.load)
	}
	fmt.Fprintf(w, "  load average at the start of each round: %s\n", strings.Join(loads, " | "))
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// loadAverage is the 1, 5 and 15 minute load average of the machine, where the system tells.
func loadAverage() string {
	b, err := os.ReadFile(filepath.Join("/proc", "loadavg"))
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
