#!/usr/bin/env python3
"""The network benchmark of `urim bench nn`, in PyTorch, for the ratios in docs/nn.md.

Builds the same policy-value network (an MLP of 3 hidden layers of 256 units by default, on the 17 columns of
urim's compact encoding, 6 policy logits and a tanh value), and measures, like `urim bench nn`:
  - training steps per second (forward, masked softmax cross-entropy + MSE, backward, gradient clipping, AdamW)
    at batch 256 and 1024;
  - inference positions per second at batch 1, 64 and 512 (under torch.inference_mode);
each on 1 and 2 threads, as the median of interleaved rounds. Not a test dependency: run it through
scripts/torch_bench.sh, which installs Debian's python3-torch and computes the Go/PyTorch ratios.

With --arch resmlp [--layernorm] it builds the residual MLP of `urim bench nn --arch resmlp` (random
weights), and with --precision int8 it measures inference only, on the network after
torch.ao.quantization.quantize_dynamic (every nn.Linear to qint8 weights, activations quantised per
batch at run time) against `urim bench nn --precision int8`.

usage: torch_bench.py measure [--rounds 5] [--round 0.2] [--threads 1,2] [--width 256] [--depth 3]
                              [--arch mlp|resmlp] [--layernorm] [--precision fp32|int8] [--predict 1,64,512]
                              [--inputs 17] [--actions 6] [--npz net.npz] [--out FILE]
       torch_bench.py ratios --go GO.json [GO.json ...] --torch TORCH.json [TORCH.json ...]
"""
import argparse
import json
import statistics
import sys
import time


def resmlp(args, torch):
    """The residual MLP of docs/nn.md: a stem, blocks x + fc2(relu(ln2(fc1(relu(ln1(x)))))), a final
    norm and ReLU (no norms without --layernorm); the heads come from build."""
    nn, w = torch.nn, args.width
    norm = (lambda: nn.LayerNorm(w, eps=1e-5)) if args.layernorm else nn.Identity

    class Trunk(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Linear(args.inputs, w)
            self.blocks = nn.ModuleList(nn.Sequential(norm(), nn.ReLU(), nn.Linear(w, w), norm(), nn.ReLU(),
                                                      nn.Linear(w, w)) for _ in range(args.depth))
            self.final = nn.Sequential(norm(), nn.ReLU())

        def forward(self, x):
            x = self.stem(x)
            for b in self.blocks:
                x = x + b(x)
            return self.final(x)
    return Trunk()


def build(args, torch):
    nn = torch.nn
    if args.arch == "resmlp":
        if args.npz:
            sys.exit("torch_bench.py: --npz loads mlp weights only")
        return resmlp(args, torch), nn.Linear(args.width, args.actions), nn.Linear(args.width, 1)
    layers, d = [], args.inputs
    for _ in range(args.depth):
        layers += [nn.Linear(d, args.width), nn.ReLU()]
        d = args.width
    trunk = nn.Sequential(*layers)
    policy, value = nn.Linear(d, args.actions), nn.Linear(d, 1)
    if args.npz:  # the weights of `urim nn export` ([in, out] matrices)
        import numpy as np
        z = np.load(args.npz)
        with torch.no_grad():
            for i in range(args.depth):
                trunk[2 * i].weight.copy_(torch.from_numpy(z[f"hidden.{i}.w"].T.copy()))
                trunk[2 * i].bias.copy_(torch.from_numpy(z[f"hidden.{i}.b"]))
            for name, lin in (("policy", policy), ("value", value)):
                lin.weight.copy_(torch.from_numpy(z[name + ".w"].T.copy()))
                lin.bias.copy_(torch.from_numpy(z[name + ".b"]))
    return trunk, policy, value


def batch(n, args, torch):
    g = torch.Generator().manual_seed(n)
    obs = torch.rand(n, args.inputs, generator=g)
    mask = (torch.rand(n, args.actions, generator=g) < 0.8).float()
    mask[:, 0] = 1
    target = torch.rand(n, args.actions, generator=g) * mask
    target = target / target.sum(1, keepdim=True)
    z = torch.rand(n, generator=g) * 2 - 1
    return obs, mask, target, z


def measure(args):
    import torch
    torch.set_num_interop_threads(1)
    trunk, policy, value = build(args, torch)
    params = list(trunk.parameters()) + list(policy.parameters()) + list(value.parameters())
    opt = torch.optim.AdamW(params, lr=1e-4, weight_decay=1e-4)

    def train_step(obs, mask, target, z):
        h = trunk(obs)
        logits = policy(h).masked_fill(mask == 0, float("-inf"))
        logp = torch.log_softmax(logits, 1).masked_fill(mask == 0, 0.0)
        v = torch.tanh(value(h))[:, 0]
        loss = -(target * logp).sum(1).mean() + ((v - z) ** 2).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()

    if args.precision == "int8":
        q = torch.ao.quantization.quantize_dynamic
        trunk, policy, value = (q(m, {torch.nn.Linear}, dtype=torch.qint8) for m in (trunk, policy, value))

    def predict(obs):
        with torch.inference_mode():
            h = trunk(obs)
            return policy(h), torch.tanh(value(h))

    threads = [int(t) for t in args.threads.split(",")]
    cases = []
    for b in (256, 1024) if args.precision == "fp32" else ():
        data = batch(b, args, torch)
        for t in threads:
            cases.append(({"kind": "train", "batch": b, "threads": t}, lambda d=data: train_step(*d)))
    for b in (int(x) for x in args.predict.split(",")):
        obs = batch(b, args, torch)[0]
        for t in threads:
            cases.append(({"kind": "predict", "batch": b, "threads": t}, lambda o=obs: predict(o)))
    rates = [[] for _ in cases]
    cpus = [[] for _ in cases]
    for row, run in cases:  # warm-up
        torch.set_num_threads(row["threads"])
        for _ in range(3):
            run()
    for _ in range(args.rounds):
        for i, (row, run) in enumerate(cases):
            torch.set_num_threads(row["threads"])
            calls, start, cpu0 = 0, time.perf_counter(), time.process_time()
            while True:
                run()
                calls += 1
                el = time.perf_counter() - start
                if el >= args.round and calls >= 2:
                    break
            rates[i].append(calls / el)
            cpus[i].append((time.process_time() - cpu0) * 1e6 / calls)
    rows = []
    for (row, _), r, c in zip(cases, rates, cpus):
        med = statistics.median(r)
        arch = f"{args.arch} {args.depth}x{args.width}" + ("+ln" if args.layernorm else "")
        rows.append(dict(row, backend="pytorch-" + torch.__version__, arch=arch, precision=args.precision,
                         steps_per_sec=med, positions_per_sec=med * row["batch"], us_per_step=1e6 / med,
                         cpu_us_per_step=statistics.median(c),
                         spread=(max(r) - min(r)) / med))
    out = json.dumps(rows, indent=2)
    if args.out:
        with open(args.out, "w") as f:
            f.write(out + "\n")
    else:
        print(out)


def ratios(args):
    def load(files, key):
        by = {}
        for name in files:
            with open(name) as f:
                for r in json.load(f):
                    kind = r["kind"] + ("-int8" if r.get("precision") == "int8" else "")
                    by.setdefault((kind, r["batch"], r["threads"], r["backend"].split("-")[0]), []).append(r[key])
        return {k: statistics.median(v) for k, v in by.items()}
    go, torch = load(args.go, "steps_per_sec"), load(args.torch, "steps_per_sec")
    gocpu, torchcpu = load(args.go, "cpu_us_per_step"), load(args.torch, "cpu_us_per_step")
    print("Go/PyTorch speed ratios (> 1: Go is faster), medians over the runs; wall clock, and CPU time per step")
    print(f"{'kind':>12} {'batch':>6} {'threads':>7} {'backend':>9} {'Go µs':>10} {'Torch µs':>10} {'wall':>7} "
          f"{'Go cpu µs':>10} {'Torch cpu':>10} {'cpu':>7}")
    for (kind, b, t, be), g in sorted(go.items()):
        p = torch.get((kind, b, t, "pytorch"))
        if p:
            gc, pc = gocpu[(kind, b, t, be)], torchcpu[(kind, b, t, "pytorch")]
            print(f"{kind:>12} {b:>6} {t:>7} {be:>9} {1e6 / g:>10.1f} {1e6 / p:>10.1f} {g / p:>6.2f}x "
                  f"{gc:>10.1f} {pc:>10.1f} {pc / gc:>6.2f}x")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd")
    m = sub.add_parser("measure")
    m.add_argument("--rounds", type=int, default=5)
    m.add_argument("--round", type=float, default=0.2)
    m.add_argument("--threads", default="1,2")
    m.add_argument("--width", type=int, default=256)
    m.add_argument("--depth", type=int, default=3)
    m.add_argument("--inputs", type=int, default=17)
    m.add_argument("--actions", type=int, default=6)
    m.add_argument("--arch", choices=("mlp", "resmlp"), default="mlp")
    m.add_argument("--layernorm", action="store_true")
    m.add_argument("--precision", choices=("fp32", "int8"), default="fp32")
    m.add_argument("--predict", default="1,64,512")
    m.add_argument("--npz")
    m.add_argument("--out")
    r = sub.add_parser("ratios")
    r.add_argument("--go", nargs="+", required=True)
    r.add_argument("--torch", nargs="+", required=True)
    args = ap.parse_args()
    if args.cmd == "measure":
        measure(args)
    elif args.cmd == "ratios":
        ratios(args)
    else:
        ap.print_help()
        sys.exit(2)


if __name__ == "__main__":
    main()
