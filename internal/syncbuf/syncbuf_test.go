package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// Writers and a reader at once (run under -race), and the echo gets every
// write.
func TestConcurrentWritesAndEcho(t *testing.T) {
	var echo strings.Builder
	b := &Buffer{Echo: &echo}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Write([]byte("x"))
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if got := b.String(); got != strings.Repeat("x", 400) {
		t.Errorf("%d bytes, want 400", len(got))
	}
	if echo.Len() != 400 {
		t.Errorf("the echo got %d bytes, want 400", echo.Len())
	}
}
