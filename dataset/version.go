package dataset

import "runtime/debug"

// ProgramVersion describes the running program for a manifest: the main
// module's path and version, the VCS revision and "+dirty" when the build
// had uncommitted changes (as far as the Go toolchain stamped them), and
// the Go version.
func ProgramVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Path + " " + bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		v += " " + rev + dirty
	} else {
		v += " (commit not recorded: go run, go test or -buildvcs=false)"
	}
	return v + " " + bi.GoVersion
}
