package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/auth"
)

// loadOptions are the flags of `arbiter loadtest`.
type loadOptions struct {
	servers     []string
	token       string
	adminEmail  string
	adminPass   string
	project     string
	items       int
	clients     int
	duration    time.Duration
	rounds      int
	skipRate    float64
	draft       bool
	databaseURL string
	pgbench     string
	progress    time.Duration
	untilDone   bool
}

func parseLoadOptions(args []string, stderr io.Writer) (*loadOptions, error) {
	fs := flag.NewFlagSet("arbiter loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &loadOptions{}
	var servers listFlag
	fs.Var(&servers, "server", "server base URL; repeat (or separate with commas) to spread the annotators over replicas")
	fs.StringVar(&o.token, "token", os.Getenv("ARBITER_TOKEN"), "an administrator's personal access token with the read, manage and admin scopes (ARBITER_TOKEN); or log in with ARBITER_ADMIN_EMAIL and ARBITER_ADMIN_PASSWORD")
	fs.StringVar(&o.project, "project", "", "run on this existing project (its label stage) instead of creating one")
	fs.IntVar(&o.items, "items", 10000, "items of the likert-rating project (overlap 3) the test creates")
	fs.IntVar(&o.clients, "clients", 16, "simulated annotators, each with an account and token of their own")
	fs.DurationVar(&o.duration, "duration", 30*time.Second, "length of each round of annotation (and of pgbench)")
	fs.IntVar(&o.rounds, "rounds", 1, "rounds, each annotation then pgbench, interleaved")
	fs.Float64Var(&o.skipRate, "skip-rate", 0.05, "share of claims that are skipped instead of submitted")
	fs.BoolVar(&o.draft, "draft", true, "autosave a draft before each submit")
	fs.StringVar(&o.databaseURL, "database-url", os.Getenv("ARBITER_DATABASE_URL"), "the servers' database, to verify the stored submits and to run pgbench against (ARBITER_DATABASE_URL)")
	fs.StringVar(&o.pgbench, "pgbench", "pgbench", "the pgbench program, run on PostgreSQL when found; \"off\" to skip it")
	fs.BoolVar(&o.untilDone, "until-done", false, "an annotator stops early when the queue has no more work for them")
	fs.DurationVar(&o.progress, "progress", 2*time.Second, "interval of the progress line; 0 for none")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	o.servers = splitFormats(servers)
	o.adminEmail, o.adminPass = os.Getenv("ARBITER_ADMIN_EMAIL"), os.Getenv("ARBITER_ADMIN_PASSWORD")
	switch {
	case len(o.servers) == 0:
		return nil, errors.New("--server is required")
	case o.token == "" && (o.adminEmail == "" || o.adminPass == ""):
		return nil, errors.New("an administrator is needed: --token (ARBITER_TOKEN), or ARBITER_ADMIN_EMAIL and ARBITER_ADMIN_PASSWORD")
	case o.clients < 1 || o.rounds < 1 || o.duration <= 0 || (o.project == "" && o.items < 1):
		return nil, errors.New("--clients, --rounds, --duration and --items must be positive")
	case o.skipRate < 0 || o.skipRate > 1:
		return nil, errors.New("--skip-rate is a share between 0 and 1")
	}
	for i, s := range o.servers {
		o.servers[i] = strings.TrimRight(s, "/")
	}
	return o, nil
}

// runLoadtest drives simulated annotators against running servers, runs pgbench beside them
// and checks the database afterwards.
func runLoadtest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseLoadOptions(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w (see arbiter loadtest -h)", err)
	}
	hc := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: o.clients + 4}}
	admin := &loadAPI{http: hc, base: o.servers[0], token: o.token}
	if admin.token == "" {
		if admin.token, err = loginAs(ctx, admin, o.adminEmail, o.adminPass); err != nil {
			return fmt.Errorf("administrator login: %w", err)
		}
	}
	run := auth.RandomString(4)
	if o.project == "" {
		if o.project, err = createLoadProject(ctx, admin, o.items, stdout); err != nil {
			return err
		}
	}
	people, err := enrol(ctx, admin, hc, o, run, stdout)
	if err != nil {
		return err
	}
	bench, err := newBench(ctx, o, stdout)
	if err != nil {
		return err
	}
	defer bench.close()
	all := newTally()
	var rounds []roundResult
	for r := 1; r <= o.rounds && ctx.Err() == nil; r++ {
		res := roundResult{load: loadAverage()}
		fmt.Fprintf(stdout, "round %d/%d  load average %s\n", r, o.rounds, res.load)
		cpu := startDBCPU(bench.local)
		t := annotate(ctx, people, o, stderr)
		res.submitsPerSec = float64(t.submits) / o.duration.Seconds()
		res.dbCPU = append(res.dbCPU, cpu.perUnit(float64(t.submits)))
		res.claimP99 = t.p99("claim")
		_, _, nerr := t.snapshot()
		fmt.Fprintf(stdout, "  arbiter  %d clients %s: claims %d (%.1f/s), submits %d (%.1f/s), skips %d, no work %d, errors %d\n",
			o.clients, o.duration, t.claims, float64(t.claims)/o.duration.Seconds(), t.submits, res.submitsPerSec, t.skips, t.empty, nerr)
		fmt.Fprintf(stdout, "           %s\n", t.latencyLine())
		if res.dbCPU[0] > 0 {
			fmt.Fprintf(stdout, "           database CPU %s per submit\n", res.dbCPU[0].Round(time.Microsecond))
		}
		for k, n := range t.errors {
			fmt.Fprintf(stdout, "           error %s: %d\n", k, n)
		}
		for _, sc := range bench.scripts {
			cpu := startDBCPU(bench.local)
			tps, err := bench.run(ctx, sc, o.clients, o.duration)
			if err != nil {
				return err
			}
			res.tps = append(res.tps, tps)
			res.dbCPU = append(res.dbCPU, cpu.perUnit(tps*o.duration.Seconds()))
			fmt.Fprintf(stdout, "  pgbench  %s.sql %d clients %s: %.0f tps; submits/s ÷ tps = %.3f", sc.name, o.clients, o.duration, tps, res.submitsPerSec/tps)
			if d := res.dbCPU[len(res.dbCPU)-1]; d > 0 {
				fmt.Fprintf(stdout, "; database CPU %s per transaction", d.Round(time.Microsecond))
			}
			fmt.Fprintln(stdout)
		}
		rounds = append(rounds, res)
		all.merge(t)
	}
	summarize(stdout, rounds, bench.enabled())
	return bench.verify(ctx, stdout, o.project, run, all.acked)
}

// roundResult is one round's figures.
type roundResult struct {
	load          string
	submitsPerSec float64
	tps           []float64 // per pgbench script, in benchScripts' order
	// dbCPU is the local database's CPU time per submit, then per transaction of each
	// pgbench script; zeros where it is not measured
	dbCPU    []time.Duration
	claimP99 time.Duration
}

// merge adds another tally's acknowledged submits.
func (t *tally) merge(o *tally) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.acked = append(t.acked, o.acked...)
	t.submits += o.submits
}

// loginAs signs in with a password and returns the access token, waiting out 503 and 429.
func loginAs(ctx context.Context, a *loadAPI, email, password string) (string, error) {
	var pair struct {
		AccessToken string `json:"access_token"`
	}
	err := retrying(ctx, func() error {
		_, err := a.do(ctx, "POST", "/api/v1/auth/login", map[string]string{"email": email, "password": password}, &pair, nil, 200)
		return err
	})
	return pair.AccessToken, err
}

// createLoadProject creates a likert-rating project with overlap 3 and n generated items.
func createLoadProject(ctx context.Context, admin *loadAPI, n int, stdout io.Writer) (string, error) {
	var p struct{ ID string }
	_, err := admin.do(ctx, "POST", "/api/v1/projects", map[string]any{"name": fmt.Sprintf("load test %s", time.Now().UTC().Format(time.DateTime)),
		"template": "likert-rating", "workflow": map[string]any{"overlap": 3}}, &p, nil, 201)
	if err != nil {
		return "", fmt.Errorf("create project: %w", err)
	}
	start := time.Now()
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < n; i++ {
			_, err := fmt.Fprintf(pw, `{"external_id":"load-%07d","inputs":{"prompt":"A photograph of object %d on a table, natural light.","output":[{"id":"o1","type":"text","value":"Generated description %d of the scene."}]}}`+"\n", i, i, i)
			if err != nil {
				return
			}
		}
		pw.Close()
	}()
	var rep struct {
		Imported int `json:"imported"`
		Errors   []any
	}
	// note: a million items take minutes to import; the import alone waits as long as it takes
	importer := *admin
	importer.http = &http.Client{Transport: admin.http.Transport}
	if _, err := importer.do(ctx, "POST", "/api/v1/projects/"+p.ID+"/items", pr, &rep, nil, 200); err != nil {
		return "", fmt.Errorf("import items: %w", err)
	}
	if rep.Imported != n {
		return "", fmt.Errorf("import items: %d of %d imported: %v", rep.Imported, n, rep.Errors)
	}
	fmt.Fprintf(stdout, "project %s: %d items imported in %s (%.0f items/s)\n", p.ID, n, time.Since(start).Round(time.Millisecond), float64(n)/time.Since(start).Seconds())
	return p.ID, nil
}

// enrol creates the annotators' accounts, makes them annotators of the project, logs each in
// and gives each a personal access token; annotator i talks to server i mod len(servers).
func enrol(ctx context.Context, admin *loadAPI, hc *http.Client, o *loadOptions, run string, stdout io.Writer) ([]*annotator, error) {
	start := time.Now()
	people := make([]*annotator, o.clients)
	errs := make([]error, o.clients)
	sem := make(chan struct{}, 4) // note: logins hash passwords; a few at a time
	var wg sync.WaitGroup
	for i := range people {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			people[i], errs[i] = enrolOne(ctx, admin, hc, o, run, i)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("enrol annotators: %w", err)
	}
	fmt.Fprintf(stdout, "%d annotators enrolled (account, membership, login, token) in %s\n", o.clients, time.Since(start).Round(time.Millisecond))
	return people, nil
}

func enrolOne(ctx context.Context, admin *loadAPI, hc *http.Client, o *loadOptions, run string, i int) (*annotator, error) {
	email := fmt.Sprintf("load-%s-%03d@loadtest.invalid", strings.ToLower(run), i)
	password := auth.GeneratePassword()
	var u struct{ ID string }
	if _, err := admin.do(ctx, "POST", "/api/v1/users", map[string]any{"email": email, "name": fmt.Sprintf("Load %s %d", run, i), "password": password}, &u, nil, 201); err != nil {
		return nil, fmt.Errorf("create %s: %w", email, err)
	}
	if _, err := admin.do(ctx, "PUT", "/api/v1/projects/"+o.project+"/members/"+u.ID, map[string]any{"roles": []string{"annotator"}}, nil, nil, 200); err != nil {
		return nil, fmt.Errorf("member %s: %w", email, err)
	}
	api := &loadAPI{http: hc, base: o.servers[i%len(o.servers)]}
	session, err := loginAs(ctx, api, email, password)
	if err != nil {
		return nil, fmt.Errorf("login %s: %w", email, err)
	}
	api.token = session
	var tok struct{ Token string }
	if _, err := api.do(ctx, "POST", "/api/v1/me/tokens", map[string]any{"name": "load test", "scopes": []string{"read", "annotate"}}, &tok, nil, 201); err != nil {
		return nil, fmt.Errorf("token %s: %w", email, err)
	}
	api.token = tok.Token
	return &annotator{api: api, servers: o.servers, untilDone: o.untilDone, project: o.project, rng: rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano()))),
		skipRate: o.skipRate, draft: o.draft}, nil
}

// annotate runs every annotator for the duration, with a progress line on stderr.
func annotate(ctx context.Context, people []*annotator, o *loadOptions, stderr io.Writer) *tally {
	t := newTally()
	start := time.Now()
	stop := start.Add(o.duration)
	var wg sync.WaitGroup
	for _, a := range people {
		wg.Add(1)
		go func() { defer wg.Done(); a.work(ctx, stop, t) }()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var tick <-chan time.Time
	if o.progress > 0 {
		tk := time.NewTicker(o.progress)
		defer tk.Stop()
		tick = tk.C
	}
	for {
		select {
		case <-done:
			if o.progress > 0 {
				fmt.Fprint(stderr, "\r\033[K")
			}
			return t
		case <-tick:
			claims, submits, errs := t.snapshot()
			el := time.Since(start).Seconds()
			fmt.Fprintf(stderr, "\r\033[K%4.0fs  claims %d (%.1f/s)  submits %d (%.1f/s)  errors %d", el, claims, float64(claims)/el, submits, float64(submits)/el, errs)
		}
	}
}
