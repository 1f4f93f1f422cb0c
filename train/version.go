package train

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/urim-rl/urim/internal/buildinfo"
	"github.com/urim-rl/urim/internal/inputfile"
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
	bi := buildinfo.Read()
	rev, modified := bi.Revision, ""
	if rev == "" {
		rev = "unknown"
	}
	if bi.Modified {
		modified = " (modified tree)"
	}
	return fmt.Sprintf("%s %s: commit %s%s, %s %s/%s\n", now.UTC().Format(time.RFC3339), what, rev, modified,
		runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// maxVersionFile bounds version.txt (a line of about 100 bytes a session).
const maxVersionFile = 16 << 20

// noteVersion appends this session's build line to dir/version.txt.
func noteVersion(dir string, resumed bool) error {
	old, err := inputfile.ReadFile(filepath.Join(dir, versionFile), maxVersionFile, "a run's version.txt")
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	text := strings.TrimRight(string(old), "\n")
	if text != "" {
		text += "\n"
	}
	return writeBytes(filepath.Join(dir, versionFile), []byte(text+buildLine(time.Now(), resumed)))
}
