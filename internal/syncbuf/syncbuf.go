// Package syncbuf provides a bytes.Buffer that several goroutines may
// write and read at once: the log a test hands to a learner and its
// workers, or to a command it interrupts, and reads while they run.
package syncbuf

import (
	"bytes"
	"io"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent use. The zero value is an
// empty buffer; Echo, when set before the first write, also receives every
// write (a test's -v output, say).
type Buffer struct {
	Echo io.Writer

	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p and copies it to Echo.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Echo != nil {
		s.Echo.Write(p)
	}
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
