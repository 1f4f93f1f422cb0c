package evaluate

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/inputfile"
	"github.com/urim-rl/urim/internal/lockfile"
)

// storeFormat names the file format in a store's header line.
const storeFormat = "urim-games"

// storeVersion is the version of the store format and of the way its games
// are drawn. Version 2: the openings come from env.Game.RandomOpening (the
// generator env.Vec uses), so version 1 stores hold games no run asks for
// again, and custom rules are stored with each game.
const storeVersion = 2

// storeHeader is the first line of a store file.
type storeHeader struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	RulesVersion int    `json:"rules_version"`
}

// Store is an appendable collection of game records kept in a file: a header
// line, then one JSON record per line. Games are found by their key (rules,
// seat specs, seed and opening: see [RecordKey]), so a tournament plays only
// the games a store lacks. A Store is not safe for concurrent use.
type Store struct {
	path    string
	records []Record
	index   map[string]int
	dirty   bool
}

// maxStoreFile bounds a store file: MaxTournamentGames games of a few
// kilobytes each.
const maxStoreFile = 8 << 30

// LockStore takes the lock of the store at path (the file path + ".lock",
// package lockfile), which a tournament holds while it reads and writes the
// store (making the store's directory if needed), so that two runs cannot overwrite each other's games. A store
// another process holds is an error wrapping lockfile.ErrLocked.
func LockStore(path string) (*lockfile.Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("evaluate: store %s: %w", path, err)
	}
	l, err := lockfile.Acquire(path+".lock", "urim eval")
	if err != nil {
		return nil, fmt.Errorf("evaluate: store %s: %w", path, err)
	}
	return l, nil
}

// OpenStore reads the store at path; a missing file is an empty store that
// [Store.Save] will create. A store written under another env.RulesVersion is
// refused: its games may no longer be legal.
func OpenStore(path string) (*Store, error) {
	s := &Store{path: path, index: map[string]int{}}
	f, err := inputfile.Open(path, maxStoreFile, "a game store")
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("evaluate: store: %w", err)
	}
	defer f.Close()
	if err := s.read(f); err != nil {
		return nil, err
	}
	return s, nil
}

// ReadStore reads a store from r (a file its caller opened with
// inputfile, as a server opens inside its served directories), named path
// in errors; the store is read-only.
func ReadStore(r io.Reader, path string) (*Store, error) {
	s := &Store{path: path, index: map[string]int{}}
	if err := s.read(r); err != nil {
		return nil, err
	}
	return s, nil
}

// read reads the store's header and records from r.
func (s *Store) read(r io.Reader) error {
	path := s.path
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if line == 1 {
			var h storeHeader
			if err := json.Unmarshal([]byte(text), &h); err != nil || h.Format != storeFormat {
				return fmt.Errorf("evaluate: store %s:1: not a urim game store (want a %q header line)", path, storeFormat)
			}
			if h.Version != storeVersion {
				return fmt.Errorf("evaluate: store %s: store version %d, this urim writes %d (its random openings changed): the stored games would not be reused, move the file aside",
					path, h.Version, storeVersion)
			}
			if h.RulesVersion != env.RulesVersion {
				return fmt.Errorf("evaluate: store %s: written under rules version %d, the engine is at %d: its games are stale, move the file aside",
					path, h.RulesVersion, env.RulesVersion)
			}
			continue
		}
		var r Record
		if err := json.Unmarshal([]byte(text), &r); err != nil {
			return fmt.Errorf("evaluate: store %s:%d: %w", path, line, err)
		}
		if err := r.Check(); err != nil {
			return fmt.Errorf("evaluate: store %s:%d: corrupt game record: %w", path, line, err)
		}
		s.put(r)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("evaluate: store %s: %w", path, err)
	}
	s.dirty = false
	return nil
}

// Path returns the file the store reads and writes.
func (s *Store) Path() string { return s.path }

// Len returns the number of stored games.
func (s *Store) Len() int { return len(s.records) }

// Records returns the stored games in the order they were added. The slice
// is the store's own: do not modify it.
func (s *Store) Records() []Record { return s.records }

// Lookup returns the stored game with the given key.
func (s *Store) Lookup(key string) (Record, bool) {
	i, ok := s.index[key]
	if !ok {
		return Record{}, false
	}
	return s.records[i], true
}

// Add stores r, replacing a stored game with the same key.
func (s *Store) Add(r Record) { s.put(r) }

func (s *Store) put(r Record) {
	k := RecordKey(&r)
	if i, ok := s.index[k]; ok {
		s.records[i] = r
	} else {
		s.index[k] = len(s.records)
		s.records = append(s.records, r)
	}
	s.dirty = true
}

// Save writes the store to its file if it changed since it was read or last
// saved, atomically: to a temporary file in the same directory, then renamed
// over the old one.
func (s *Store) Save() error {
	if !s.dirty {
		return nil
	}
	err := WriteFileAtomic(s.path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		if err := enc.Encode(storeHeader{Format: storeFormat, Version: storeVersion, RulesVersion: env.RulesVersion}); err != nil {
			return err
		}
		for i := range s.records {
			if err := enc.Encode(&s.records[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("evaluate: store: %w", err)
	}
	s.dirty = false
	return nil
}

// RecordKey identifies a game for reuse: the rules (custom rules whole) and
// ply cap, the agent spec in each seat, the game seed and the opening.
// Player names are not part of it, so renaming a player keeps its games.
func RecordKey(r *Record) string {
	return gameKey(rulesKey(r.Rules, r.CustomRules), r.MaxPlies, r.Specs, r.Seed, r.Opening)
}

func gameKey(rules string, maxPlies int, specs [2]string, seed uint64, opening []int) string {
	return fmt.Sprintf("%s|%d|%s|%s|%d|%v", rules, maxPlies, specs[0], specs[1], seed, opening)
}

// WriteFileAtomic writes a file through write, to a temporary file in the
// same directory that is synced and renamed over path only when write
// succeeded, so readers see the old file or the new one, never a torn one
// (package atomicfile). Missing parent directories are created.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	return atomicfile.WriteMkdir(path, write)
}
