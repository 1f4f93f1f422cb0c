// Package openblas is the cgo binding of package kernels to OpenBLAS's
// cblas_sgemm (Debian's libopenblas-dev). It is a package of its own because
// a package that uses cgo cannot also hold Go assembly. Its code builds only
// with cgo and the build tag "openblas"; otherwise the package is empty.
package openblas
