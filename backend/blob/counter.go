package blob

import (
	"errors"
	"fmt"
	"hash"
	"io"
	"sync/atomic"
)

// ErrTooLarge is the error of a body that passed its size limit.
var ErrTooLarge = errors.New("upload too large")

// TooLargeError says which limit a body passed; it matches ErrTooLarge.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the upload exceeds the limit of %d bytes", e.Limit)
}

// Is makes a TooLargeError match ErrTooLarge.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Counter counts the bytes read through it, hashes them when Hash is set, and fails with a
// TooLargeError once more than Limit bytes have passed (0: no limit). N may be read from
// another goroutine while a reader drains it (for progress bars).
type Counter struct {
	R     io.Reader
	Hash  hash.Hash
	Limit int64
	n     atomic.Int64
}

func (c *Counter) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	total := c.n.Add(int64(n))
	if c.Hash != nil {
		c.Hash.Write(p[:n])
	}
	if c.Limit > 0 && total > c.Limit {
		return n, &TooLargeError{Limit: c.Limit}
	}
	return n, err
}

// N is how many bytes have been read so far.
func (c *Counter) N() int64 { return c.n.Load() }
