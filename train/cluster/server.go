package cluster

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Embedded is a NATS server with JetStream inside the learner's process,
// for a run on one machine: it listens on 127.0.0.1 only, on a free port,
// keeps its storage in a directory of the run, and knows two users with
// fresh random passwords: the learner (every subject) and the run's
// workers (only the run's subjects).
type Embedded struct {
	srv *server.Server
	dir string
	// URL is the client URL, nats://127.0.0.1:PORT.
	URL string
	// Learner and Worker are the two users' credentials.
	Learner, Worker Credentials
}

// StartEmbedded starts the embedded server of run with JetStream storage in
// dir, where it writes its [CredentialsFile] for the run's owner.
func StartEmbedded(dir, run string) (*Embedded, error) {
	lp, wp := secret(), secret()
	n := namesOf(run)
	opts := &server.Options{
		ServerName: "urim-" + run,
		Host:       "127.0.0.1",
		Port:       server.RANDOM_PORT,
		HTTPPort:   0,
		NoSigs:     true,
		NoLog:      true,
		JetStream:  true,
		StoreDir:   dir,
		MaxPayload: maxPayload,
		Users: []*server.User{
			{Username: "learner", Password: lp},
			{Username: "worker-" + run, Password: wp, Permissions: workerPermissions(n)},
		},
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("cluster: embedded server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("cluster: the embedded server in %s did not start", dir)
	}
	e := &Embedded{srv: srv, dir: dir, URL: srv.ClientURL(),
		Learner: Credentials{User: "learner", Password: lp},
		Worker:  Credentials{User: "worker-" + run, Password: wp}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		e.Shutdown()
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if err := writeCredentials(dir, e.URL, e.Learner); err != nil {
		e.Shutdown()
		return nil, err
	}
	return e, nil
}

// Shutdown stops the server, waits until it has and removes its
// credentials file.
func (e *Embedded) Shutdown() {
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
	_ = os.Remove(filepath.Join(e.dir, CredentialsFile)) // gone already: nothing to do
}

// workerPermissions lets a worker of the run publish its shards and its
// heartbeats, read the run's config and networks and take its tournament
// games, and nothing else: no other run's subjects or replies, no
// JetStream administration. docs/distributed.md's nats.conf lists the
// same (TestDocumentedConfig).
func workerPermissions(n names) *server.Permissions {
	kvStream, objStream := "KV_"+n.kv, "OBJ_"+n.nets
	api := "$JS.API."
	pub := []string{
		n.shards + ".>",
		"$KV." + n.kv + "." + keyWorkers + ".>",
		api + "INFO", api + "STREAM.NAMES",
		api + "STREAM.INFO." + kvStream, api + "STREAM.INFO." + objStream, api + "STREAM.INFO." + n.stream,
		api + "DIRECT.GET." + kvStream + ".>", api + "DIRECT.GET." + kvStream, api + "DIRECT.GET." + objStream + ".>", api + "DIRECT.GET." + objStream,
		api + "STREAM.MSG.GET." + kvStream, api + "STREAM.MSG.GET." + objStream,
		api + "CONSUMER.CREATE." + objStream + ".>", api + "CONSUMER.CREATE." + objStream,
		api + "CONSUMER.CREATE." + kvStream + ".>", api + "CONSUMER.CREATE." + kvStream,
		api + "CONSUMER.DELETE." + objStream + ".>", api + "CONSUMER.DELETE." + kvStream + ".>",
		"$JS.FC.>",
		// Tournament games: take a job, publish its record.
		n.evalResults + ".>",
		api + "STREAM.INFO." + n.evalStream, api + "CONSUMER.INFO." + n.evalStream + "." + evalConsumer,
		api + "CONSUMER.MSG.NEXT." + n.evalStream + "." + evalConsumer, "$JS.ACK." + n.evalStream + "." + evalConsumer + ".>",
	}
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: pub},
		// The run's own inbox (ConnectRun): "_INBOX.>" would carry every
		// reply on the server, another run's shards among them.
		Subscribe: &server.SubjectPermission{Allow: []string{InboxPrefix(n.run) + ".>"}},
	}
}

// secret returns a fresh random password.
func secret() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b)
}
