package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/inputfile"
	"github.com/urim-rl/urim/train"
)

// CredentialsFile is the file, in the cluster directory of a run with local
// workers, that lets the run's owner reach its embedded server (urim
// cluster status --run DIR): the server's URL and the learner's user and
// password of the session, readable by the owner only (mode 0600). The
// embedded server writes it when it starts and removes it when it stops.
const CredentialsFile = "credentials.json"

// credentialsJSON is the file's content.
type credentialsJSON struct {
	URL      string `json:"url"`
	User     string `json:"user"`
	Password string `json:"password"`
}

// writeCredentials writes the credentials file in dir.
func writeCredentials(dir, url string, c Credentials) error {
	b, err := json.MarshalIndent(credentialsJSON{URL: url, User: c.User, Password: c.Password}, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WritePrivate(filepath.Join(dir, CredentialsFile), append(b, '\n')); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	return nil
}

// RunCredentials returns the URL and credentials of the embedded server of
// the run in directory run (started by urim train --workers-local), from
// its credentials file. It refuses a file that others may read or write.
func RunCredentials(run string) (string, Credentials, error) {
	path := filepath.Join(run, train.ClusterDir, CredentialsFile)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", Credentials{}, fmt.Errorf("cluster: %s: no credentials file: is the run's urim train with local workers (--workers-local) running? "+
			"A run on another server is watched with --nats URL and the credentials in the environment", path)
	}
	if err != nil {
		return "", Credentials{}, fmt.Errorf("cluster: %w", err)
	}
	if p := fi.Mode().Perm(); runtime.GOOS != "windows" && p&0o077 != 0 {
		return "", Credentials{}, fmt.Errorf("cluster: %s: mode %04o lets others read the run's password; want 0600 (chmod 600 %s)", path, p, path)
	}
	b, err := inputfile.ReadFile(path, 64<<10, "a credentials file")
	if err != nil {
		return "", Credentials{}, fmt.Errorf("cluster: %w", err)
	}
	var cj credentialsJSON
	if err := json.Unmarshal(b, &cj); err != nil || cj.URL == "" || cj.User == "" {
		return "", Credentials{}, fmt.Errorf("cluster: %s: not a credentials file of urim train (want url, user and password in JSON)", path)
	}
	return cj.URL, Credentials{User: cj.User, Password: cj.Password}, nil
}
