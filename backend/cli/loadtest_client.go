package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// loadAPI is the HTTP side of a load test: one bearer token against one server.
type loadAPI struct {
	http  *http.Client
	base  string
	token string
}

// apiStatusError is an answer with an unexpected status.
type apiStatusError struct {
	Status     int
	Body       string
	RetryAfter time.Duration
}

func (e *apiStatusError) Error() string {
	return fmt.Sprintf("status %d: %s", e.Status, strings.TrimSpace(e.Body))
}

// do sends a JSON request and decodes a JSON answer into out when the status is one of want.
func (a *loadAPI) do(ctx context.Context, method, path string, body any, out any, headers map[string]string, want ...int) (int, error) {
	var r io.Reader
	ctype := "application/json"
	switch b := body.(type) {
	case nil:
	case json.RawMessage:
		r = bytes.NewReader(b)
	case io.Reader:
		r, ctype = b, "application/x-ndjson"
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return 0, err
		}
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, r)
	if err != nil {
		return 0, err
	}
	if r != nil {
		req.Header.Set("Content-Type", ctype)
	}
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := a.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, err
	}
	for _, w := range want {
		if res.StatusCode == w {
			if out != nil && len(data) > 0 && res.StatusCode != http.StatusNoContent {
				return res.StatusCode, json.Unmarshal(data, out)
			}
			return res.StatusCode, nil
		}
	}
	e := &apiStatusError{Status: res.StatusCode, Body: string(data)}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return res.StatusCode, e
}

// retrying repeats f while the server answers 503 or 429 (honouring Retry-After, at most
// a minute in all).
func retrying(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(time.Minute)
	for {
		err := f()
		e, ok := err.(*apiStatusError)
		if !ok || (e.Status != http.StatusServiceUnavailable && e.Status != http.StatusTooManyRequests) || time.Now().After(deadline) {
			return err
		}
		wait := max(e.RetryAfter, 200*time.Millisecond)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(wait, 5*time.Second)):
		}
	}
}

// endpoints measured by the load test, in report order.
var endpoints = []string{"claim", "draft", "submit", "skip"}

// tally collects what the annotators did: latencies per endpoint, counts, errors.
type tally struct {
	mu        sync.Mutex
	latencies map[string][]time.Duration
	errors    map[string]int // "endpoint status" → count
	claims    int
	empty     int // claims answered 204: nothing left
	submits   int
	skips     int
	acked     []string // assignment ids of acknowledged submits
}

func newTally() *tally {
	return &tally{latencies: map[string][]time.Duration{}, errors: map[string]int{}}
}

func (t *tally) observe(endpoint string, d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.latencies[endpoint] = append(t.latencies[endpoint], d)
}

func (t *tally) fail(endpoint string, status int, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := endpoint + " " + strconv.Itoa(status)
	if status == 0 {
		key = endpoint + " " + errClass(err)
	}
	t.errors[key]++
}

func (t *tally) add(f func(t *tally)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f(t)
}

// snapshot returns the counts so far, for the progress line.
func (t *tally) snapshot() (claims, submits, errs int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range t.errors {
		errs += n
	}
	return t.claims, t.submits, errs
}

// errClass names a transport error briefly.
func errClass(err error) string {
	switch s := err.Error(); {
	case strings.Contains(s, "connection refused"):
		return "refused"
	case strings.Contains(s, "EOF"), strings.Contains(s, "reset"):
		return "connection-lost"
	case strings.Contains(s, "deadline"), strings.Contains(s, "timeout"):
		return "timeout"
	default:
		return "transport"
	}
}

// percentile returns the p-th percentile (0–100) of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p / 100)
	return sorted[i]
}

// latencyLine is "claim p50 … p95 … p99 …" per endpoint with samples.
func (t *tally) latencyLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var parts []string
	for _, ep := range endpoints {
		l := t.latencies[ep]
		if len(l) == 0 {
			continue
		}
		s := append([]time.Duration(nil), l...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		parts = append(parts, fmt.Sprintf("%s p50 %s p95 %s p99 %s (n=%d)", ep, ms(percentile(s, 50)), ms(percentile(s, 95)), ms(percentile(s, 99)), len(s)))
	}
	return strings.Join(parts, "; ")
}

// p99 is the 99th percentile of an endpoint.
func (t *tally) p99(endpoint string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := append([]time.Duration(nil), t.latencies[endpoint]...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return percentile(s, 99)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// annotator is one simulated person: their own account and token, on one of the servers.
type annotator struct {
	api       *loadAPI
	servers   []string // every server; a person whose server fails goes on at the next
	project   string
	untilDone bool // stop when the queue has no more work for this person
	// walkAway makes a person whose server fails leave holding a claim: the one they had
	// open, or, once their submit in flight went through elsewhere, the next item their
	// browser opened there. These are the leases a dead replica's users leave behind.
	walkAway   bool
	leaving    bool // the server failed; leave holding the next claim
	gone       bool
	rng        *rand.Rand
	skipRate   float64
	draft      bool
	answers    json.RawMessage // made from the schema of the first claim
	submitBody json.RawMessage // {"answers": answers}, the same for every submit
}

// claimHead is the part of a claim's answer the annotator reads on every claim.
type claimHead struct {
	Assignment struct {
		ID      string `json:"id"`
		Version int    `json:"version"`
	} `json:"assignment"`
}

// claimBody is the first claim's answer, with the schema the answers are made from.
type claimBody struct {
	claimHead
	Item struct {
		Schema tasks.Schema `json:"schema"`
	} `json:"item"`
}

// claimBodyJSON is the body of every claim.
var claimBodyJSON = json.RawMessage(`{"stage":"label"}`)

// draftBody is an autosave's body, {"answers": …, "version": …}, written without encoding the
// answers again.
func (a *annotator) draftBody(version int) json.RawMessage {
	b := append(append(append(make([]byte, 0, len(a.answers)+32), `{"answers":`...), a.answers...), `,"version":`...)
	return append(strconv.AppendInt(b, int64(version), 10), '}')
}

// work claims, drafts, submits (or now and then skips) until stop, counting into t.
func (a *annotator) work(ctx context.Context, stop time.Time, t *tally) {
	project := "/api/v1/projects/" + a.project
	empty := 0
	for time.Now().Before(stop) && ctx.Err() == nil && !a.gone {
		// note: the schema is decoded from the first claim only; the answers are encoded once
		var cl claimBody
		out := any(&cl.claimHead)
		if a.answers == nil {
			out = &cl
		}
		start := time.Now()
		st, err := a.api.do(ctx, "POST", project+"/queue/next", claimBodyJSON, out, nil, 200, 204)
		t.observe("claim", time.Since(start))
		if err != nil {
			t.fail("claim", st, err)
			a.failover(st)
			pause(ctx, 100*time.Millisecond)
			continue
		}
		if st == http.StatusNoContent {
			t.add(func(t *tally) { t.empty++ })
			if empty++; a.untilDone && empty >= 3 {
				return
			}
			pause(ctx, 200*time.Millisecond)
			continue
		}
		empty = 0
		t.add(func(t *tally) { t.claims++ })
		if a.leaving {
			a.gone = true
			return
		}
		if a.answers == nil {
			if a.answers, err = json.Marshal(cl.Item.Schema.ExampleAnswers()); err != nil {
				t.fail("claim", st, err)
				return
			}
			a.submitBody = json.RawMessage(`{"answers":` + string(a.answers) + `}`)
		}
		aid := cl.Assignment.ID
		path := project + "/assignments/" + aid
		if a.rng.Float64() < a.skipRate {
			a.timed(ctx, t, "skip", "POST", path+"/skip", map[string]string{"reason": "load test"}, nil, 204)
			t.add(func(t *tally) { t.skips++ })
			continue
		}
		if a.draft {
			a.timed(ctx, t, "draft", "PUT", path+"/draft", a.draftBody(cl.Assignment.Version), nil, 200)
		}
		if a.leaving {
			a.gone = true
			return
		}
		a.submit(ctx, t, path, aid)
	}
}

// submit submits with the assignment id as Idempotency-Key, retrying a lost connection so
// that every submit the server applied is known.
func (a *annotator) submit(ctx context.Context, t *tally, path, aid string) {
	hdr := map[string]string{"Idempotency-Key": aid}
	for try := 0; try < 5; try++ {
		start := time.Now()
		st, err := a.api.do(context.WithoutCancel(ctx), "POST", path+"/submit", a.submitBody, nil, hdr, 200)
		t.observe("submit", time.Since(start))
		if err == nil {
			t.add(func(t *tally) { t.submits++; t.acked = append(t.acked, aid) })
			return
		}
		t.fail("submit", st, err)
		if st != 0 && st != http.StatusServiceUnavailable {
			return // a verdict, not an outage: the submit was not applied
		}
		a.failover(st)
		pause(ctx, 200*time.Millisecond)
	}
}

func (a *annotator) timed(ctx context.Context, t *tally, endpoint, method, path string, body, out any, want int) {
	start := time.Now()
	st, err := a.api.do(ctx, method, path, body, out, nil, want)
	t.observe(endpoint, time.Since(start))
	if err != nil {
		t.fail(endpoint, st, err)
		a.failover(st)
	}
}

// failover moves to the next server when this one did not answer at all (status 0), as a
// browser behind a load balancer would.
func (a *annotator) failover(status int) {
	if status != 0 || len(a.servers) < 2 {
		return
	}
	i := slices.Index(a.servers, a.api.base)
	a.api.base = a.servers[(i+1)%len(a.servers)]
	a.leaving = a.walkAway
}

func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
