package train

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// versionFile records, one line per session of a run, the build that ran
// it: the commit and whether the tree was modified, when the binary knows
// (go build in a git checkout stamps it).
const versionFile = "version.txt"

// buildLine describes the running binary in one line.
func buildLine(now time.Time, resumed bool) string {
	what := "started"
	if resumed {
		what = "resumed"
	}
	rev, modified := "unknown", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified tree)"
				}
			}
		}
	}
	return fmt.Sprintf("%s %s: commit %s%s, %s %s/%s\n", now.UTC().Format(time.RFC3339), what, rev, modified,
		runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// noteVersion appends this session's build line to dir/version.txt.
func noteVersion(dir string, resumed bool) error {
	old, err := os.ReadFile(filepath.Join(dir, versionFile))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	text := strings.TrimRight(string(old), "\n")
	if text != "" {
		text += "\n"
	}
	return writeBytes(filepath.Join(dir, versionFile), []byte(text+buildLine(time.Now(), resumed)))
}
