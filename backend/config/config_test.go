package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func parse(t *testing.T, args []string, env map[string]string) (Config, error) {
	t.Helper()
	return Parse(flag.NewFlagSet("t", flag.ContinueOnError), args, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
}

func TestParse(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "s3secret")
	os.WriteFile(secret, []byte("from-a-file\n"), 0o600)
	c, err := parse(t, []string{"--addr", "127.0.0.1:9999", "--data-dir", "/srv/a"}, map[string]string{
		"ARBITER_ADDR":               "0.0.0.0:1",
		"ARBITER_ACCESS_TOKEN_TTL":   "5m",
		"ARBITER_S3_SECRET_KEY_FILE": secret,
		"ARBITER_ADMIN_PASSWORD":     "pw-from-env",
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9999" {
		t.Errorf("flag did not win over env: %s", c.Addr)
	}
	if c.AccessTokenTTL != 5*time.Minute {
		t.Errorf("env not applied: %v", c.AccessTokenTTL)
	}
	if c.S3SecretKey != "from-a-file" || c.AdminPassword != "pw-from-env" {
		t.Errorf("secrets: %q %q", c.S3SecretKey, c.AdminPassword)
	}
	if c.DatabaseURL != "sqlite:/srv/a/arbiter.db" || c.BlobURL != "file:/srv/a/blobs" {
		t.Errorf("defaults in the data dir: %s %s", c.DatabaseURL, c.BlobURL)
	}
	sum := c.Summary()
	for _, v := range sum {
		if s, ok := v.(string); ok && (strings.Contains(s, "from-a-file") || strings.Contains(s, "pw-from-env")) {
			t.Fatalf("secret in the printed config: %v", sum)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]struct {
		args []string
		env  map[string]string
		want string
	}{
		"bad duration in env": {nil, map[string]string{"ARBITER_ACCESS_TOKEN_TTL": "soon"}, "ARBITER_ACCESS_TOKEN_TTL"},
		"refresh shorter":     {[]string{"--refresh-token-ttl", "1m"}, nil, "refresh must outlive access"},
		"unknown log format":  {[]string{"--log-format", "xml"}, nil, "log-format"},
		"missing secret file": {nil, map[string]string{"ARBITER_JWT_SECRET_FILE": "/nonexistent/x"}, "ARBITER_JWT_SECRET_FILE"},
		"non-positive upload": {[]string{"--max-upload-bytes", "0"}, nil, "max-upload-bytes"},
		"idle above open":     {[]string{"--db-max-conns", "4", "--db-max-idle-conns", "8"}, nil, "db-max-idle-conns"},
		"no connections":      {nil, map[string]string{"ARBITER_DB_MAX_CONNS": "0"}, "db-max-conns"},
		"unknown flag":        {[]string{"--colour", "red"}, nil, "colour"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parse(t, tc.args, tc.env)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	got := RedactURL("postgres://arbiter:hunter2@db:5432/arbiter")
	if strings.Contains(got, "hunter2") {
		t.Fatalf("password shown: %s", got)
	}
}

// TestPoolDefaults: idle connections default to the open ones, from flags or environment.
func TestPoolDefaults(t *testing.T) {
	c, err := parse(t, nil, map[string]string{"ARBITER_DB_MAX_CONNS": "40", "ARBITER_DB_CONN_MAX_LIFETIME": "1h"})
	if err != nil {
		t.Fatal(err)
	}
	pool := c.Summary()["db_pool"].(map[string]any)
	if c.DBMaxConns != 40 || pool["max_idle_conns"] != 40 || pool["conn_max_lifetime"] != "1h0m0s" {
		t.Fatalf("pool: %+v", pool)
	}
	c, _ = parse(t, []string{"--db-max-idle-conns", "5"}, nil)
	if c.DBMaxConns != 20 || c.Summary()["db_pool"].(map[string]any)["max_idle_conns"] != 5 {
		t.Fatalf("explicit idle: %+v", c.Summary()["db_pool"])
	}
}
