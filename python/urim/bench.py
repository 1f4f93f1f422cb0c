"""python -m urim.bench: the speed of urim.VecEnv and urim.Agent against
the Go code they wrap, measured in the same run (ratios are what to
compare: absolute figures move with the machine's load).

- VecEnv at 1, 64, 1024 and 4096 games, random legal actions drawn in
  NumPy (urim.random.RandomActions) or in Go (VecEnv.random_actions),
  against the loop of bench.Vec (what
  `urim bench env` runs: env.Vec on one worker with random actions drawn
  in Go) at the same sizes, in interleaved runs (defaults, fast settings,
  Go, again and again); both in steps per second of the process's CPU
  time. Three Python rows: the defaults (VecEnv(n): copy=True,
  num_threads=1) with the actions drawn in Go, as the Go loop draws them
  (like with like), the defaults with the actions drawn in NumPy, and
  copy=False (num_threads=1) with the NumPy draw. Each ratio is printed
  as the min-max and the median over the rounds (each round's Python run
  over the same round's Go run) and as the ratio of the bests; on a
  loaded machine the median is the steadiest of them. The load average is
  printed before and after, since other jobs on the machine move the
  ratios (they share the caches even when CPU time is what counts).
- Agent("mcts:sims=200").act_batch on 256 positions against the same agent
  playing the same positions in a Go loop (CPU time, the best of the
  rounds, alternating which side goes first).
"""

import argparse
import ctypes
import json
import os
import statistics
import sys
import time

import numpy as np

from . import _lib
from .agent import Agent
from .game import Game
from .random import RandomActions
from .vec import VecEnv


def go_vec(n, steps, rules="urim"):
    r = ctypes.c_double()
    _lib.call("urim_bench_vec", _lib.enc(rules), int(n), int(steps), ctypes.byref(r))
    return r.value


FAST = {"copy": False}
# The Python sides, each a VecEnv's settings (go_draw: the random actions
# drawn in Go by env.random_actions(), as the Go loop draws them; else in
# NumPy by urim.random.RandomActions), and the label printed.
SIDES = {"defaults-go-draw": {"go_draw": True}, "defaults": {}, "fast": FAST}
LABELS = {"defaults-go-draw": "VecEnv(n), Go draw", "defaults": "VecEnv(n), NumPy draw",
          "fast": "copy=False, NumPy draw"}


class _PyVec:
    """VecEnv(n, **settings) with random legal actions drawn in NumPy from
    info["legal"] (with copy=False, the buffer the library rewrites), or,
    with go_draw, drawn in Go by env.random_actions() (the draw of the Go
    loop, env.RandomActions)."""

    def __init__(self, n, rules="urim", go_draw=False, **settings):
        self.n, self.go_draw = n, go_draw
        self.env = VecEnv(n, rules=rules, seed=1, **settings)
        self.draw = RandomActions(self.env.num_actions, seed=1)
        _, self.info = self.env.reset()
        self.run(200)  # warm up, as bench.Vec does

    def run(self, batches):
        step, info = self.env.step, self.info
        t = time.process_time()
        if self.go_draw:
            draw = self.env.random_actions
            for _ in range(batches):
                info = step(draw())[4]
        else:
            draw = self.draw.draw
            for _ in range(batches):
                info = step(draw(info["legal"]))[4]
        self.info = info
        return batches * self.n / (time.process_time() - t)


def vec(n, steps, rounds=5, rules="urim"):
    """Game steps per second of CPU time of VecEnv(n) with the defaults,
    with the fast settings, and of the Go loop at n, in rounds interleaved
    runs of about steps game steps each: a dict of the lists of rates.
    Every side reads the process's CPU time (time.process_time and
    getrusage), so time spent waiting for a core while other jobs run does
    not count."""
    sides = {name: _PyVec(n, rules, **kw) for name, kw in SIDES.items()}
    batches = max(1, -(-steps // n))
    rates = {name: [] for name in (*SIDES, "go")}
    for _ in range(rounds):
        for name, py in sides.items():
            rates[name].append(py.run(batches))
        rates["go"].append(go_vec(n, batches * n, rules))
    for py in sides.values():
        py.env.close()
    return rates


def positions(n, rules="urim", seed=1):
    """n positions of random games, 4 to 40 plies in."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        g = Game(rules)
        for _ in range(int(rng.integers(4, 40))):
            legal = g.legal_actions()
            if not legal:
                break
            g.play(int(rng.choice(legal)))
        if not g.is_over():
            out.append(g.notation())
    return out


def acts(spec, n, rules="urim", rounds=5):
    """CPU seconds of act_batch on n positions from Python and of the same
    agent's moves on the same positions in a Go loop, the best of rounds
    runs each, alternating which side goes first."""
    ps = positions(n, rules)
    games = [Game(rules, position=p) for p in ps]
    py, go = [], []

    def run_py():
        a = Agent(spec, rules=rules, seed=1)
        t = time.process_time()
        a.act_batch(games)
        py.append(time.process_time() - t)
        a.close()

    def run_go():
        s = ctypes.c_double()
        _lib.call("urim_bench_acts", _lib.enc(spec), _lib.enc(rules), 1, _lib.enc(json.dumps(ps)), ctypes.byref(s))
        go.append(s.value)

    for k in range(rounds):
        for f in ((run_py, run_go) if k % 2 == 0 else (run_go, run_py)):
            f()
    return min(py), min(go)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m urim.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1,64,1024,4096", help="VecEnv sizes")
    ap.add_argument("--steps", type=int, default=1_000_000, help="game steps per run (at most 100000 for size 1)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating runs per size; the best of each side counts")
    ap.add_argument("--spec", default="mcts:sims=200", help="the agent of the act_batch benchmark")
    ap.add_argument("--positions", type=int, default=256)
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    rows = []
    load = [os.getloadavg()]
    if not args.json:
        print("load average %.2f %.2f %.2f (1, 5, 15 min), %d cores" % (*load[0], os.cpu_count()), flush=True)
    for n in [int(x) for x in args.sizes.split(",")]:
        steps = args.steps if n > 1 else min(args.steps, 100_000)
        rates = vec(n, steps, args.rounds)
        go = rates["go"]
        for name in SIDES:
            py = rates[name]
            per_round = [p / g for p, g in zip(py, go)]
            median = statistics.median(per_round)
            rows.append({"what": "vec", "settings": name, "n": n, "python_steps_per_sec": max(py),
                         "go_steps_per_sec": max(go), "ratio": max(py) / max(go),
                         "ratio_min": min(per_round), "ratio_median": median, "ratio_max": max(per_round)})
            if not args.json:
                label = LABELS[name]
                print(f"VecEnv({n:5d}) {label:26s} Python {max(py) / 1e6:6.2f} M steps/CPU-s   Go (1 worker) "
                      f"{max(go) / 1e6:6.2f}   Python/Go {min(per_round):.2f}-{max(per_round):.2f} by round, "
                      f"median {median:.2f}, {max(py) / max(go):.2f} of the bests", flush=True)
    if args.positions > 0:
        py, go = acts(args.spec, args.positions, rounds=args.rounds)
        rows.append({"what": "act_batch", "spec": args.spec, "positions": args.positions, "python_seconds": py,
                     "go_seconds": go, "ratio": py / go})
        if not args.json:
            print(f"Agent({args.spec!r}).act_batch on {args.positions} positions: Python {py * 1e3:.1f} CPU-ms   "
                  f"Go {go * 1e3:.1f} CPU-ms   Python/Go {py / go:.3f}", flush=True)
    load.append(os.getloadavg())
    if args.json:
        json.dump({"rows": rows, "load_average": {"before": load[0], "after": load[1]}, "cores": os.cpu_count()},
                  sys.stdout, indent=2)
        print()
    else:
        print("load average %.2f %.2f %.2f after" % load[1], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
