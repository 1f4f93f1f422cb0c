"""Masked PPO in PyTorch on urim.VecEnv: one policy plays both seats
(self-play), illegal actions masked out of the softmax; then it is rated
against `random` through urim's evaluator, first as a Python callable and
then, exported with urim.save_checkpoint, as the Go agent neural:ckpt=...

    /usr/bin/python3 python/examples/ppo_masked.py --iterations 40 --out runs/ppo-torch.ckpt

The network is urim's mlp (Linear + ReLU layers, a policy and a tanh value
head), so its weights are a urim checkpoint as they are. Returns are the
game's result for the player who moved (rewards arrive at the end, γ = 1);
a game still running at the end of a rollout is bootstrapped with the value
of its last position, seen by whoever moves there.
"""

import argparse
import os
import time

import numpy as np
import torch
from torch import nn

import urim


class Policy(nn.Module):
    """urim's mlp: hidden.i (Linear, ReLU), policy and value heads."""

    def __init__(self, obs_dim, actions, width=128, depth=2):
        super().__init__()
        dims = [obs_dim] + [width] * depth
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims, dims[1:]))
        self.policy, self.value = nn.Linear(width, actions), nn.Linear(width, 1)
        self.width, self.depth = width, depth

    def forward(self, x):
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return self.policy(x), torch.tanh(self.value(x))[:, 0]

    def weights(self):
        """The weights as urim names them (docs/nn.md): W is [in, out]."""
        w = {}
        for i, layer in enumerate(self.hidden):
            w[f"hidden.{i}.w"], w[f"hidden.{i}.b"] = layer.weight.T, layer.bias
        w["policy.w"], w["policy.b"] = self.policy.weight.T, self.policy.bias
        w["value.w"], w["value.b"] = self.value.weight.T, self.value.bias
        return w

    def arch(self):
        return {"kind": "mlp", "width": self.width, "depth": self.depth, "layer_norm": False}


def masked_logits(logits, mask):
    return logits.masked_fill(~mask, -1e9)


def rollout(env, model, obs, info, steps):
    n = env.num_envs
    buf = {k: [] for k in ("obs", "mask", "action", "logp", "mover", "done", "rewards2")}
    for _ in range(steps):
        o = torch.from_numpy(obs)
        m = torch.from_numpy(info["action_mask"]).bool()  # int8 1/0 -> bool for masked_fill
        with torch.no_grad():
            logits, _ = model(o)
            dist = torch.distributions.Categorical(logits=masked_logits(logits, m))
            a = dist.sample()
        buf["obs"].append(o)
        buf["mask"].append(m)
        buf["action"].append(a)
        buf["logp"].append(dist.log_prob(a))
        buf["mover"].append(info["current_player"].copy())
        obs, _, term, trunc, info = env.step(a.numpy().astype(np.int32))
        buf["done"].append(term | trunc)
        buf["rewards2"].append(info["rewards"].copy())
    # The return of each move: the result of its game for the player who made it.
    with torch.no_grad():
        _, v_last = model(torch.from_numpy(obs))
    ret = np.zeros((n, 2), np.float32)
    idx = np.arange(n)
    ret[idx, info["current_player"]] = v_last.numpy()
    ret[idx, 1 - info["current_player"]] = -v_last.numpy()
    returns = []
    for t in reversed(range(steps)):
        d = buf["done"][t]
        ret[d] = buf["rewards2"][t][d]
        returns.append(ret[idx, buf["mover"][t]].copy())
    returns.reverse()
    batch = {k: torch.cat(buf[k]) for k in ("obs", "mask", "action", "logp")}
    batch["ret"] = torch.from_numpy(np.concatenate(returns))
    return batch, obs, info, int(np.sum(buf["done"]))


def update(model, opt, batch, epochs=4, minibatch=2048, clip=0.2, vf=0.5, ent=0.01):
    n = len(batch["ret"])
    with torch.no_grad():
        _, v = model(batch["obs"])
    adv = batch["ret"] - v
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for _ in range(epochs):
        for idx in torch.randperm(n).split(minibatch):
            logits, value = model(batch["obs"][idx])
            dist = torch.distributions.Categorical(logits=masked_logits(logits, batch["mask"][idx]))
            ratio = torch.exp(dist.log_prob(batch["action"][idx]) - batch["logp"][idx])
            a = adv[idx]
            pg = -torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean()
            loss = pg + vf * ((value - batch["ret"][idx]) ** 2).mean() - ent * dist.entropy().mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            opt.step()


def greedy_player(model):
    """A Python agent for urim.evaluate: the most likely legal move."""
    def play(game):
        obs, mask = game.observation()
        with torch.no_grad():
            logits, _ = model(torch.from_numpy(obs[None]))
        return int(masked_logits(logits, torch.from_numpy(mask[None]))[0].argmax())
    play.__name__ = "torch-ppo"
    return play


def train(iterations=40, envs=256, steps=64, seed=0, lr=3e-4, log=print):
    torch.manual_seed(seed)
    env = urim.VecEnv(envs, autoreset="same_step", seed=seed, opening_plies=2)
    model = Policy(env.obs_dim, env.num_actions)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    obs, info = env.reset()
    t0 = time.perf_counter()
    for it in range(1, iterations + 1):
        batch, obs, info, games = rollout(env, model, obs, info, steps)
        update(model, opt, batch)
        if log and (it % 10 == 0 or it == 1):
            log(f"iteration {it:3d}: {len(batch['ret'])} moves, {games} games ended, "
                f"{time.perf_counter() - t0:5.1f} s")
    env.close()
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--games", type=int, default=100, help="games against random, per evaluation")
    ap.add_argument("--out", default="runs/ppo-torch.ckpt", help="the checkpoint to write")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    t = time.perf_counter()
    model = train(args.iterations, args.envs, args.steps, args.seed)
    print(f"trained in {time.perf_counter() - t:.0f} s")
    model.eval()

    res = urim.match(greedy_player(model), "random", games=args.games, seed=1)
    print(f"as a Python callable: {res['score']:.1%} against random "
          f"({res['wins']} wins, {res['draws']} draws, {res['losses']} losses)")

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    urim.save_checkpoint(args.out, model.weights(), model.arch(), rules="urim", step=args.iterations)
    spec = f"neural:ckpt={args.out},temp=0"
    res = urim.match(spec, "random", games=args.games, seed=1)
    print(f"as {spec}: {res['score']:.1%} against random")


if __name__ == "__main__":
    main()
