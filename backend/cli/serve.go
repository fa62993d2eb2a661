package cli

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/api"
	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/config"
	"github.com/arbiter-annotation/arbiter/backend/jobs"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
	"github.com/arbiter-annotation/arbiter/frontend"
)

// runServe starts the server and blocks until ctx ends, then shuts down gracefully.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return serve(ctx, args, os.LookupEnv, stdout, stderr)
}

// serve is runServe with the environment as a parameter.
func serve(ctx context.Context, args []string, env config.Env, stdout, stderr io.Writer) error {
	cfg, err := parseConfig("serve", args, env, stderr)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	log.Info("starting arbiter", "version", Version, "config", cfg.Summary())
	st, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer st.Close()
	deps, firstStart, err := buildDeps(ctx, cfg, st, log)
	if err != nil {
		return err
	}
	// note: the job queue outlives ctx so that shutdown can drain it after the listener stops
	queue, err := jobs.Start(context.WithoutCancel(ctx), jobs.Deps{Store: st, DatabaseURL: cfg.DatabaseURL,
		Imports: deps.Imports, Insight: deps.Insight, Releases: deps.Releases,
		Webhooks: deps.Webhooks, Log: log, Workers: 2})
	if err != nil {
		return err
	}
	deps.Imports.UseJobs(queue)
	deps.Insight.UseJobs(queue)
	deps.Flow.UseJobs(queue)
	deps.Releases.UseJobs(queue)
	deps.Webhooks.UseJobs(queue)
	srv := api.New(deps)
	err = listen(ctx, cfg, srv.Handler(), srv.MetricsHandler(), log, stdout, firstStart)
	stopCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return errors.Join(err, queue.Stop(stopCtx))
}

// runMigrate applies pending migrations and exits.
func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseConfig("migrate", args, os.LookupEnv, stderr)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer st.Close()
	cur, _, err := st.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "database schema at version %d\n", cur)
	return nil
}

func parseConfig(name string, args []string, env config.Env, stderr io.Writer) (config.Config, error) {
	fs := flag.NewFlagSet("arbiter "+name, flag.ContinueOnError)
	cfg, err := config.Parse(fs, args, env)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stderr)
		fmt.Fprintf(stderr, "usage: arbiter %s [flags]\n", name)
		fs.PrintDefaults()
		return cfg, err
	}
	if err != nil {
		return cfg, fmt.Errorf("configuration: %w", err)
	}
	return cfg, nil
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "text" || (cfg.LogFormat == "auto" && isTerminal(w)) {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

func openStore(ctx context.Context, cfg config.Config, log *slog.Logger) (*store.Store, error) {
	st, err := store.OpenPool(ctx, cfg.DatabaseURL, store.Pool{MaxOpen: cfg.DBMaxConns, MaxIdle: cfg.DBMaxIdleConns,
		MaxLifetime: cfg.DBConnMaxLifetime, MaxIdleTime: cfg.DBConnMaxIdleTime})
	if err != nil {
		return nil, err
	}
	if err := st.Migrate(ctx, log); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// buildDeps opens the blob store, loads the shared secrets and creates the first admin; the
// string is bootstrapAdmin's first-start banner.
func buildDeps(ctx context.Context, cfg config.Config, st *store.Store, log *slog.Logger) (api.Deps, string, error) {
	jwtKey, err := secretKey(ctx, st, "jwt_signing_key", cfg.JWTSecret)
	if err != nil {
		return api.Deps{}, "", err
	}
	blobKey, err := secretKey(ctx, st, "blob_signing_key", "")
	if err != nil {
		return api.Deps{}, "", err
	}
	blobs, err := blob.Open(ctx, cfg.BlobURL, blob.Options{
		AccessKey: cfg.S3AccessKey, SecretKey: cfg.S3SecretKey, SigningKey: blobKey, LocalURLPrefix: "/blobs",
	})
	if err != nil {
		return api.Deps{}, "", err
	}
	firstStart, err := bootstrapAdmin(ctx, cfg, st, log)
	if err != nil {
		return api.Deps{}, "", err
	}
	ui, _ := frontend.Dist()
	issuer := auth.NewIssuer(jwtKey, cfg.AccessTokenTTL)
	limits := auth.DefaultLimits
	limits.HashMemory = int64(cfg.PasswordHashMemoryMiB) << 20
	sessions := auth.NewSessions(st, issuer, cfg.RefreshTokenTTL, limits)
	assets := media.New(st, blobs, media.Config{MaxUploadBytes: cfg.MaxUploadBytes, SignedURLTTL: cfg.SignedURLTTL, PublicURL: cfg.PublicURL})
	svc := api.NewServices(st, blobs, assets)
	svc.UseWebhooks(webhooks.New(webhooks.Deps{Store: st, AllowPrivate: cfg.WebhookAllowPrivate}))
	rel := releases.New(releases.Deps{Store: st, Blobs: blobs, Flow: svc.Flow, Insight: svc.Insight, Version: Version, PublicURL: cfg.PublicURL, Log: log})
	return api.Deps{Config: cfg, Store: st, Blobs: blobs, Sessions: sessions, Log: log, UI: ui, Services: svc, Media: assets, Releases: rel}, firstStart, nil
}

// secretKey returns the configured secret, or the one every replica shares through the
// database, generating it on first use.
func secretKey(ctx context.Context, st *store.Store, name, configured string) ([]byte, error) {
	if configured != "" {
		if len(configured) < 32 {
			return nil, fmt.Errorf("%s: a configured secret must be at least 32 characters", name)
		}
		return []byte(configured), nil
	}
	v, err := st.Setting(ctx, name, func() (string, error) { return auth.RandomString(32), nil })
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", name, err)
	}
	return base64.RawURLEncoding.DecodeString(v)
}

// bootstrapAdmin creates the first administrator on an empty database. Without configured
// credentials it generates a strong password and returns the banner that shows it, once.
func bootstrapAdmin(ctx context.Context, cfg config.Config, st *store.Store, log *slog.Logger) (string, error) {
	n, err := st.UserCount(ctx)
	if err != nil || n > 0 {
		return "", err
	}
	email, password, generated := cfg.AdminEmail, cfg.AdminPassword, false
	if email == "" {
		email = "admin@arbiter.local"
	}
	if password == "" {
		password, generated = auth.GeneratePassword(), true
	}
	if err := auth.CheckNewPassword("ARBITER_ADMIN_PASSWORD", password, email); err != nil {
		return "", fmt.Errorf("ARBITER_ADMIN_PASSWORD: %w", err)
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return "", err
	}
	err = st.CreateUser(ctx, &store.User{Email: email, Name: "Administrator", PasswordHash: hash, IsAdmin: true})
	if errors.Is(err, store.ErrConflict) {
		return "", nil // note: another replica created it first
	}
	if err != nil {
		return "", err
	}
	log.Info("created the first administrator", "email", store.NormalizeEmail(email))
	if !generated {
		return "", nil
	}
	return fmt.Sprintf("\n  First start: created administrator %s with password\n\n      %s\n\n  It is shown only this once. Set ARBITER_ADMIN_EMAIL/ARBITER_ADMIN_PASSWORD to choose your own.\n\n", email, password), nil
}

// firstStartQuiet is how long after the listeners are up the first-start banner is printed.
const firstStartQuiet = time.Second

// listen serves until ctx ends, then drains requests for up to 20 seconds. With
// --metrics-addr, /metrics gets a listener of its own. The first-start banner is printed a
// moment after every listener is up, after the startup log, where it is seen.
func listen(ctx context.Context, cfg config.Config, h, metrics http.Handler, log *slog.Logger, stdout io.Writer, firstStart string) error {
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	// note: every listener cuts a client that trickles its headers; bodies are paced by the
	// API (api.Server.paceBodies)
	newServer := func(h http.Handler) *http.Server {
		return &http.Server{Handler: h, ReadHeaderTimeout: cfg.HeaderTimeout, IdleTimeout: 2 * time.Minute}
	}
	servers := []*http.Server{newServer(h)}
	listeners := []net.Listener{ln}
	fmt.Fprintf(stdout, "Arbiter is listening on http://%s\n", displayAddr(ln))
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("metrics address: %w", err)
		}
		servers = append(servers, newServer(metrics))
		listeners = append(listeners, mln)
		fmt.Fprintf(stdout, "Metrics are served on http://%s/metrics\n", displayAddr(mln))
	}
	if cfg.PprofAddr != "" {
		pln, err := net.Listen("tcp", cfg.PprofAddr)
		if err != nil {
			for _, l := range listeners {
				l.Close()
			}
			return fmt.Errorf("pprof address: %w", err)
		}
		servers = append(servers, newServer(pprofHandler()))
		listeners = append(listeners, pln)
		fmt.Fprintf(stdout, "Profiles are served on http://%s/debug/pprof/\n", displayAddr(pln))
	}
	if firstStart != "" {
		// note: the job queue logs its start from goroutines of its own, so the banner waits for
		// the startup log to go quiet
		banner := time.AfterFunc(firstStartQuiet, func() { fmt.Fprint(stdout, firstStart) })
		defer banner.Stop()
	}
	errc := make(chan error, len(servers))
	for i, srv := range servers {
		go func() { errc <- srv.Serve(listeners[i]) }()
	}
	select {
	case err := <-errc:
		for _, srv := range servers {
			srv.Close()
		}
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var errs []error
	for _, srv := range servers {
		errs = append(errs, srv.Shutdown(shutdownCtx))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	log.Info("stopped")
	return nil
}

// pprofHandler serves the runtime profiles under /debug/pprof/, for a listener of its own
// (--pprof-addr); they are never served on the main address.
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// displayAddr is a listener's address as a person would type it.
func displayAddr(ln net.Listener) string {
	addr := ln.Addr().String()
	if strings.HasPrefix(addr, "[::]") || strings.HasPrefix(addr, "0.0.0.0") {
		addr = "localhost" + addr[strings.LastIndex(addr, ":"):]
	}
	return addr
}

// isTerminal reports whether w is a character device (a person's terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
