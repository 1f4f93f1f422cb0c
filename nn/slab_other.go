//go:build !linux

package nn

// hugePages does nothing outside Linux.
func hugePages(b []byte) {}
