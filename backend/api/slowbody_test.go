package api_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/config"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// TestSlowBodyDisconnected: a client that trickles a request body is disconnected once the
// body timeout has passed and the body is behind config.MinBodyRate, and the server goes on
// answering everyone else; a body sent at once is served.
func TestSlowBodyDisconnected(t *testing.T) {
	e := newEnv(t, testenv.SQLite, func(o *options) { o.config = func(c *config.Config) { c.BodyTimeout = time.Second } })
	addr := strings.TrimPrefix(e.srv.URL, "http://")
	var conns []net.Conn
	for range 20 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		io.WriteString(conn, "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"email\":")
		conns = append(conns, conn)
	}
	began := time.Now()
	for i, conn := range conns {
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			_, err = conn.Read(make([]byte, 1)) // note: an answer may come first; the connection must end
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("connection %d still open after %s", i, time.Since(began))
		}
	}
	if waited := time.Since(began); waited > 5*time.Second {
		t.Fatalf("the trickling clients were held %s", waited)
	}
	if status, _ := e.anon().do("POST", "/api/v1/auth/login", map[string]string{"email": "admin@example.org", "password": "wrong"}); status != 401 {
		t.Fatalf("a login sent at once: %d", status)
	}
	if resp, err := http.Get(e.srv.URL + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
}
