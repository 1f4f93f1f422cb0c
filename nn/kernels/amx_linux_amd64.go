//go:build !purego && !noasm

package kernels

import "syscall"

// amxPermitted asks Linux for the AMX tiles' state (arch_prctl
// ARCH_REQ_XCOMP_PERM of XFEATURE_XTILEDATA, once for the whole process)
// and reports whether it was given: without it the tile instructions
// fault. Linux grants it when it supports the state and every thread's
// signal stack is large enough for it (Go's are).
func amxPermitted() bool {
	const archReqXcompPerm, xfeatureXtiledata = 0x1023, 18
	_, _, errno := syscall.RawSyscall(syscall.SYS_ARCH_PRCTL, archReqXcompPerm, xfeatureXtiledata, 0)
	return errno == 0
}
