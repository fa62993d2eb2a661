package api

import (
	"mime"
	"net/http"
	"path"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/releases"
)

// releaseList is the body of GET /releases.
type releaseList struct {
	Items []releases.Release `json:"items"`
}

// createRelease checks a release request and queues it: 202 with the release and its URL.
func (s *Server) createRelease(c *gin.Context) error {
	var req releases.Request
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rel, err := s.releases.Start(c.Request.Context(), fp, currentUser(c).ID, req)
	if err != nil {
		return err
	}
	c.Header("Location", "/api/v1/projects/"+fp.ID+"/releases/"+rel.ID)
	c.JSON(http.StatusAccepted, rel)
	return nil
}

// listReleases lists the project's releases, newest first.
func (s *Server) listReleases(c *gin.Context) error {
	rs, err := s.releases.List(c.Request.Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, releaseList{Items: rs})
	return nil
}

// getRelease answers one release with its progress, and its manifest once done.
func (s *Server) getRelease(c *gin.Context) error {
	rel, err := s.releases.Get(c.Request.Context(), currentProject(c).ID, c.Param("rid"))
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, rel)
	return nil
}

// releaseFile serves one file of a done release: from the server for a local blob store (with
// range requests), otherwise by a redirect to a short-lived signed URL.
func (s *Server) releaseFile(c *gin.Context) error {
	d, err := s.releases.File(c.Request.Context(), currentProject(c).ID, c.Param("rid"), c.Param("path"))
	if err != nil {
		return err
	}
	return serveDownload(c, d)
}

// signedReleaseFile serves the file a signed download link names; the link is the credential.
func (s *Server) signedReleaseFile(c *gin.Context) error {
	d, err := s.releases.SignedFile(c.Request.Context(), c.Param("rid"), c.Param("path"), linkArgs(c))
	if err != nil {
		return err
	}
	return serveDownload(c, d)
}

// linkArgs are the query parameters of a signed download link.
func linkArgs(c *gin.Context) releases.LinkArgs {
	return releases.LinkArgs{User: c.Query("u"), Exp: c.Query("exp"), Sig: c.Query("sig")}
}

// serveDownload sends a release file as a download, or redirects to the object store's URL.
func serveDownload(c *gin.Context, d *releases.Download) error {
	c.Header("Cache-Control", "no-store")
	if d.Local == nil {
		c.Redirect(http.StatusFound, d.URL)
		return nil
	}
	defer d.Local.Close()
	h := c.Writer.Header()
	h.Set("Content-Type", d.File.ContentType)
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": path.Base(d.File.Path)}))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox")
	h.Set("ETag", `"`+d.File.SHA256+`"`)
	st, err := d.Local.Stat()
	if err != nil {
		return err
	}
	http.ServeContent(c.Writer, c.Request, "", st.ModTime(), d.Local)
	return nil
}

// releaseArchive streams one zip of a done release.
func (s *Server) releaseArchive(c *gin.Context) error {
	p := currentProject(c)
	a, err := s.releases.Archive(c.Request.Context(), p.ID, c.Param("rid"), p.Name)
	if err != nil {
		return err
	}
	s.streamArchive(c, a)
	return nil
}

// releaseLinks signs short-lived download links of a done release, for browsers.
func (s *Server) releaseLinks(c *gin.Context) error {
	l, err := s.releases.Links(c.Request.Context(), currentProject(c).ID, c.Param("rid"), currentUser(c).ID)
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, l)
	return nil
}

// signedReleaseArchive streams the zip a signed download link names; the link is the
// credential.
func (s *Server) signedReleaseArchive(c *gin.Context) error {
	a, err := s.releases.SignedArchive(c.Request.Context(), c.Param("rid"), linkArgs(c))
	if err != nil {
		return err
	}
	s.streamArchive(c, a)
	return nil
}

// streamArchive writes the zip as it reads the files. If one cannot be read part way, the
// connection is closed without the end of the response, so the client sees a failed download
// rather than a short zip.
func (s *Server) streamArchive(c *gin.Context, a *releases.Archive) {
	h := c.Writer.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": a.Name}))
	h.Set("Cache-Control", "no-store")
	c.Status(http.StatusOK)
	if err := a.WriteTo(c.Request.Context(), c.Writer); err != nil {
		s.log.ErrorContext(c.Request.Context(), "release archive stopped", "err", err, "request_id", c.GetString(ctxRequestID))
		abortResponse(c)
	}
}

// abortResponse closes the connection of a response that cannot be completed.
func abortResponse(c *gin.Context) {
	c.Abort()
	if hj, ok := c.Writer.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
		}
	}
}
