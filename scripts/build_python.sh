#!/usr/bin/env bash
# Builds liburim.so, the C library of the Python package, into python/urim/
# (docs/python.md). Needs Go and a C compiler (cgo).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v go >/dev/null 2>&1; then
  export PATH="$PATH:/usr/local/go/bin"
fi
CGO_ENABLED=1 go build -buildmode=c-shared -trimpath -o python/urim/liburim.so ./cmd/liburim
echo "built python/urim/liburim.so (and liburim.h, the C declarations of its functions)"
