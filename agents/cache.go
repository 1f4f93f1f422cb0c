package agents

import (
	"os"
	"sync"
	"time"
)

// Cache keeps what agents load from files (a network, an endgame table), so
// that the agents built from one file share one read-only copy and a
// tournament building an agent per game reads each file once. An entry
// serves only while its file keeps its size and modification time. A failed
// load is not kept: the next call reads the file again, so a file fixed or
// written after a failure loads.
//
// The zero value is ready to use and keeps the 8 files loaded last. A Cache
// is safe for concurrent use; loads run one at a time, so two agents asking
// for one file read it once.
type Cache[T any] struct {
	// Max is the number of files kept; 0 means 8.
	Max int

	mu      sync.Mutex
	entries []cacheEntry[T] // the last loaded first
}

type cacheEntry[T any] struct {
	path  string
	size  int64
	mtime time.Time
	v     T
}

// Load returns what load(path) returns, from the cache when path was loaded
// before and its file has not changed since. An error of load is returned
// as it is and not cached; when path cannot be stat'ed, load runs anyway
// (and reports the problem in its own words).
func (c *Cache[T]) Load(path string, load func(path string) (T, error)) (T, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return load(path)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.path == path && e.size == fi.Size() && e.mtime.Equal(fi.ModTime()) {
			return e.v, nil
		}
	}
	v, err := load(path)
	if err != nil {
		return v, err
	}
	keep := c.Max
	if keep <= 0 {
		keep = 8
	}
	e := cacheEntry[T]{path: path, size: fi.Size(), mtime: fi.ModTime(), v: v}
	c.entries = append([]cacheEntry[T]{e}, c.entries[:min(len(c.entries), keep-1)]...)
	return v, nil
}
