package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urim-rl/urim/env"
)

func init() {
	register(&command{
		name:  "version",
		usage: "",
		short: "print the module version, the commit it was built from and the rules version",
		long: `Prints the version of urim: the module version (v1.2.3 when installed with
'go install module@version', (devel) when built from a clone), the commit and
its time when the build recorded them (built from a git clone; "+dirty" when
the tree had changes), the Go version and the rules version, which changes
only when the rules engine's behaviour does (game stores and datasets record
it). 'urim --version' prints the same.

Examples:
  urim version
  urim --version`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				return writeVersion(io.out)
			}
		},
	})
}

// buildCommit is the commit when the build did not record one (a build
// with -buildvcs=false, or from a copy without .git):
//
//	go build -ldflags "-X main.buildCommit=$(git rev-parse HEAD)" ./cmd/urim
var buildCommit string

// writeVersion prints what urim version shows, from the build information
// the Go toolchain embeds in the binary.
func writeVersion(w io.Writer) error {
	module, commit, when, dirty := "(unknown)", "", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		module = bi.Main.Version
		if module == "" {
			module = "(devel)"
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if commit == "" {
		commit = buildCommit
	}
	switch {
	case commit == "":
		commit = "unknown (not recorded: built outside a git clone, with -buildvcs=false, or by go run or go test)"
	case dirty:
		commit += "+dirty"
	}
	if when != "" {
		commit += " (" + when + ")"
	}
	_, err := fmt.Fprintf(w, "urim %s\ncommit %s\n%s %s/%s\nrules version %d\n", module, commit,
		runtime.Version(), runtime.GOOS, runtime.GOARCH, env.RulesVersion)
	return err
}
