#!/usr/bin/env bash
# Go/PyTorch speed ratios of the default network (mlp 3x256, compact encoding of urim), measured in one run:
# installs Debian's python3-torch if missing, then alternates `urim bench nn` and scripts/torch_bench.py
# (ROUNDS times each, interleaved so that both see the same machine load) and prints the ratios of the medians.
# Not a test dependency.
#
# usage: [GO_TAGS=openblas] scripts/torch_bench.sh [ALTERNATIONS (default 2)] [extra urim bench nn flags]
# e.g.   GO_TAGS=openblas scripts/torch_bench.sh 3 --backends avx512,openblas
set -euo pipefail
cd "$(dirname "$0")/.."
alternations="${1:-2}"
shift || true

py=/usr/bin/python3
if ! "$py" -c 'import torch' >/dev/null 2>&1; then
  echo "installing python3-torch (Debian's PyTorch 1.13)..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch >/dev/null
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -tags "${GO_TAGS:-}" -o "$out/urim" ./cmd/urim
for i in $(seq "$alternations"); do
  echo "round $i of $alternations: Go" >&2
  "$out/urim" bench nn --quiet --json "$@" >"$out/go$i.json"
  # One process per thread count, its OpenMP pool sized by OMP_NUM_THREADS: in one process the pool of the
  # two-thread cases stays up and spins, so the "one-thread" cases ran on two cores' worth of CPU.
  for t in 1 2; do
    echo "round $i of $alternations: PyTorch, $t thread(s)" >&2
    OMP_NUM_THREADS=$t MKL_NUM_THREADS=$t "$py" scripts/torch_bench.py measure --threads "$t" --out "$out/torch$i-$t.json"
  done
done
"$py" scripts/torch_bench.py ratios --go "$out"/go*.json --torch "$out"/torch*.json
