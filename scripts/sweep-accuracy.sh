#!/bin/sh
# sweep-accuracy.sh SWEEP_DIR TABLE14 TABLE16 [SIMS]: the best-move share of every final network of a
# `urim sweep`, at SIMS simulations (32 by default) on 500 uniform positions each: of the training table
# (TABLE14, `urim tablebase build --max-seeds 14 --best-moves`), and of the 15- and 16-seed layers of TABLE16
# (`--max-seeds 16`, `--min-seeds 15`), which no training table covered. One line a run:
#   CELL/seed-K | 14-seed share and 95% interval | 15-16-seed share and 95% interval
# docs/bench/recipes.md gives the figures of issue 28's sweeps.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 SWEEP_DIR TABLE14 TABLE16 [SIMS]" >&2; exit 2; }
sweep=$1 t14=$2 t16=$3 sims=${4:-32}
urim=${URIM:-urim}
for d in "$sweep"/runs/*/seed-*; do
	c=$d/checkpoints/latest.ckpt
	[ -f "$c" ] || continue
	a14=$("$urim" eval accuracy --agent "az:ckpt=$c,sims=$sims" --tablebase "$t14" --positions 500 --seed 1 --quiet 2>&1 | awk '$1=="all"{print $3, $4}')
	a16=$("$urim" eval accuracy --agent "az:ckpt=$c,sims=$sims" --tablebase "$t16" --min-seeds 15 --positions 500 --seed 1 --quiet 2>&1 | awk '$1=="all"{print $3, $4}')
	echo "${d#"$sweep"/runs/} | $a14 | $a16"
done
