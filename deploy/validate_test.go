// Package deploy holds no Go code of its own: these tests check the deployment files beside
// them (docker-compose.yml, .env.example, Caddyfile and the Helm chart) without a container
// engine or a cluster. Run them with `go test ./deploy/`.
package deploy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/template"

	"go.yaml.in/yaml/v3"
)

type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

type composeService struct {
	Image       string            `yaml:"image"`
	Build       any               `yaml:"build"`
	Environment map[string]string `yaml:"environment"`
	Healthcheck *struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
	DependsOn map[string]struct {
		Condition string `yaml:"condition"`
	} `yaml:"depends_on"`
	Volumes []string `yaml:"volumes"`
}

// varRef matches ${NAME}, ${NAME:-default}, ${NAME:?message} and their forms without a colon.
var varRef = regexp.MustCompile(`\$\{([A-Z0-9_]+)(:?[-?][^}]*)?\}`)

// secretKey names environment variables that must never hold a literal value.
var secretKey = regexp.MustCompile(`PASSWORD|SECRET|ACCESS_KEY|ROOT_USER`)

func readCompose(t *testing.T) composeFile {
	t.Helper()
	var c composeFile
	b, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	return c
}

func TestComposeServices(t *testing.T) {
	c := readCompose(t)
	for _, want := range []string{"postgres", "minio", "proxy"} {
		if _, ok := c.Services[want]; !ok {
			t.Errorf("service %q is missing", want)
		}
	}
	for name, s := range c.Services {
		if s.Image == "" && s.Build == nil {
			t.Errorf("service %s: neither image nor build is set", name)
		}
		if s.Healthcheck == nil || len(s.Healthcheck.Test) == 0 {
			t.Errorf("service %s: no healthcheck", name)
		}
		for dep, d := range s.DependsOn {
			if _, ok := c.Services[dep]; !ok {
				t.Errorf("service %s depends on unknown service %s", name, dep)
			}
			if d.Condition != "service_healthy" {
				t.Errorf("service %s: depends_on %s has condition %q, want service_healthy", name, dep, d.Condition)
			}
		}
		for _, v := range s.Volumes {
			src, _, _ := strings.Cut(v, ":")
			if !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "/") {
				if _, ok := c.Volumes[src]; !ok {
					t.Errorf("service %s: volume %q is not declared under volumes", name, src)
				}
			}
		}
	}
}

func TestComposeReplicasShareDatabaseAndBucket(t *testing.T) {
	c := readCompose(t)
	var replicas []string
	for name, s := range c.Services {
		if strings.HasPrefix(name, "arbiter") {
			replicas = append(replicas, name)
			if s.DependsOn["postgres"].Condition == "" || s.DependsOn["minio"].Condition == "" {
				t.Errorf("%s must wait for postgres and minio", name)
			}
		}
	}
	slices.Sort(replicas)
	if len(replicas) < 2 {
		t.Fatalf("want at least two arbiter replicas, have %v", replicas)
	}
	first := c.Services[replicas[0]].Environment
	for _, key := range []string{"ARBITER_DATABASE_URL", "ARBITER_BLOB_URL", "ARBITER_S3_ACCESS_KEY", "ARBITER_JWT_SECRET"} {
		for _, r := range replicas[1:] {
			if got := c.Services[r].Environment[key]; got != first[key] {
				t.Errorf("%s: %s=%q differs from %s's %q", r, key, got, replicas[0], first[key])
			}
		}
	}
	db, err := url.Parse(varRef.ReplaceAllString(first["ARBITER_DATABASE_URL"], "x"))
	if err != nil || db.Scheme != "postgres" || db.Hostname() != "postgres" {
		t.Errorf("ARBITER_DATABASE_URL %q: want postgres://...@postgres:5432/...", first["ARBITER_DATABASE_URL"])
	}
	blobURL, err := url.Parse(varRef.ReplaceAllString(first["ARBITER_BLOB_URL"], "x"))
	if err != nil || blobURL.Scheme != "s3" || blobURL.Query().Get("endpoint") != "minio:9000" {
		t.Errorf("ARBITER_BLOB_URL %q: want s3://BUCKET?endpoint=minio:9000", first["ARBITER_BLOB_URL"])
	}
	caddy, err := os.ReadFile("Caddyfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range replicas {
		if !strings.Contains(string(caddy), r+":8080") {
			t.Errorf("Caddyfile does not proxy to %s:8080", r)
		}
	}
}

// TestComposeNoHardCodedSecrets checks that secrets come from variables, and that every
// variable without a default is in .env.example with a placeholder value.
func TestComposeNoHardCodedSecrets(t *testing.T) {
	c := readCompose(t)
	for name, s := range c.Services {
		for key, v := range s.Environment {
			if !secretKey.MatchString(key) && !strings.HasSuffix(key, "DATABASE_URL") {
				continue
			}
			literal := varRef.ReplaceAllString(v, "")
			if u, err := url.Parse(literal); err == nil && u.Scheme != "" {
				if pw, ok := u.User.Password(); ok && pw != "" {
					t.Errorf("service %s: %s holds a literal password", name, key)
				}
				continue
			}
			if literal != "" && !strings.Contains(key, "EMAIL") {
				t.Errorf("service %s: %s=%q is not taken from a variable", name, key, v)
			}
		}
	}
	example := readEnvExample(t)
	raw, _ := os.ReadFile("docker-compose.yml")
	for _, m := range varRef.FindAllStringSubmatch(string(raw), -1) {
		name, mod := m[1], m[2]
		required := mod == "" || strings.HasPrefix(mod, ":?") || strings.HasPrefix(mod, "?")
		if _, ok := example[name]; required && !ok {
			t.Errorf(".env.example lacks %s, which docker-compose.yml requires", name)
		}
	}
	for key, v := range example {
		if secretKey.MatchString(key) && key != "MINIO_ROOT_USER" && v != "" && !strings.Contains(v, "change-me") {
			t.Errorf(".env.example: %s=%q looks like a real secret; use a change-me placeholder", key, v)
		}
	}
}

func readEnvExample(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(".env.example")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			out[k] = v
		}
	}
	return out
}

// chart is the Helm chart under test.
const chart = "helm/arbiter"

// render renders the chart's templates with text/template and the few Helm functions the chart
// uses. It is not Helm: a function the chart starts to use must be added to funcs below, and
// `helm lint`/`helm template` (docs/deployment.md) remain the reference.
func render(t *testing.T, overrides map[string]any) (map[string]string, error) {
	t.Helper()
	var meta struct {
		APIVersion string `yaml:"apiVersion"`
		Name       string `yaml:"name"`
		Version    string `yaml:"version"`
		AppVersion string `yaml:"appVersion"`
	}
	readYAML(t, filepath.Join(chart, "Chart.yaml"), &meta)
	if meta.APIVersion != "v2" || meta.Name != "arbiter" || meta.Version == "" {
		t.Fatalf("Chart.yaml: %+v", meta)
	}
	values := map[string]any{}
	readYAML(t, filepath.Join(chart, "values.yaml"), &values)
	merge(values, overrides)
	base := "arbiter/templates"
	data := map[string]any{
		"Values":   values,
		"Release":  map[string]any{"Name": "demo", "Namespace": "default", "Service": "Helm"},
		"Chart":    map[string]any{"Name": meta.Name, "Version": meta.Version, "AppVersion": meta.AppVersion},
		"Template": map[string]any{"BasePath": base},
	}
	root := template.New("chart").Option("missingkey=error")
	root.Funcs(funcs(root))
	files, _ := filepath.Glob(filepath.Join(chart, "templates", "*"))
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := path.Join(base, filepath.Base(f))
		if _, err := root.New(name).Parse(string(b)); err != nil {
			t.Fatalf("parse %s: %v", f, err)
		}
		if strings.HasSuffix(name, ".yaml") {
			names = append(names, name)
		}
	}
	out := map[string]string{}
	for _, name := range names {
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, name, data); err != nil {
			return nil, err
		}
		out[name] = buf.String()
	}
	return out, nil
}

// funcs are Helm's functions as far as the chart uses them, with Sprig's argument order.
func funcs(root *template.Template) template.FuncMap {
	return template.FuncMap{
		"include": func(name string, data any) (string, error) {
			var buf bytes.Buffer
			err := root.ExecuteTemplate(&buf, name, data)
			return buf.String(), err
		},
		"toYaml": func(v any) (string, error) {
			b, err := yaml.Marshal(v)
			return strings.TrimSuffix(string(b), "\n"), err
		},
		"default": func(def any, given ...any) any {
			if len(given) == 0 || empty(given[0]) {
				return def
			}
			return given[0]
		},
		"required": func(msg string, v any) (any, error) {
			if empty(v) {
				return nil, fmt.Errorf("%s", msg)
			}
			return v, nil
		},
		"quote":      func(v any) string { return strconv.Quote(fmt.Sprint(v)) },
		"indent":     func(n int, s string) string { return indent(n, s) },
		"nindent":    func(n int, s string) string { return "\n" + indent(n, s) },
		"trunc":      func(n int, s string) string { return s[:min(n, len(s))] },
		"trimSuffix": func(suffix, s string) string { return strings.TrimSuffix(s, suffix) },
		"replace":    func(old, new, s string) string { return strings.ReplaceAll(s, old, new) },
		"contains":   func(sub, s string) bool { return strings.Contains(s, sub) },
		"sha256sum": func(s string) string {
			sum := sha256.Sum256([]byte(s))
			return hex.EncodeToString(sum[:])
		},
		"int": func(v any) (int, error) { return strconv.Atoi(fmt.Sprint(v)) },
	}
}

func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case int:
		return x == 0
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

func indent(n int, s string) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

// merge copies src into dst, recursing into maps.
func merge(dst, src map[string]any) {
	for k, v := range src {
		if m, ok := v.(map[string]any); ok {
			if d, ok := dst[k].(map[string]any); ok {
				merge(d, m)
				continue
			}
		}
		dst[k] = v
	}
}

func readYAML(t *testing.T, file string, dst any) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, dst); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// object is one rendered Kubernetes object.
type object struct {
	APIVersion string         `yaml:"apiVersion"`
	Kind       string         `yaml:"kind"`
	Metadata   map[string]any `yaml:"metadata"`
	Spec       yaml.Node      `yaml:"spec"`
	Data       map[string]string
	StringData map[string]string `yaml:"stringData"`
}

// objects parses every rendered document, keyed by kind.
func objects(t *testing.T, rendered map[string]string) map[string]object {
	t.Helper()
	out := map[string]object{}
	for name, text := range rendered {
		for _, doc := range strings.Split(text, "\n---") {
			if strings.TrimSpace(doc) == "" {
				continue
			}
			var o object
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
				t.Fatalf("%s does not render to YAML: %v\n%s", name, err, doc)
			}
			if o.APIVersion == "" || o.Kind == "" || o.Metadata["name"] == nil {
				t.Fatalf("%s: apiVersion, kind and metadata.name are required:\n%s", name, doc)
			}
			if _, dup := out[o.Kind]; dup {
				t.Fatalf("two objects of kind %s", o.Kind)
			}
			out[o.Kind] = o
		}
	}
	return out
}

var requiredSecrets = map[string]any{"secrets": map[string]any{
	"databaseURL": "postgres://arbiter:pw@db:5432/arbiter", "s3AccessKey": "ak", "s3SecretKey": "sk"}}

func TestHelmChartRenders(t *testing.T) {
	cases := []struct {
		name      string
		overrides map[string]any
		kinds     []string
		secret    string
	}{
		{"defaults with secrets", requiredSecrets,
			[]string{"ConfigMap", "Deployment", "PodDisruptionBudget", "Secret", "Service"}, "demo-arbiter"},
		{"existing secret, ingress, one replica", map[string]any{
			"existingSecret": "arbiter-prod", "replicaCount": 1,
			"ingress": map[string]any{"enabled": true, "className": "nginx",
				"tls": []any{map[string]any{"secretName": "tls", "hosts": []any{"arbiter.example.org"}}}},
			"serviceAccount": map[string]any{"create": true},
		}, []string{"ConfigMap", "Deployment", "Ingress", "Service", "ServiceAccount"}, "arbiter-prod"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rendered, err := render(t, tc.overrides)
			if err != nil {
				t.Fatal(err)
			}
			objs := objects(t, rendered)
			var kinds []string
			for k := range objs {
				kinds = append(kinds, k)
			}
			slices.Sort(kinds)
			if !slices.Equal(kinds, tc.kinds) {
				t.Fatalf("kinds %v, want %v", kinds, tc.kinds)
			}
			checkDeployment(t, objs, tc.secret)
		})
	}
}

func checkDeployment(t *testing.T, objs map[string]object, secretName string) {
	t.Helper()
	var spec struct {
		Replicas int `yaml:"replicas"`
		Selector struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		}
		Template struct {
			Metadata struct{ Labels map[string]string }
			Spec     struct {
				Containers []struct {
					Image   string
					EnvFrom []struct {
						ConfigMapRef *struct{ Name string } `yaml:"configMapRef"`
						SecretRef    *struct{ Name string } `yaml:"secretRef"`
					} `yaml:"envFrom"`
					LivenessProbe struct {
						HTTPGet struct{ Path string } `yaml:"httpGet"`
					} `yaml:"livenessProbe"`
					ReadinessProbe struct {
						HTTPGet struct{ Path string } `yaml:"httpGet"`
					} `yaml:"readinessProbe"`
					Resources map[string]any
				}
			}
		}
	}
	d := objs["Deployment"]
	if err := d.Spec.Decode(&spec); err != nil {
		t.Fatal(err)
	}
	if len(spec.Template.Spec.Containers) != 1 {
		t.Fatalf("want one container, have %d", len(spec.Template.Spec.Containers))
	}
	c := spec.Template.Spec.Containers[0]
	if c.LivenessProbe.HTTPGet.Path != "/healthz" || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Errorf("probes: liveness %q, readiness %q", c.LivenessProbe.HTTPGet.Path, c.ReadinessProbe.HTTPGet.Path)
	}
	if len(c.Resources) == 0 {
		t.Error("container has no resources")
	}
	for k, v := range spec.Selector.MatchLabels {
		if spec.Template.Metadata.Labels[k] != v {
			t.Errorf("selector label %s=%s is not on the pod template", k, v)
		}
	}
	var cm, sec string
	for _, e := range c.EnvFrom {
		if e.ConfigMapRef != nil {
			cm = e.ConfigMapRef.Name
		}
		if e.SecretRef != nil {
			sec = e.SecretRef.Name
		}
	}
	if cm != objs["ConfigMap"].Metadata["name"] {
		t.Errorf("envFrom ConfigMap %q, rendered ConfigMap %v", cm, objs["ConfigMap"].Metadata["name"])
	}
	if sec != secretName {
		t.Errorf("envFrom Secret %q, want %q", sec, secretName)
	}
	if s, ok := objs["Secret"]; ok && s.StringData["ARBITER_DATABASE_URL"] == "" {
		t.Error("the Secret has no ARBITER_DATABASE_URL")
	}
	if blobURL := objs["ConfigMap"].Data["ARBITER_BLOB_URL"]; !strings.HasPrefix(blobURL, "s3://") {
		t.Errorf("ARBITER_BLOB_URL %q", blobURL)
	}
}

func TestHelmChartRequiresSecrets(t *testing.T) {
	_, err := render(t, nil)
	if err == nil || !strings.Contains(err.Error(), "secrets.databaseURL is required") {
		t.Fatalf("rendering without secrets or existingSecret: err %v, want the secrets.databaseURL message", err)
	}
}
