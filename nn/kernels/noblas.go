//go:build !(cgo && openblas)

package kernels

// blasBackends returns no back-end: this build has no OpenBLAS.
func blasBackends() []backend { return nil }
