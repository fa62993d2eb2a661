package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/auth"
)

// simulateOptions are the flags of `arbiter simulate`.
type simulateOptions struct {
	server     string
	token      string
	adminEmail string
	adminPass  string
	items      int
	yesShare   float64
	accuracies []float64
	seeds      int
	policies   []json.RawMessage
}

// simulateSchema is the one binary question the simulated annotators answer.
const simulateSchema = `{"version": 1, "title": "simulation",
 "inputs": [{"name": "prompt", "type": "text", "label": "Prompt"}],
 "questions": [{"key": "correct", "kind": "binary", "label": "Is the output correct?", "required": true}]}`

// defaultSimulatePolicy is fixed overlap 3 decided by the majority.
const defaultSimulatePolicy = `{"overlap": 3, "consensus": {"nominal": "majority"}, "adjudication": "never", "on_no_consensus": "drop"}`

func parseSimulateOptions(args []string, stderr io.Writer) (*simulateOptions, error) {
	fs := flag.NewFlagSet("arbiter simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &simulateOptions{}
	var policies listFlag
	accuracies := "0.80,0.83,0.85,0.88,0.90,0.92"
	fs.StringVar(&o.server, "server", "", "the server's base URL")
	fs.StringVar(&o.token, "token", os.Getenv("ARBITER_TOKEN"), "an administrator's personal access token with the read, manage and admin scopes (ARBITER_TOKEN); or log in with ARBITER_ADMIN_EMAIL and ARBITER_ADMIN_PASSWORD")
	fs.IntVar(&o.items, "items", 300, "items of each simulated project, one binary question each")
	fs.Float64Var(&o.yesShare, "yes-share", 0.5, "share of items whose true answer is yes")
	fs.StringVar(&accuracies, "accuracies", accuracies, "one simulated annotator per accuracy (the chance of answering an item right), comma-separated")
	fs.IntVar(&o.seeds, "seeds", 10, "projects per policy, seeds 1 to N; each seed draws the same truths and annotators' answers under every policy")
	fs.Var(&policies, "policy", "a project workflow policy as JSON; repeat to compare (the first is the baseline); default fixed overlap 3 with majority vote")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	o.adminEmail, o.adminPass = os.Getenv("ARBITER_ADMIN_EMAIL"), os.Getenv("ARBITER_ADMIN_PASSWORD")
	for _, s := range strings.Split(accuracies, ",") {
		a, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || a < 0 || a > 1 {
			return nil, fmt.Errorf("--accuracies: %q is not a share between 0 and 1", s)
		}
		o.accuracies = append(o.accuracies, a)
	}
	if len(policies) == 0 {
		policies = listFlag{defaultSimulatePolicy}
	}
	for i, p := range policies {
		if !json.Valid([]byte(p)) {
			return nil, fmt.Errorf("--policy %d is not JSON", i+1)
		}
		o.policies = append(o.policies, json.RawMessage(p))
	}
	switch {
	case o.server == "":
		return nil, errors.New("--server is required")
	case o.token == "" && (o.adminEmail == "" || o.adminPass == ""):
		return nil, errors.New("an administrator is needed: --token (ARBITER_TOKEN), or ARBITER_ADMIN_EMAIL and ARBITER_ADMIN_PASSWORD")
	case o.items < 1 || o.seeds < 1:
		return nil, errors.New("--items and --seeds must be positive")
	case len(o.accuracies) < 2:
		return nil, errors.New("--accuracies needs at least two annotators")
	case o.yesShare < 0 || o.yesShare > 1:
		return nil, errors.New("--yes-share is a share between 0 and 1")
	}
	o.server = strings.TrimRight(o.server, "/")
	return o, nil
}

// simOutcome is what one simulated project spent and how right its ground truth is.
type simOutcome struct {
	labels, decided, right, items int
	perItem                       map[int]int // labels an item → items
}

// accuracy is the share of all items whose ground truth is right: an item left undecided
// (dropped, or waiting for adjudication) counts as not right.
func (r simOutcome) accuracy() float64 { return float64(r.right) / float64(max(r.items, 1)) }

// runSimulate runs projects of simulated annotators with known accuracies through the real
// API, one per seed and policy, and prints the labels each spent and how often its ground
// truth is right.
func runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseSimulateOptions(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w (see arbiter simulate -h)", err)
	}
	hc := &http.Client{Timeout: time.Minute}
	admin := &loadAPI{http: hc, base: o.server, token: o.token}
	if admin.token == "" {
		if admin.token, err = loginAs(ctx, admin, o.adminEmail, o.adminPass); err != nil {
			return fmt.Errorf("administrator login: %w", err)
		}
	}
	run := strings.ToLower(auth.RandomString(4))
	people := make([]*simPerson, len(o.accuracies))
	for i, acc := range o.accuracies {
		api, id, err := newPerson(ctx, admin, hc, fmt.Sprintf("sim-%s-%02d@simulate.invalid", run, i), fmt.Sprintf("Simulated %s %d (%.2f)", run, i, acc))
		if err != nil {
			return err
		}
		people[i] = &simPerson{api: api, userID: id, accuracy: acc}
	}
	fmt.Fprintf(stdout, "%d simulated annotators, accuracies %v; %d items a project, yes share %g, %d seeds\n",
		len(people), o.accuracies, o.items, o.yesShare, o.seeds)
	results := make([][]simOutcome, len(o.policies))
	for seed := 1; seed <= o.seeds; seed++ {
		for k, pol := range o.policies {
			res, err := simulateProject(ctx, admin, people, o, uint64(seed), pol, run)
			if err != nil {
				return fmt.Errorf("seed %d, policy %d: %w", seed, k+1, err)
			}
			results[k] = append(results[k], res)
			fmt.Fprintf(stdout, "seed %2d policy %d: %d labels (%.2f an item), %d of %d items decided, ground truth right on %d (%.4f of all items, %.4f of those decided), labels per item %s\n",
				seed, k+1, res.labels, float64(res.labels)/float64(res.items), res.decided, res.items, res.right, res.accuracy(),
				float64(res.right)/float64(max(res.decided, 1)), histogram(res.perItem))
		}
	}
	for k := range o.policies {
		fmt.Fprintf(stdout, "policy %d %s\n", k+1, o.policies[k])
		var labels, acc []float64
		for _, r := range results[k] {
			labels, acc = append(labels, float64(r.labels)/float64(r.items)), append(acc, r.accuracy())
		}
		fmt.Fprintf(stdout, "  labels an item %s; ground truth right on a share of all items %s\n", spread(labels), spread(acc))
		if k == 0 {
			continue
		}
		var ratio, diff []float64
		for s, r := range results[k] {
			base := results[0][s]
			ratio = append(ratio, float64(r.labels)/float64(base.labels))
			diff = append(diff, r.accuracy()-base.accuracy())
		}
		fmt.Fprintf(stdout, "  labels ÷ policy 1 %s; accuracy − policy 1 %s\n", spread(ratio), spread(diff))
	}
	return nil
}

// simPerson is one simulated annotator: their token and how often they answer right.
type simPerson struct {
	api      *loadAPI
	userID   string
	accuracy float64
}

// simulateProject creates a project under the policy, imports items whose true answers the
// seed draws, has the annotators claim in an order the seed draws (each answering right with
// their accuracy, by a draw of the seed, the person and the item, so every policy sees the
// same answers) until none has work, and reads back what the project decided.
func simulateProject(ctx context.Context, admin *loadAPI, people []*simPerson, o *simulateOptions, seed uint64, policy json.RawMessage, run string) (simOutcome, error) {
	var p struct{ ID string }
	_, err := admin.do(ctx, "POST", "/api/v1/projects", map[string]any{"name": fmt.Sprintf("simulation %s seed %d", run, seed),
		"schema": json.RawMessage(simulateSchema), "workflow": policy}, &p, nil, 201)
	if err != nil {
		return simOutcome{}, fmt.Errorf("create project: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	truth := make(map[string]bool, o.items)
	var lines strings.Builder
	for i := range o.items {
		ext := fmt.Sprintf("sim-%05d", i)
		truth[ext] = rng.Float64() < o.yesShare
		// note: the prompt names the item, for the simulated annotator who sees no external id
		fmt.Fprintf(&lines, `{"external_id": %q, "inputs": {"prompt": %q}}`+"\n", ext, ext)
	}
	if _, err := admin.do(ctx, "POST", "/api/v1/projects/"+p.ID+"/items", strings.NewReader(lines.String()), nil, nil, 200); err != nil {
		return simOutcome{}, fmt.Errorf("import items: %w", err)
	}
	base := "/api/v1/projects/" + p.ID
	for _, person := range people {
		if _, err := admin.do(ctx, "PUT", base+"/members/"+person.userID, map[string]any{"roles": []string{"annotator"}}, nil, nil, 200); err != nil {
			return simOutcome{}, fmt.Errorf("member: %w", err)
		}
	}
	open := make([]int, len(people))
	for i := range open {
		open[i] = i
	}
	for len(open) > 0 {
		i := rng.IntN(len(open))
		person := people[open[i]]
		var cl struct {
			Assignment struct{ ID string } `json:"assignment"`
			Item       struct {
				Item struct {
					Inputs struct{ Prompt string } `json:"inputs"`
				} `json:"item"`
			} `json:"item"`
		}
		st, err := person.api.do(ctx, "POST", base+"/queue/next", map[string]string{"stage": "label"}, &cl, nil, 200, 204)
		if err != nil {
			return simOutcome{}, fmt.Errorf("claim: %w", err)
		}
		if st == http.StatusNoContent {
			open = slices.Delete(open, i, i+1)
			continue
		}
		ext := cl.Item.Item.Inputs.Prompt
		right, ok := truth[ext]
		if !ok {
			return simOutcome{}, fmt.Errorf("claim %s: item %q is not one of the simulation's", cl.Assignment.ID, ext)
		}
		answer := right == (answerDraw(seed, open[i], ext) < person.accuracy)
		body := map[string]any{"answers": map[string]string{"correct": map[bool]string{true: "yes", false: "no"}[answer]}, "time_spent_ms": 4000}
		if _, err := person.api.do(ctx, "POST", base+"/assignments/"+cl.Assignment.ID+"/submit", body, nil,
			map[string]string{"Idempotency-Key": cl.Assignment.ID}, 200); err != nil {
			return simOutcome{}, fmt.Errorf("submit: %w", err)
		}
	}
	return readOutcome(ctx, admin, base, truth)
}

// answerDraw is person's draw in [0, 1) for an item under a seed: the same whatever the policy,
// so that policies are compared on the same answers.
func answerDraw(seed uint64, person int, ext string) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%s", seed, person, ext)
	return rand.New(rand.NewPCG(h.Sum64(), seed)).Float64()
}

// readOutcome pages through the project's items and counts the submitted labels and the
// decided items whose ground truth is the simulated truth.
func readOutcome(ctx context.Context, admin *loadAPI, base string, truth map[string]bool) (simOutcome, error) {
	out := simOutcome{perItem: map[int]int{}}
	for cursor := ""; ; {
		var page struct {
			Items []struct {
				ExternalID  string                    `json:"external_id"`
				Stage       string                    `json:"stage"`
				Annotations []struct{ Status string } `json:"annotations"`
				GroundTruth *struct {
					Answers map[string]string `json:"answers"`
				} `json:"ground_truth"`
			} `json:"items"`
			NextCursor string `json:"next_cursor"`
		}
		if _, err := admin.do(ctx, "GET", base+"/items?limit=500&cursor="+url.QueryEscape(cursor), nil, &page, nil, 200); err != nil {
			return out, fmt.Errorf("read items: %w", err)
		}
		for _, it := range page.Items {
			out.items++
			n := 0
			for _, a := range it.Annotations {
				if a.Status == "submitted" {
					n++
				}
			}
			out.labels += n
			out.perItem[n]++
			if it.Stage == "done" && it.GroundTruth != nil {
				out.decided++
				if (it.GroundTruth.Answers["correct"] == "yes") == truth[it.ExternalID] {
					out.right++
				}
			}
		}
		if cursor = page.NextCursor; cursor == "" {
			return out, nil
		}
	}
}

// histogram prints items by labels spent, fewest labels first: "2:180 3:90 4:30".
func histogram(perItem map[int]int) string {
	var keys []int
	for k := range perItem {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d:%d", k, perItem[k])
	}
	return strings.Join(parts, " ")
}

// spread prints min / median / max.
func spread(xs []float64) string {
	s := slices.Sorted(slices.Values(xs))
	return fmt.Sprintf("min %.4f / median %.4f / max %.4f", s[0], median(s), s[len(s)-1])
}

// newPerson creates an account, logs it in and gives it a personal access token to annotate with.
func newPerson(ctx context.Context, admin *loadAPI, hc *http.Client, email, name string) (*loadAPI, string, error) {
	password := auth.GeneratePassword()
	var u struct{ ID string }
	if _, err := admin.do(ctx, "POST", "/api/v1/users", map[string]any{"email": email, "name": name, "password": password}, &u, nil, 201); err != nil {
		return nil, "", fmt.Errorf("create %s: %w", email, err)
	}
	api := &loadAPI{http: hc, base: admin.base}
	session, err := loginAs(ctx, api, email, password)
	if err != nil {
		return nil, "", fmt.Errorf("login %s: %w", email, err)
	}
	api.token = session
	var tok struct{ Token string }
	if _, err := api.do(ctx, "POST", "/api/v1/me/tokens", map[string]any{"name": "simulation", "scopes": []string{"read", "annotate"}}, &tok, nil, 201); err != nil {
		return nil, "", fmt.Errorf("token %s: %w", email, err)
	}
	api.token = tok.Token
	return api, u.ID, nil
}
