package cli

import (
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSlowHeadersCut: a client that trickles a request's headers, a byte now and then so that
// the connection never idles, is disconnected once --header-timeout has passed, and the
// server goes on answering everyone else. (Bodies are paced by the API: TestSlowBodyDisconnected.)
func TestSlowHeadersCut(t *testing.T) {
	base, _ := startServer(t, map[string]string{}, "--data-dir", t.TempDir(), "--header-timeout", "1s")
	addr := strings.TrimPrefix(base, "http://")
	const clients = 20
	held := make([]time.Duration, clients)
	var wg sync.WaitGroup
	began := time.Now()
	for i := range clients {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		wg.Go(func() {
			io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
			for time.Since(began) < 8*time.Second {
				if _, err := conn.Write([]byte("a")); err != nil {
					break
				}
				conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
				if _, err := conn.Read(make([]byte, 512)); err != nil {
					if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
						break // note: the server answered (408) or closed the connection
					}
				}
			}
			held[i] = time.Since(began)
		})
	}
	if resp, err := http.Get(base + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz while %d clients trickle headers: %v %v", clients, resp, err)
	} else {
		resp.Body.Close()
	}
	wg.Wait()
	longest := time.Duration(0)
	for _, d := range held {
		longest = max(longest, d)
	}
	if longest > 3*time.Second {
		t.Fatalf("a client trickling its headers was held %s; the header timeout is 1s", longest)
	}
	t.Logf("%d clients trickling headers were all cut within %s (header timeout 1s)", clients, longest.Round(time.Millisecond))
}
