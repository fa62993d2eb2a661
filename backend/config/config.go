// Package config holds the server configuration: flags with ARBITER_* environment variables of
// the same name, sane defaults, and secrets that may come from files (ARBITER_..._FILE).
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Config is the effective configuration of one server process. It is passed down, never global.
type Config struct {
	Addr        string
	DataDir     string
	DatabaseURL string
	BlobURL     string
	PublicURL   string // base URL the browser uses; empty means relative URLs
	LogFormat   string // json, text, or auto (text on a terminal, JSON otherwise)
	LogLevel    string
	// TrustedProxies lists the proxy addresses (CIDRs) whose X-Forwarded-For is believed;
	// empty means the peer address is the client address.
	TrustedProxies string
	// MetricsAddr, when set, is the only address /metrics is served on; the main listener
	// then answers 404 there.
	MetricsAddr string
	// MetricsToken, when set, must be presented as a bearer token to read /metrics.
	MetricsToken string

	// DBMaxConns, DBMaxIdleConns, DBConnMaxLifetime and DBConnMaxIdleTime size the
	// PostgreSQL connection pool; DBMaxIdleConns 0 means as many as DBMaxConns.
	DBMaxConns        int
	DBMaxIdleConns    int
	DBConnMaxLifetime time.Duration
	DBConnMaxIdleTime time.Duration
	// PasswordHashMemoryMiB is the memory password hashing may take at once; logins beyond
	// it wait a second, then get 503 with Retry-After.
	PasswordHashMemoryMiB int
	// PprofAddr, when set, serves /debug/pprof on this address only; never on the main one.
	PprofAddr string

	S3AccessKey string
	S3SecretKey string
	JWTSecret   string // empty: generated once and kept in the database

	AdminEmail    string
	AdminPassword string

	AccessTokenTTL  time.Duration
	RefreshTokenTTL time.Duration
	SignedURLTTL    time.Duration
	MaxUploadBytes  int64
	// BodyTimeout is how long a request body may take before it must keep arriving at
	// MinBodyRate; a slower client is disconnected.
	BodyTimeout time.Duration
	// HeaderTimeout is how long a client may take to send a request's headers; a slower one
	// is disconnected.
	HeaderTimeout time.Duration
	// WebhookAllowPrivate lets webhooks target loopback and private networks.
	WebhookAllowPrivate bool
}

// MinBodyRate is the slowest a request body may arrive once BodyTimeout has passed, in bytes a
// second on average since the request began.
const MinBodyRate = 1 << 10

// Defaults returns the configuration used when nothing is set.
func Defaults() Config {
	return Config{
		Addr:            "127.0.0.1:8080",
		DataDir:         "./arbiter-data",
		LogFormat:       "auto",
		LogLevel:        "info",
		AccessTokenTTL:  15 * time.Minute,
		RefreshTokenTTL: 30 * 24 * time.Hour,
		SignedURLTTL:    15 * time.Minute,
		MaxUploadBytes:  2 << 30,
		BodyTimeout:     10 * time.Second,
		HeaderTimeout:   10 * time.Second,

		DBMaxConns:            20,
		PasswordHashMemoryMiB: 256,
		DBConnMaxLifetime:     30 * time.Minute,
		DBConnMaxIdleTime:     5 * time.Minute,
	}
}

// Env looks a variable up; os.LookupEnv in production, a map in tests.
type Env func(key string) (string, bool)

// Parse reads flags from args with environment fallbacks. A flag given on the command line wins
// over its environment variable, which wins over the default.
func Parse(fs *flag.FlagSet, args []string, env Env) (Config, error) {
	c := Defaults()
	fs.StringVar(&c.Addr, "addr", c.Addr, "listen address (ARBITER_ADDR)")
	fs.StringVar(&c.DataDir, "data-dir", c.DataDir, "directory for the embedded database and local blobs (ARBITER_DATA_DIR)")
	fs.StringVar(&c.DatabaseURL, "database-url", "", "postgres://... or sqlite path; default SQLite in the data dir (ARBITER_DATABASE_URL)")
	fs.StringVar(&c.BlobURL, "blob-url", "", "s3://BUCKET?endpoint=HOST:PORT&secure=false or file:DIR; default a directory in the data dir (ARBITER_BLOB_URL)")
	fs.StringVar(&c.PublicURL, "public-url", "", "external base URL of the server, for links (ARBITER_PUBLIC_URL)")
	fs.StringVar(&c.LogFormat, "log-format", c.LogFormat, "json, text, or auto: text on a terminal, JSON otherwise (ARBITER_LOG_FORMAT)")
	fs.StringVar(&c.LogLevel, "log-level", c.LogLevel, "debug, info, warn or error (ARBITER_LOG_LEVEL)")
	fs.StringVar(&c.TrustedProxies, "trusted-proxies", "", "comma-separated CIDRs of reverse proxies whose X-Forwarded-For is trusted (ARBITER_TRUSTED_PROXIES)")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", "", "serve /metrics on this address only, e.g. 127.0.0.1:9090 (ARBITER_METRICS_ADDR)")
	fs.DurationVar(&c.AccessTokenTTL, "access-token-ttl", c.AccessTokenTTL, "lifetime of access tokens (ARBITER_ACCESS_TOKEN_TTL)")
	fs.DurationVar(&c.RefreshTokenTTL, "refresh-token-ttl", c.RefreshTokenTTL, "lifetime of refresh tokens (ARBITER_REFRESH_TOKEN_TTL)")
	fs.DurationVar(&c.SignedURLTTL, "signed-url-ttl", c.SignedURLTTL, "lifetime of signed media URLs (ARBITER_SIGNED_URL_TTL)")
	fs.DurationVar(&c.BodyTimeout, "body-timeout", c.BodyTimeout, "time a request body may take before it must arrive at 1 KiB/s or more (ARBITER_BODY_TIMEOUT)")
	fs.DurationVar(&c.HeaderTimeout, "header-timeout", c.HeaderTimeout, "time a client may take to send a request's headers (ARBITER_HEADER_TIMEOUT)")
	fs.Int64Var(&c.MaxUploadBytes, "max-upload-bytes", c.MaxUploadBytes, "largest accepted upload (ARBITER_MAX_UPLOAD_BYTES)")
	fs.IntVar(&c.DBMaxConns, "db-max-conns", c.DBMaxConns, "most connections to PostgreSQL per process (ARBITER_DB_MAX_CONNS)")
	fs.IntVar(&c.DBMaxIdleConns, "db-max-idle-conns", c.DBMaxIdleConns, "connections kept open while idle; 0: as many as db-max-conns (ARBITER_DB_MAX_IDLE_CONNS)")
	fs.DurationVar(&c.DBConnMaxLifetime, "db-conn-max-lifetime", c.DBConnMaxLifetime, "close a database connection after this long; 0: never (ARBITER_DB_CONN_MAX_LIFETIME)")
	fs.DurationVar(&c.DBConnMaxIdleTime, "db-conn-max-idle-time", c.DBConnMaxIdleTime, "close a database connection unused for this long; 0: never (ARBITER_DB_CONN_MAX_IDLE_TIME)")
	fs.IntVar(&c.PasswordHashMemoryMiB, "password-hash-memory", c.PasswordHashMemoryMiB, "MiB that password hashing may use at once, 19 per login; beyond it logins get 503 (ARBITER_PASSWORD_HASH_MEMORY)")
	fs.BoolVar(&c.WebhookAllowPrivate, "webhook-allow-private", false, "let webhooks post to loopback, link-local and private addresses (ARBITER_WEBHOOK_ALLOW_PRIVATE)")
	fs.StringVar(&c.PprofAddr, "pprof-addr", "", "serve /debug/pprof on this address only, e.g. 127.0.0.1:6060; off when empty (ARBITER_PPROF_ADDR)")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		key := "ARBITER_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := env(key); ok && !set[f.Name] {
			if err := f.Value.Set(v); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", key, err))
			}
		}
	})
	for key, dst := range map[string]*string{
		"ARBITER_S3_ACCESS_KEY":  &c.S3AccessKey,
		"ARBITER_S3_SECRET_KEY":  &c.S3SecretKey,
		"ARBITER_JWT_SECRET":     &c.JWTSecret,
		"ARBITER_ADMIN_EMAIL":    &c.AdminEmail,
		"ARBITER_ADMIN_PASSWORD": &c.AdminPassword,
		"ARBITER_METRICS_TOKEN":  &c.MetricsToken,
	} {
		v, err := secret(env, key)
		if err != nil {
			errs = append(errs, err)
		}
		*dst = v
	}
	if err := errors.Join(errs...); err != nil {
		return c, err
	}
	c.fillDefaults()
	return c, c.validate()
}

// secret reads KEY, or the contents of the file named by KEY_FILE.
func secret(env Env, key string) (string, error) {
	if v, ok := env(key); ok {
		return v, nil
	}
	path, ok := env(key + "_FILE")
	if !ok {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s_FILE: %w", key, err)
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

func (c *Config) fillDefaults() {
	if c.DatabaseURL == "" {
		c.DatabaseURL = "sqlite:" + filepath.Join(c.DataDir, "arbiter.db")
	}
	if c.BlobURL == "" {
		c.BlobURL = "file:" + filepath.Join(c.DataDir, "blobs")
	}
}

func (c *Config) validate() error {
	var errs []error
	if c.AccessTokenTTL <= 0 || c.RefreshTokenTTL <= c.AccessTokenTTL {
		errs = append(errs, errors.New("token lifetimes: refresh must outlive access, both positive"))
	}
	if c.MaxUploadBytes <= 0 {
		errs = append(errs, errors.New("max-upload-bytes must be positive"))
	}
	if c.BodyTimeout <= 0 || c.HeaderTimeout <= 0 {
		errs = append(errs, errors.New("body-timeout and header-timeout must be positive"))
	}
	if c.DBMaxConns <= 0 || c.DBMaxIdleConns < 0 || c.DBMaxIdleConns > c.DBMaxConns {
		errs = append(errs, errors.New("db-max-conns must be positive and db-max-idle-conns between 0 and db-max-conns"))
	}
	if c.PasswordHashMemoryMiB < 19 {
		errs = append(errs, errors.New("password-hash-memory must be at least 19 (MiB, one hash)"))
	}
	if c.DBConnMaxLifetime < 0 || c.DBConnMaxIdleTime < 0 {
		errs = append(errs, errors.New("db-conn-max-lifetime and db-conn-max-idle-time must not be negative"))
	}
	if c.LogFormat != "json" && c.LogFormat != "text" && c.LogFormat != "auto" {
		errs = append(errs, fmt.Errorf("log-format %q: want json, text or auto", c.LogFormat))
	}
	return errors.Join(errs...)
}

// Summary lists the effective configuration without secrets, for the start-up log line.
func (c Config) Summary() map[string]any {
	return map[string]any{
		"addr":              c.Addr,
		"data_dir":          c.DataDir,
		"database":          RedactURL(c.DatabaseURL),
		"blobs":             RedactURL(c.BlobURL),
		"public_url":        c.PublicURL,
		"trusted_proxies":   c.TrustedProxies,
		"metrics_addr":      c.MetricsAddr,
		"metrics_token":     c.MetricsToken != "",
		"access_token_ttl":  c.AccessTokenTTL.String(),
		"refresh_token_ttl": c.RefreshTokenTTL.String(),
		"signed_url_ttl":    c.SignedURLTTL.String(),
		"body_timeout":      c.BodyTimeout.String(),
		"header_timeout":    c.HeaderTimeout.String(),
		"max_upload_bytes":  c.MaxUploadBytes,
		"db_pool":           c.poolSummary(),
		"pprof_addr":        c.PprofAddr,
		"password_hash_mib": c.PasswordHashMemoryMiB,
		"s3_credentials":    c.S3AccessKey != "",
		"jwt_secret":        map[bool]string{true: "configured", false: "kept in database"}[c.JWTSecret != ""],
	}
}

// poolSummary is the database pool the configuration asks for, for the start-up line.
func (c Config) poolSummary() map[string]any {
	idle := c.DBMaxIdleConns
	if idle == 0 {
		idle = c.DBMaxConns
	}
	return map[string]any{"max_conns": c.DBMaxConns, "max_idle_conns": idle,
		"conn_max_lifetime": c.DBConnMaxLifetime.String(), "conn_max_idle_time": c.DBConnMaxIdleTime.String()}
}

// RedactURL hides a password inside a URL.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	return u.Redacted()
}
