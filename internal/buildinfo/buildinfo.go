// Package buildinfo describes the running binary from what the Go toolchain
// stamped into it: the one reading behind urim version, a run's version.txt
// and a dataset manifest's program field.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// FallbackRevision is the commit reported when the toolchain recorded none
// (a build with -buildvcs=false, by go run or go test, or outside a git
// clone). The urim command sets it from its link-time variable.
var FallbackRevision string

// Info describes a build.
type Info struct {
	// Module is the main module's path, Version its version: v1.2.3 when
	// installed with go install module@version, (devel) from a clone.
	Module, Version string
	// Revision is the VCS commit ("" when unknown), Time its time, and
	// Modified reports uncommitted changes in the tree it was built from.
	Revision, Time string
	Modified       bool
	// Go is the Go version, such as go1.26.0.
	Go string
}

// Read returns the running binary's build information. Without any
// (a binary built without module support) Module and Version are "".
func Read() Info {
	info := Info{Go: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.Module, info.Version = bi.Main.Path, bi.Main.Version
		if info.Version == "" {
			info.Version = "(devel)"
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Revision = s.Value
			case "vcs.time":
				info.Time = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
	}
	if info.Revision == "" {
		info.Revision = FallbackRevision
	}
	return info
}
