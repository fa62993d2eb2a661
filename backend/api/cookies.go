package api

import (
	"net/http"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/auth"
)

// The refresh token lives in an HttpOnly cookie that scripts cannot read, sent only to the
// refresh route, only by this site's own pages.
const (
	refreshCookie = "arbiter_refresh"
	refreshPath   = "/api/v1/auth/refresh"
	// CSRFHeader must be on every refresh: a cross-site form cannot set a header, and a
	// cross-site script that tries needs a CORS preflight this server never grants.
	CSRFHeader = "X-Arbiter-CSRF"
)

// startSession sets the refresh cookie and answers the access token.
func (s *Server) startSession(c *gin.Context, pair *auth.Pair) {
	http.SetCookie(c.Writer, &http.Cookie{
		Name: refreshCookie, Value: pair.RefreshToken, Path: refreshPath,
		Expires: time.Now().Add(s.cfg.RefreshTokenTTL), MaxAge: int(s.cfg.RefreshTokenTTL.Seconds()),
		HttpOnly: true, Secure: true, SameSite: http.SameSiteStrictMode,
	})
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, pair)
}

// clearRefreshCookie tells the browser to forget the refresh cookie.
func (s *Server) clearRefreshCookie(c *gin.Context) {
	http.SetCookie(c.Writer, &http.Cookie{
		Name: refreshCookie, Value: "", Path: refreshPath, MaxAge: -1,
		HttpOnly: true, Secure: true, SameSite: http.SameSiteStrictMode,
	})
}

// csrf guards the one route a cookie authenticates: the request must carry CSRFHeader, and
// when the browser says where it comes from (Sec-Fetch-Site, Origin), that must be this site.
func (s *Server) csrf(c *gin.Context) {
	r := c.Request
	site := r.Header.Get("Sec-Fetch-Site")
	ok := r.Header.Get(CSRFHeader) != "" && (site == "" || site == "same-origin" || site == "none")
	if o := r.Header.Get("Origin"); ok && o != "" {
		ok = s.sameOrigin(r, o)
	}
	if !ok {
		s.writeError(c, fail(http.StatusForbidden, CodeCSRF, "the refresh must come from this site's pages with the %s header", CSRFHeader))
		return
	}
	c.Next()
}

// sameOrigin reports whether origin is this server: the configured public URL's origin, or
// the host the request was sent to.
func (s *Server) sameOrigin(r *http.Request, origin string) bool {
	o, err := url.Parse(origin)
	if err != nil || o.Host == "" {
		return false
	}
	if s.cfg.PublicURL != "" {
		if p, err := url.Parse(s.cfg.PublicURL); err == nil && p.Scheme == o.Scheme && p.Host == o.Host {
			return true
		}
	}
	return o.Host == r.Host
}
