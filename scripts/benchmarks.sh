#!/usr/bin/env bash
# Runs every `urim bench` benchmark this build has, and `urim selfplay`'s
# throughput, into one Markdown report.
#
# usage: scripts/benchmarks.sh REPORT.md
#
# The report starts with the commit, the Go version, the cores and the load
# average, since figures from a loaded machine are only comparable within one
# report. Each benchmark keeps its defaults; expect several minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
if [ $# -ne 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then usage; [ $# -eq 1 ] && exit 0; exit 2; fi
report="$1"
if ! command -v go >/dev/null 2>&1; then export PATH="$PATH:/usr/local/go/bin"; fi

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
go build -o "$work/urim" ./cmd/urim
urim="$work/urim"

{
  echo "# urim benchmarks"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "- $(go version)"
  echo "- cores: $(nproc), load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
} > "$report"

for b in engine env mcts alphabeta nn az; do
  if ! "$urim" bench "$b" --help >/dev/null 2>&1; then
    echo "benchmarks.sh: this build has no 'urim bench $b', skipped" >&2
    continue
  fi
  echo "benchmarks.sh: urim bench $b" >&2
  { echo; echo "## urim bench $b"; echo; echo '```'; } >> "$report"
  quiet=(); if "$urim" bench "$b" --help 2>&1 | grep -q -- '-quiet'; then quiet=(--quiet); fi
  if ! "$urim" bench "$b" "${quiet[@]}" >> "$report" 2>"$work/err"; then
    echo "failed: $(tail -1 "$work/err")" >> "$report"
  fi
  echo '```' >> "$report"
done

{ echo; echo "## urim selfplay"; echo; echo '```'; } >> "$report"
for spec in random mcts:sims=100; do
  games=2000; [ "$spec" = random ] || games=100
  echo "benchmarks.sh: urim selfplay --agent $spec" >&2
  echo "\$ urim selfplay --agent $spec --games $games" >> "$report"
  "$urim" selfplay --agent "$spec" --games "$games" --out "$work/ds-$games" --quiet >> "$report"
done
echo '```' >> "$report"
echo "benchmarks.sh: wrote $report" >&2
