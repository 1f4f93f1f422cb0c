package dataset

import "github.com/urim-rl/urim/internal/buildinfo"

// ProgramVersion describes the running program for a manifest: the main
// module's path and version, the VCS revision and "+dirty" when the build
// had uncommitted changes (as far as the Go toolchain stamped them), and
// the Go version.
func ProgramVersion() string {
	bi := buildinfo.Read()
	if bi.Module == "" {
		return "unknown"
	}
	v := bi.Module + " " + bi.Version
	switch {
	case bi.Revision == "":
		v += " (commit not recorded: go run, go test or -buildvcs=false)"
	case bi.Modified:
		v += " " + bi.Revision + "+dirty"
	default:
		v += " " + bi.Revision
	}
	return v + " " + bi.Go
}
