// Package lockfile takes the exclusive locks that keep two urim processes
// from writing one run directory, dataset directory or game store at once:
// the one way every such writer is locked. A lock is a file (DirName in a
// directory, or the store's name with ".lock" added) that holds the
// holder's pid, host and command, locked with flock(2) while it is held. The
// kernel drops that lock when the holder dies, however it dies, so a lock
// file left behind by a killed process is stale: the next process takes it
// over and says so. Release removes the file.
package lockfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DirName is the name of the lock file in a locked directory.
const DirName = "urim.lock"

// ErrLocked is the error for a lock another process (or another part of
// this one) holds.
var ErrLocked = errors.New("locked by another process")

// Lock is a held lock.
type Lock struct {
	path string
	f    *os.File
	// Stale describes the holder of a stale lock file this lock took over
	// ("pid 123 on host h since ..."), or "".
	Stale string
}

// Dir locks the directory dir (which must exist) for the command what
// ("urim train"): the lock file is dir/DirName.
func Dir(dir, what string) (*Lock, error) {
	return Acquire(filepath.Join(dir, DirName), what)
}

// Acquire takes the lock file at path for the command what. A lock held by
// a live process is an error wrapping [ErrLocked] that names the holder's
// pid, host and command and the lock file; a stale lock file is taken over
// (see [Lock.Stale]).
func Acquire(path, what string) (*Lock, error) {
	for range 10 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if err := lockFD(f); err != nil {
			holder := readHolder(f)
			f.Close()
			if errors.Is(err, errWouldBlock) {
				if holder == "" {
					holder = "a process that has not written its name yet"
				}
				return nil, fmt.Errorf("%w: %s holds %s; wait for it to finish, or stop it", ErrLocked, holder, path)
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		// A holder that released between our open and our lock removed
		// the file we opened: lock the file that is at path now.
		if same, err := samePath(f, path); err != nil || !same {
			f.Close()
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("lock %s: %w", path, err)
			}
			continue
		}
		l := &Lock{path: path, f: f, Stale: readHolder(f)}
		host, _ := os.Hostname()
		text := fmt.Sprintf("pid %d on host %s (%s) since %s\n", os.Getpid(), host, what, time.Now().UTC().Format(time.RFC3339))
		if err := f.Truncate(0); err != nil {
			l.Release()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if _, err := f.WriteAt([]byte(text), 0); err != nil {
			l.Release()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return l, nil
	}
	return nil, fmt.Errorf("%w: %s keeps being replaced", ErrLocked, path)
}

// Path returns the lock file's path.
func (l *Lock) Path() string { return l.path }

// Release removes the lock file and drops the lock. It may be called on a
// nil Lock, and more than once.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// readHolder returns the first line of the lock file open as f: who holds
// (or held) it.
func readHolder(f *os.File) string {
	buf := make([]byte, 512)
	n, err := f.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return ""
	}
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	return strings.TrimSpace(line)
}

// Pid returns the pid a holder description such as Lock.Stale names, or 0.
func Pid(holder string) int {
	rest, ok := strings.CutPrefix(holder, "pid ")
	if !ok {
		return 0
	}
	n, _ := strconv.Atoi(strings.Fields(rest + " ")[0])
	return n
}
