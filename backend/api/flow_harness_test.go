package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// claimResp is the body of POST /queue/next.
type claimResp struct {
	Assignment struct {
		ID      string `json:"id"`
		Stage   string `json:"stage"`
		Version int    `json:"version"`
	} `json:"assignment"`
	Item struct {
		Schema tasks.Schema                                `json:"schema"`
		Item   struct{ Inputs map[string]json.RawMessage } `json:"item"`
	} `json:"item"`
	Draft   tasks.Answers  `json:"draft"`
	Context map[string]any `json:"context"`
	raw     []byte
}

// next claims work; nil when the queue answers 204.
func (c *client) next(pid, stage string) *claimResp {
	c.e.t.Helper()
	status, body := c.do("POST", "/api/v1/projects/"+pid+"/queue/next", map[string]string{"stage": stage})
	if status == http.StatusNoContent {
		return nil
	}
	if status != 200 {
		c.e.t.Fatalf("queue/next %s as %s: %d %s", stage, c.user.Email, status, body)
	}
	var cr claimResp
	if err := json.Unmarshal(body, &cr); err != nil {
		c.e.t.Fatal(err)
	}
	cr.raw = body
	return &cr
}

// submitOK submits and checks for 200, returning the item stage. On a form with passes it
// answers pass after pass: answers the server refuses as not_in_pass wait for the next pass, and
// the time spent is sent with the first pass only.
func (c *client) submitOK(aid string, body any) string {
	c.e.t.Helper()
	var out struct {
		ItemStage string          `json:"item_stage"`
		NextPass  *tasks.PassStep `json:"next_pass"`
	}
	path := "/api/v1/assignments/" + aid + "/submit"
	m, _ := body.(map[string]any)
	rest, ok := m["answers"].(tasks.Answers)
	if !ok {
		c.must("POST", path, body, 200, &out)
		return out.ItemStage
	}
	for step := 0; step < 10; step++ {
		now, later := rest, tasks.Answers{}
		if status, resp := c.do("POST", path, withAnswers(m, now)); status == http.StatusUnprocessableEntity {
			var e struct {
				Error struct{ Details map[string]tasks.FieldError } `json:"error"`
			}
			json.Unmarshal(resp, &e)
			now = tasks.Answers{}
			for k, v := range rest {
				if e.Error.Details[k].Code == tasks.CodeNotInPass {
					later[k] = v
				} else {
					now[k] = v
				}
			}
			if len(later) == 0 {
				c.e.t.Fatalf("submit %s: %d %s", path, status, resp)
			}
		} else if status == 200 {
			json.Unmarshal(resp, &out)
			return out.ItemStage
		} else {
			c.e.t.Fatalf("submit %s: %d %s", path, status, resp)
		}
		c.must("POST", path, withAnswers(m, now), 200, &out)
		if out.NextPass == nil {
			return out.ItemStage
		}
		rest, m = later, withAnswers(m, nil)
		delete(m, "time_spent_ms")
	}
	c.e.t.Fatal("more than 10 passes")
	return ""
}

// withAnswers is a submit body with other answers.
func withAnswers(m map[string]any, a tasks.Answers) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	out["answers"] = a
	return out
}

// importNDJSON posts NDJSON lines and returns the report.
func (c *client) importNDJSON(path string, lines ...string) map[string]any {
	c.e.t.Helper()
	status, body := c.do("POST", path, strings.Join(lines, "\n")+"\n", "Content-Type", "application/x-ndjson")
	if status != 200 {
		c.e.t.Fatalf("import: %d %s", status, body)
	}
	var rep map[string]any
	json.Unmarshal(body, &rep)
	return rep
}

// member gives u roles in a project: at once for a member (or when c is an administrator),
// otherwise by invitation, which u accepts.
func (c *client) member(pid string, u *client, roles ...string) {
	c.e.t.Helper()
	var res struct{ Status string }
	c.must("PUT", "/api/v1/projects/"+pid+"/members/"+u.user.Email, map[string]any{"roles": roles}, 200, &res)
	if res.Status == "invited" {
		u.accept(pid)
	}
}

// accept accepts the user's invitation to a project.
func (c *client) accept(pid string) {
	c.e.t.Helper()
	var invs []struct {
		ID        string `json:"id"`
		ProjectID string `json:"project_id"`
	}
	c.must("GET", "/api/v1/me/invitations", nil, 200, &invs)
	for _, inv := range invs {
		if inv.ProjectID == pid {
			c.must("POST", "/api/v1/me/invitations/"+inv.ID+"/accept", nil, 204, nil)
			return
		}
	}
	c.e.t.Fatalf("%s has no invitation to %s: %+v", c.user.Email, pid, invs)
}

// items lists every item of a project as the lead sees them.
func (c *client) items(pid, query string) []leadItem {
	c.e.t.Helper()
	var page struct{ Items []leadItem }
	c.must("GET", "/api/v1/projects/"+pid+"/items?limit=500&"+query, nil, 200, &page)
	return page.Items
}

type leadItem struct {
	ID          string          `json:"id"`
	ExternalID  string          `json:"external_id"`
	Stage       string          `json:"stage"`
	DropReason  *string         `json:"drop_reason"`
	Flag        json.RawMessage `json:"flag"`
	Annotations []struct {
		UserID       string        `json:"user_id"`
		Status       string        `json:"status"`
		ReviewStatus string        `json:"review_status"`
		Answers      tasks.Answers `json:"answers"`
	} `json:"annotations"`
	Reviews     []struct{ UserID, Verdict string } `json:"reviews"`
	GroundTruth *struct {
		Answers    tasks.Answers  `json:"answers"`
		Provenance map[string]any `json:"provenance"`
		Revision   int            `json:"revision"`
	} `json:"ground_truth"`
}

func byExternal(items []leadItem) map[string]leadItem {
	out := map[string]leadItem{}
	for _, it := range items {
		out[it.ExternalID] = it
	}
	return out
}

// shown converts canonical answers to what the assignment's person saw, using the stored
// shuffle, so tests can answer "the first canonical candidate" through a blinded view.
func shown(t *testing.T, e *env, schema *tasks.Schema, aid string, canonical tasks.Answers) tasks.Answers {
	t.Helper()
	a, err := e.store.Assignment(t.Context(), aid)
	if err != nil {
		t.Fatal(err)
	}
	var sh tasks.Shuffle
	json.Unmarshal(a.Shuffle, &sh)
	out, err := schema.ToShown(canonical, sh)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func answers(kv ...any) tasks.Answers {
	out := tasks.Answers{}
	for i := 0; i+1 < len(kv); i += 2 {
		b, _ := json.Marshal(kv[i+1])
		out[kv[i].(string)] = b
	}
	return out
}

func merge(a tasks.Answers, b tasks.Answers) tasks.Answers {
	out := tasks.Answers{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func testenvSQLite(tb testing.TB) *store.Store { return testenv.SQLite(tb) }
