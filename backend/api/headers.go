package api

import (
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/config"
)

// apiCSP is the policy of every answer that is not the web UI: JSON is never rendered, so
// nothing may load and nothing may frame it.
const apiCSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// waveformStyle is the hash of the one inline style the UI needs: the <style> wavesurfer.js
// writes into its shadow root (audio waveforms at height 64, AudioPlayer.tsx). note: a new
// wavesurfer version or height changes it; the browser tests name the new hash.
const waveformStyle = "'sha256-fF0LBso7Nz75zaFRDBUefBDvPe19hjaiDnnc8lt+2Js='"

// uiCSP is the policy of the web UI: scripts and styles only from the server's own files (the
// build has no inline script, and no inline style but the waveform's, allowed by its hash),
// media also from the blob store's origins, no plugins, no framing, no base or form targets
// elsewhere.
func uiCSP(cfg config.Config) string {
	media := []string{"'self'"}
	if o := origin(cfg.PublicURL); o != "" {
		media = append(media, o)
	}
	media = append(media, blob.BrowserOrigins(cfg.BlobURL)...)
	m := strings.Join(media, " ")
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self' " + waveformStyle,
		"img-src " + m + " data: blob:",
		"media-src " + m + " blob:",
		"connect-src " + m,
		"font-src 'self' data:",
		"worker-src 'self' blob:",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// origin is scheme://host of a URL, or "" when it has none.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// securityHeaders puts the browser protections on every answer: a Content-Security-Policy
// (the UI's, or the API's that allows nothing), no MIME sniffing, no Referer, no framing, and
// HSTS when the public URL is https. Handlers that serve files may set a stricter policy.
func (s *Server) securityHeaders() gin.HandlerFunc {
	ui := uiCSP(s.cfg)
	hsts := strings.HasPrefix(s.cfg.PublicURL, "https://")
	return func(c *gin.Context) {
		h := c.Writer.Header()
		p := c.Request.URL.Path
		if p == "/api" || strings.HasPrefix(p, "/api/") || p == "/metrics" || strings.HasPrefix(p, "/healthz") || strings.HasPrefix(p, "/readyz") {
			h.Set("Content-Security-Policy", apiCSP)
		} else {
			h.Set("Content-Security-Policy", ui)
		}
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
		if hsts {
			h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
		}
		c.Next()
	}
}
