//go:build unix

package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
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

// serveURL starts a command that serves and returns the URL it prints, and
// a function that stops it with Ctrl-C and returns its exit code and
// standard error.
func serveURL(t *testing.T, args ...string) (string, func() (int, string)) {
	t.Helper()
	var out, errs lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(args, strings.NewReader(""), &out, &errs) }()
	re := regexp.MustCompile(`http://\S+`)
	deadline := time.Now().Add(20 * time.Second)
	for re.FindString(out.String()) == "" {
		select {
		case code := <-done:
			t.Fatalf("exit %d before serving: %s", code, errs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("no URL printed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return re.FindString(out.String()), func() (int, string) {
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case code := <-done:
			return code, errs.String()
		case <-time.After(20 * time.Second):
			t.Fatal("still serving 20 s after Ctrl-C")
		}
		return 0, ""
	}
}

func TestServe(t *testing.T) {
	url, stop := serveURL(t, "serve", "--addr", "127.0.0.1:0", "--data", "../../testdata", "--max-sims", "300")
	res, err := http.Get(strings.TrimSuffix(url, "/") + "/api/info")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"max_sims":300`) {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	res, err = http.Post(strings.TrimSuffix(url, "/")+"/api/move", "application/json", strings.NewReader(`{"game":{"moves":[]},"spec":"mcts:sims=301"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 403 {
		t.Fatalf("a spec over --max-sims: %d", res.StatusCode)
	}
	if code, errs := stop(); code != 0 || strings.Contains(errs, "warning") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

func TestServeWarnsOffLoopback(t *testing.T) {
	_, stop := serveURL(t, "serve", "--addr", ":0")
	if code, errs := stop(); code != 0 || !strings.Contains(errs, "warning: listening on") {
		t.Fatalf("exit %d: %q", code, errs)
	}
}

func TestPlayWeb(t *testing.T) {
	url, stop := serveURL(t, "play", "--web", "--opponent", "greedy", "--side", "north", "--seed", "4")
	for _, want := range []string{"south=greedy", "north=human", "seed=4", "rules=urim"} {
		if !strings.Contains(url, want) {
			t.Errorf("URL %s lacks %s", url, want)
		}
	}
	if code, errs := stop(); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

func TestServeBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--data", "no/such/dir"}, "no/such/dir"},
		{[]string{"serve", "extra"}, "unexpected arguments"},
		{[]string{"serve", "--tablebase", "../../go.mod"}, "tablebase"},
		{[]string{"play", "--web", "--opponent", "nobody"}, "unknown agent"},
		{[]string{"play", "--web", "--opponent", "greedy", "--side", "up"}, "--side"},
	} {
		var out, errs bytes.Buffer
		code := run(tc.args, strings.NewReader(""), &out, &errs)
		if code == 0 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%v: exit %d, %q", tc.args, code, errs.String())
		}
	}
}
