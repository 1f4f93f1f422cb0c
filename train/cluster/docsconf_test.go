package cluster

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
)

// documentedConfig returns the nats.conf of docs/distributed.md, "Three
// machines".
func documentedConfig(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "distributed.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```text\n(listen: .*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/distributed.md has no nats.conf block")
	}
	return string(m[1])
}

// TestDocumentedConfig: the nats.conf of docs/distributed.md, started as
// written (on loopback, with its storage in a temporary directory), lets a
// learner set up its run and a worker fetch the network and publish a
// shard the learner takes; and its worker permissions are the embedded
// server's, subject for subject.
func TestDocumentedConfig(t *testing.T) {
	conf := documentedConfig(t)
	dir := t.TempDir()
	conf = strings.Replace(conf, "listen: 0.0.0.0:4222", "listen: 127.0.0.1:-1", 1)
	conf = strings.Replace(conf, "store_dir: /var/lib/nats", "store_dir: "+strings.ReplaceAll(filepath.Join(dir, "js"), `\`, `/`), 1)
	path := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	learner := Credentials{User: "learner", Password: secret()}
	worker := Credentials{User: "worker-urim", Password: secret()}
	t.Setenv("LEARNER_PASSWORD", learner.Password)
	t.Setenv("WORKER_PASSWORD", worker.Password)
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		t.Fatalf("the documented nats.conf: %v", err)
	}
	opts.NoSigs, opts.NoLog = true, true
	var perms *server.Permissions
	for _, u := range opts.Users {
		if u.Username == worker.User {
			perms = u.Permissions
		}
	}
	want := workerPermissions(namesOf("urim"))
	if perms == nil || perms.Publish == nil || perms.Subscribe == nil {
		t.Fatalf("the documented worker-urim has no publish and subscribe permissions: %+v", perms)
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{{"publish", perms.Publish.Allow, want.Publish.Allow}, {"subscribe", perms.Subscribe.Allow, want.Subscribe.Allow}} {
		if !slices.Equal(slices.Sorted(slices.Values(c.got)), slices.Sorted(slices.Values(c.want))) {
			t.Errorf("documented %s permissions\n%q\nthe embedded server's\n%q", c.what, c.got, c.want)
		}
	}
	srv, err := natsServer(t, opts)
	if err != nil {
		t.Fatalf("the documented server: %v", err)
	}
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	l := openRunLearner(t, srv.ClientURL(), learner, "urim")
	ctx, cancel := testBudget(t)
	defer cancel()
	log := newLog()
	if err := RunWorker(ctx, WorkerOptions{URL: srv.ClientURL(), Credentials: worker, Run: "urim", ID: "w", Threads: 1, MaxShards: 1, Log: log}); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	b, err := l.Collect(ctx, 0, 1, func(string) bool { return false })
	if err != nil || len(b.Shards) != 1 {
		t.Fatalf("the learner took %v (%v)\n%s", b, err, log)
	}
	if err := l.Committed(); err != nil {
		t.Fatal(err)
	}
}
