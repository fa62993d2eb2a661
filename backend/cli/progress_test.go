package cli

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is one terminal that stdout and stderr both write to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestProgressEndsBeforeResult checks that the bar is finished — at 100%, its line ended —
// before the command prints the server's answer, both when the server answers at once and
// when it works on after everything was sent, and that nothing redraws after that.
func TestProgressEndsBeforeResult(t *testing.T) {
	for _, serverWork := range []time.Duration{0, 700 * time.Millisecond} {
		term := &lockedBuffer{}
		bar := newProgress(term, 5000, strings.NewReader(strings.Repeat("x", 5000)))
		stop := bar.start()
		if _, err := io.Copy(io.Discard, bar.read); err != nil {
			t.Fatal(err)
		}
		time.Sleep(serverWork)
		stop()
		term.Write([]byte(`{"imported":1}` + "\n"))
		out := term.String()
		result := strings.Index(out, `{"imported"`)
		before := out[:result]
		if !strings.HasSuffix(before, "\n") || !strings.Contains(before, "100.0%") {
			t.Fatalf("server work %v: the bar did not end before the result: %q", serverWork, out)
		}
		if strings.Contains(out[result:], "\r") {
			t.Fatalf("server work %v: the bar redrew after the result: %q", serverWork, out)
		}
		if serverWork > 0 {
			if !strings.Contains(before, "waiting for the server") {
				t.Fatalf("no word that the server is at work: %q", out)
			}
			if n := strings.Count(before, "100.0%"); n != 1 {
				t.Fatalf("the finished bar was drawn %d times while the server worked: %q", n, out)
			}
		}
	}
}
