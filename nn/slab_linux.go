package nn

import "syscall"

// hugePages asks Linux to back b with transparent huge pages (where the
// system's setting is "madvise"; "always" does so anyway). It is a hint:
// errors are ignored.
func hugePages(b []byte) { _ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) }
