package api

import (
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/gin-gonic/gin"
)

// serveUI serves the embedded single-page app; paths that are not files get index.html so
// client-side routes work on reload. Unknown API paths get the JSON 404.
func (s *Server) serveUI(c *gin.Context) {
	p := c.Request.URL.Path
	if strings.HasPrefix(p, "/api/") {
		s.writeError(c, fail(http.StatusNotFound, CodeNotFound, "no such API route: %s %s", c.Request.Method, p))
		return
	}
	if c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead {
		s.writeError(c, fail(http.StatusMethodNotAllowed, "method_not_allowed", "method not allowed"))
		return
	}
	if s.ui == nil {
		c.String(http.StatusNotFound, "This arbiter binary was built without the web UI (build tag no_ui). The API is at /api/v1.")
		return
	}
	name := strings.TrimPrefix(path.Clean(p), "/")
	if name == "" {
		name = "index.html"
	}
	if st, err := fs.Stat(s.ui, name); err != nil || st.IsDir() {
		if errors.Is(err, fs.ErrNotExist) && path.Ext(name) != "" && strings.HasPrefix(name, "assets/") {
			c.String(http.StatusNotFound, "not found")
			return
		}
		name = "index.html"
	}
	if strings.HasPrefix(name, "assets/") {
		c.Header("Cache-Control", "public, max-age=31536000, immutable") // note: Vite puts content hashes in these names
	} else {
		c.Header("Cache-Control", "no-cache")
	}
	serveFile(c, s.ui, name)
}

// serveFile writes one file of fsys with its content type and range support.
func serveFile(c *gin.Context, fsys fs.FS, name string) {
	f, err := fsys.Open(name)
	if err != nil {
		c.String(http.StatusNotFound, "not found")
		return
	}
	defer f.Close()
	st, err := f.Stat()
	rs, ok := f.(io.ReadSeeker)
	if err != nil || !ok {
		c.String(http.StatusInternalServerError, "cannot serve %s", name)
		return
	}
	http.ServeContent(c.Writer, c.Request, name, st.ModTime(), rs)
}
