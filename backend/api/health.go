package api

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// healthz answers while the process is up.
func (s *Server) healthz(c *gin.Context) { c.JSON(http.StatusOK, health{Status: "ok"}) }

// health is what /healthz and /readyz answer.
type health struct {
	Status string       `json:"status"`
	Checks *readyChecks `json:"checks,omitempty"`
}

// readyChecks says, per dependency, "ok" or what is wrong.
type readyChecks struct {
	Database string `json:"database"`
	Blobs    string `json:"blobs"`
}

// readyz answers 200 only when the database and the blob store are reachable. It is
// unauthenticated, so a check that fails says only "unreachable"; the cause (hosts, users,
// paths) goes to the log.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 3*time.Second)
	defer cancel()
	h := health{Status: "ready", Checks: &readyChecks{Database: "ok", Blobs: "ok"}}
	status := http.StatusOK
	if err := s.store.Ping(ctx); err != nil {
		s.log.Warn("not ready: the database is unreachable", "err", err)
		h.Checks.Database, h.Status, status = unreachable, "unavailable", http.StatusServiceUnavailable
	}
	if err := s.blobs.Ping(ctx); err != nil {
		s.log.Warn("not ready: the blob store is unreachable", "err", err)
		h.Checks.Blobs, h.Status, status = unreachable, "unavailable", http.StatusServiceUnavailable
	}
	c.JSON(status, h)
}

// unreachable is what /readyz says of a dependency it cannot reach.
const unreachable = "unreachable"

// metrics are the server's Prometheus collectors, on a registry of its own. Every label value
// comes from a fixed set (route templates, known methods, status codes the server writes),
// never from raw request input, so no client can grow the number of series.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	logins   *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "arbiter_http_requests_total", Help: "HTTP requests by method, route template and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "arbiter_http_request_duration_seconds", Help: "HTTP request latency by method and route template.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
		logins: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "arbiter_login_attempts_total",
			Help: "Logins by outcome: ok, bad_credentials, delayed (the account's delay had not passed), address_limited, unavailable.",
		}, []string{"outcome"}),
	}
	for _, o := range []string{"ok", "bad_credentials", "delayed", "address_limited", "unavailable"} {
		m.logins.WithLabelValues(o)
	}
	m.reg.MustRegister(m.requests, m.latency, m.logins, collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// observe counts one request; route is a route template or "unmatched".
func (m *metrics) observe(method, route string, status int, d time.Duration) {
	method = methodLabel(method)
	m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(method, route).Observe(d.Seconds())
}

// knownMethods are the HTTP methods that get a label of their own.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

// methodLabel is the method's metric label: itself when known, "other" for anything a client
// made up.
func methodLabel(method string) string {
	if knownMethods[method] {
		return method
	}
	return "other"
}

// handler serves the registry; with a token configured, only to a bearer of that token.
func (m *metrics) handler(token string) http.Handler {
	h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "metrics need the configured bearer token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
