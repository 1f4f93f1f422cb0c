#!/usr/bin/env bash
# Runs the notebooks in notebooks/ headless (nbclient) on a freshly generated
# small self-play dataset, as CI does. It installs the Debian packages they
# need (numpy, pandas, matplotlib, nbclient, ipykernel) when they are missing.
#
# usage: scripts/notebooks.sh [--keep DIR]
#   --keep DIR   write the dataset and the executed notebooks to DIR (default:
#                a temporary directory, removed at the end)
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) [ $# -ge 2 ] || { usage; exit 2; }; keep="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage; exit 2 ;;
  esac
done

# Debian's python3, which the apt packages install into (a pyenv python3 on
# PATH would not see them).
PY=/usr/bin/python3
if ! command -v go >/dev/null 2>&1; then export PATH="$PATH:/usr/local/go/bin"; fi

need=()
for pair in numpy:python3-numpy pandas:python3-pandas matplotlib:python3-matplotlib \
            nbclient:python3-nbclient nbformat:python3-nbformat ipykernel:python3-ipykernel; do
  mod=${pair%%:*}; pkg=${pair#*:}
  [ -x "$PY" ] && "$PY" -c "import $mod" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "notebooks.sh: installing ${need[*]}"
  apt-get -o DPkg::Lock::Timeout=900 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq "${need[@]}" >/dev/null
fi

if [ -n "$keep" ]; then
  work="$keep"; mkdir -p "$work"
else
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fi
data="$work/selfplay-small"
rm -rf "$data"

# MCTS against itself, so every row has a visit distribution; small enough
# for a minute of CI.
go run ./cmd/urim selfplay --agent mcts:sims=50 --games 24 --openings 4 --seed 1 \
  --shard-size 1000 --out "$data" --quiet
go run ./cmd/urim dataset verify --quiet "$data"

export URIM_DATASET="$data"
export URIM_METRICS="${URIM_METRICS:-$PWD/notebooks/sample_metrics.csv}"
# No MPLBACKEND: under nbclient the kernel's inline backend puts each figure in
# the notebook as an image/png output (Agg would draw nothing into it).
unset MPLBACKEND
export PYDEVD_DISABLE_FILE_VALIDATION=1
"$PY" - "$work" notebooks/*.ipynb <<'PY'
import os, re, sys, time
import nbformat
from nbclient import NotebookClient

# A cell that makes a figure must show it: a notebook run that draws nothing
# (a non-inline backend, a figure never displayed) fails here.
FIGURE = re.compile(r"\b(plt\.(subplots|figure|plot|hist|bar|imshow)|\.plot(\.\w+)?)\(")

def missing_figures(nb):
    bad = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or not FIGURE.search(cell.source):
            continue
        if not any("image/png" in o.get("data", {}) for o in cell.get("outputs", [])):
            bad.append(i)
    return bad

out = sys.argv[1]
failed = []
for path in sys.argv[2:]:
    t0 = time.time()
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": os.path.dirname(path)}}).execute()
    nbformat.write(nb, os.path.join(out, os.path.basename(path)))
    images = sum("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))
    print(f"notebooks.sh: {path} ran in {time.time() - t0:.1f}s, {images} figure(s)")
    for i in missing_figures(nb):
        failed.append(f"{path}: cell {i} makes a figure but its output holds no image")
for f in failed:
    print("notebooks.sh:", f, file=sys.stderr)
sys.exit(1 if failed else 0)
PY
echo "notebooks.sh: all notebooks ran"
