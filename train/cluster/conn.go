package cluster

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/urim-rl/urim/train"
)

// Credentials reach a NATS server: user and password, a token, a .creds
// file, and TLS. They come from the config (names of files, the user) and
// the environment (secrets); they are never printed.
type Credentials struct {
	User, Password, Token, Creds string
	CA, Cert, Key                string
}

// Environment variables of the credentials.
const (
	EnvUser     = "URIM_NATS_USER"
	EnvPassword = "URIM_NATS_PASSWORD"
	EnvToken    = "URIM_NATS_TOKEN"
	EnvCreds    = "URIM_NATS_CREDS"
	EnvCA       = "URIM_NATS_CA"
	EnvCert     = "URIM_NATS_CERT"
	EnvKey      = "URIM_NATS_KEY"
)

// CredentialsFrom returns the credentials of a cluster section, each
// missing one taken from the environment.
func CredentialsFrom(c train.Cluster) Credentials {
	or := func(v, env string) string {
		if v != "" {
			return v
		}
		return os.Getenv(env)
	}
	return Credentials{User: or(c.User, EnvUser), Password: os.Getenv(EnvPassword), Token: os.Getenv(EnvToken),
		Creds: or(c.Creds, EnvCreds), CA: or(c.TLS.CA, EnvCA), Cert: or(c.TLS.Cert, EnvCert), Key: or(c.TLS.Key, EnvKey)}
}

// Env returns the credentials as environment variables, for a worker
// process started by the learner.
func (c Credentials) Env() []string {
	var out []string
	add := func(k, v string) {
		if v != "" {
			out = append(out, k+"="+v)
		}
	}
	add(EnvUser, c.User)
	add(EnvPassword, c.Password)
	add(EnvToken, c.Token)
	add(EnvCreds, c.Creds)
	add(EnvCA, c.CA)
	add(EnvCert, c.Cert)
	add(EnvKey, c.Key)
	return out
}

// String never shows a secret.
func (c Credentials) String() string {
	s := "no credentials"
	switch {
	case c.Creds != "":
		s = "credentials file " + c.Creds
	case c.User != "":
		s = "user " + c.User
	case c.Token != "":
		s = "a token"
	}
	if c.CA != "" || c.Cert != "" {
		s += ", TLS"
	}
	return s
}

// InboxPrefix is the prefix of the reply subjects of a connection made for
// run (ConnectRun): a worker of the run may subscribe to these alone, so
// no reply of another run's learner or workers reaches it.
func InboxPrefix(run string) string { return ofRun(inboxRun, run) }

// ConnectRun is Connect for one run: its replies come on the run's own
// inbox subjects (InboxPrefix), the only ones a worker may subscribe to.
func ConnectRun(url string, c Credentials, name, run string) (*nats.Conn, error) {
	return connect(url, c, name, nats.CustomInboxPrefix(InboxPrefix(run)))
}

// Connect connects to the server at url as name, reconnecting for ever
// after a lost connection (a server of a cluster restarting).
func Connect(url string, c Credentials, name string) (*nats.Conn, error) {
	return connect(url, c, name)
}

func connect(url string, c Credentials, name string, extra ...nats.Option) (*nats.Conn, error) {
	if url == "" {
		return nil, errors.New("cluster: no NATS server URL")
	}
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.Timeout(5 * time.Second),
		nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
			// Asynchronous errors (a permission refused) would go unseen.
			fmt.Fprintf(os.Stderr, "%s: NATS: %v\n", name, err)
		})}
	switch {
	case c.User != "":
		opts = append(opts, nats.UserInfo(c.User, c.Password))
	case c.Token != "":
		opts = append(opts, nats.Token(c.Token))
	}
	if c.Creds != "" {
		opts = append(opts, nats.UserCredentials(c.Creds))
	}
	if c.CA != "" {
		opts = append(opts, nats.RootCAs(c.CA))
	}
	if c.Cert != "" || c.Key != "" {
		opts = append(opts, nats.ClientCert(c.Cert, c.Key))
	}
	nc, err := nats.Connect(url, append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("cluster: connect to %s (%s): %w", url, c, err)
	}
	return nc, nil
}
