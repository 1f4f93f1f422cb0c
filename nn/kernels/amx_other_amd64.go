//go:build !linux && !purego && !noasm

package kernels

// amxPermitted reports whether the OS lets this process use the AMX tiles:
// only Linux is asked (amx_linux_amd64.go).
func amxPermitted() bool { return false }
