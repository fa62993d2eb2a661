package api

import (
	"io"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/config"
)

// paceBodies disconnects clients that send a request body too slowly: after the configured
// body timeout the body must have arrived at config.MinBodyRate on average since the request
// began. A trickling client would otherwise hold its connection (and a file) open for as long
// as it likes; an upload that flows at any real network's speed never notices.
func (s *Server) paceBodies(c *gin.Context) {
	if c.Request.Body == nil || c.Request.Body == http.NoBody || c.Request.ContentLength == 0 {
		c.Next()
		return
	}
	rc := http.NewResponseController(c.Writer)
	start := time.Now()
	if rc.SetReadDeadline(start.Add(s.cfg.BodyTimeout)) != nil {
		c.Next() // note: a writer without a connection (tests' recorders) has no deadline
		return
	}
	c.Request.Body = &pacedBody{ReadCloser: c.Request.Body, rc: rc, deadline: func(n int64) time.Time {
		return start.Add(s.cfg.BodyTimeout + time.Duration(n)*time.Second/config.MinBodyRate)
	}}
	// note: the deadline stays for what the server reads of the body after the handler; the
	// next request on the connection gets its own deadline from the server
	c.Next()
}

// pacedBody moves the connection's read deadline on as the body arrives.
type pacedBody struct {
	io.ReadCloser
	rc       *http.ResponseController
	deadline func(read int64) time.Time
	read     int64
}

func (b *pacedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.read += int64(n)
		b.rc.SetReadDeadline(b.deadline(b.read))
	}
	return n, err
}
