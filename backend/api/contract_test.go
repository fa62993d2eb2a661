package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// The API contract is docs/openapi.yaml. Every response a scenario test receives under
// /api/v1 is checked against it: a documented success must match its schema exactly, an error
// must be the one error shape, and an undocumented success fails the test. OpenAPI 3.1 schemas
// are JSON Schema 2020-12, so a JSON Schema validator checks them as written.

// specBase is where the spec lives for $ref resolution; task-schema.json sits beside it.
const specBase = "https://github.com/arbiter-annotation/arbiter/docs/"

type operation struct {
	method  string
	pattern *regexp.Regexp
	path    string // the spec's path template
	pointer string // JSON pointer of the operation in the spec
	status  map[string]bool
}

type contract struct {
	ops      []operation
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	schemas  map[string]*jsonschema.Schema
}

var (
	contractOnce sync.Once
	theContract  *contract
	contractErr  error
)

// apiContract loads docs/openapi.yaml once per test binary.
func apiContract(t testing.TB) *contract {
	t.Helper()
	contractOnce.Do(func() { theContract, contractErr = loadContract() })
	if contractErr != nil {
		t.Fatalf("docs/openapi.yaml: %v", contractErr)
	}
	return theContract
}

func loadContract() (*contract, error) {
	raw, err := os.ReadFile(specFile)
	if err != nil {
		return nil, err
	}
	var doc any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	doc, err = jsonNumbers(doc)
	if err != nil {
		return nil, err
	}
	taskSchema, err := os.ReadFile("../../docs/task-schema.json")
	if err != nil {
		return nil, err
	}
	ts, err := jsonschema.UnmarshalJSON(bytes.NewReader(taskSchema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(specBase+"openapi.yaml", doc); err != nil {
		return nil, err
	}
	if err := c.AddResource(specBase+"task-schema.json", ts); err != nil {
		return nil, err
	}
	k := &contract{compiler: c, schemas: map[string]*jsonschema.Schema{}}
	paths, _ := doc.(map[string]any)["paths"].(map[string]any)
	for p, item := range paths {
		pattern := pathPattern(p)
		for method, op := range item.(map[string]any) {
			opm, ok := op.(map[string]any)
			if !ok || method == "parameters" {
				continue
			}
			o := operation{method: strings.ToUpper(method), pattern: pattern, path: p,
				pointer: "#/paths/" + escapePointer(p) + "/" + method, status: map[string]bool{}}
			resp, _ := opm["responses"].(map[string]any)
			for code := range resp {
				o.status[code] = true
			}
			k.ops = append(k.ops, o)
		}
	}
	return k, nil
}

// pathPattern matches the concrete paths of a path template: {name} is one segment, except a
// final {path}, which stands for a file path and takes the rest (gin's *path).
func pathPattern(template string) *regexp.Regexp {
	parts := strings.Split(template, "/")
	for i, p := range parts {
		if p == "{path}" && i == len(parts)-1 {
			parts[i] = `.+`
		} else if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			parts[i] = `[^/]+`
		} else {
			parts[i] = regexp.QuoteMeta(p)
		}
	}
	return regexp.MustCompile("^" + strings.Join(parts, "/") + "$")
}

// jsonNumbers turns YAML's ints and floats into json.Number, as the validator expects.
func jsonNumbers(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// find returns the operation serving method and path; a literal path segment wins over a
// parameter ("/items/{iid}" must not swallow "/items/import").
func (k *contract) find(method, path string) *operation {
	var best *operation
	for i := range k.ops {
		o := &k.ops[i]
		if o.method != method || !o.pattern.MatchString(path) {
			continue
		}
		if best == nil || strings.Count(o.path, "{") < strings.Count(best.path, "{") {
			best = o
		}
	}
	return best
}

// schema compiles (once) the schema at a JSON pointer of the spec.
func (k *contract) schema(pointer string) (*jsonschema.Schema, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if s, ok := k.schemas[pointer]; ok {
		return s, nil
	}
	s, err := k.compiler.Compile(specBase + "openapi.yaml" + pointer)
	if err != nil {
		return nil, err
	}
	k.schemas[pointer] = s
	return s, nil
}

// check validates one response against the contract; it returns what is wrong, or nil.
func (k *contract) check(method, path string, status int, contentType string, body []byte) error {
	path, _, _ = strings.Cut(path, "?")
	if !strings.HasPrefix(path, "/api/v1/") {
		return nil
	}
	if rest, ok := strings.CutPrefix(path, "/api/v1/assignments/"); ok {
		path = "/api/v1/projects/any/assignments/" + rest // note: a deprecated alias answers as its successor
	}
	op := k.find(method, path)
	if op == nil && status < 400 {
		return fmt.Errorf("%s %s is not in the contract", method, path)
	}
	if op == nil {
		op = &operation{method: method, path: path, status: map[string]bool{}} // an unknown route: the error shape only
	}
	code := strconv.Itoa(status)
	documented := op.status[code]
	if !documented && op.status["default"] {
		code, documented = "default", true
	}
	var pointer string
	switch {
	case status == 204 || len(body) == 0:
		if status < 300 && !documented {
			return fmt.Errorf("%s %s answered %d, which the contract does not document", method, op.path, status)
		}
		return nil
	case !strings.HasPrefix(contentType, "application/json"):
		return nil
	case documented:
		pointer = op.pointer + "/responses/" + code + "/content/application~1json/schema"
	case status >= 400:
		pointer = "#/components/schemas/Error"
	default:
		return fmt.Errorf("%s %s answered %d, which the contract does not document", method, op.path, status)
	}
	s, err := k.schema(pointer)
	if err != nil {
		if strings.Contains(err.Error(), "not found") && status >= 400 {
			s, err = k.schema("#/components/schemas/Error") // a documented error by $ref response
		}
		if err != nil {
			return fmt.Errorf("%s %s %d: the contract's schema does not compile: %v", method, op.path, status, err)
		}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s %s %d: the body is not JSON: %v", method, op.path, status, err)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("%s %s %d does not match docs/openapi.yaml: %v\nbody: %.600s", method, op.path, status, err, body)
	}
	return nil
}

// TestContractCatchesDrift breaks one field of a real response on purpose and expects the
// contract check to refuse it, so a response that drifts from docs/openapi.yaml fails tests.
func TestContractCatchesDrift(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	pid := e.admin.createProject("drift")
	status, body := e.admin.do("GET", "/api/v1/projects/"+pid, nil)
	k := apiContract(t)
	if err := k.check("GET", "/api/v1/projects/"+pid, status, "application/json", body); err != nil {
		t.Fatalf("the real response fails the contract: %v", err)
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	v["schema_version"] = "one" // the contract says integer
	broken, _ := json.Marshal(v)
	if err := k.check("GET", "/api/v1/projects/"+pid, status, "application/json", broken); err == nil {
		t.Fatal("a string schema_version passed the contract")
	}
	delete(v, "my_roles")
	v["schema_version"] = 0
	broken, _ = json.Marshal(v)
	if err := k.check("GET", "/api/v1/projects/"+pid, status, "application/json", broken); err == nil {
		t.Fatal("a response without my_roles passed the contract")
	}
	if err := k.check("POST", "/api/v1/projects/"+pid+"/queue/next", 418, "application/json", []byte(`{"teapot":true}`)); err == nil {
		t.Fatal("an undocumented error shape passed the contract")
	}
}
