"""A random rollout of urim.VecEnv: N games stepped together with random
legal actions drawn in NumPy, and what the episodes looked like.

    /usr/bin/python3 python/examples/random_rollout.py --envs 1024 --steps 500
"""

import argparse
import time

import numpy as np

import urim
from urim.random import RandomActions


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--envs", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    env = urim.VecEnv(args.envs, seed=args.seed, opening_plies=2)
    draw = RandomActions(env.num_actions, seed=args.seed)
    obs, info = env.reset()
    print(f"{env}: observations {obs.shape} {obs.dtype}, masks {info['action_mask'].shape}, "
          f"spaces {env.single_observation_space} and {env.single_action_space}")
    episodes, south_wins, draws, returns = 0, 0, 0, []
    t = time.perf_counter()
    for _ in range(args.steps):
        actions = draw.from_mask(info["action_mask"])  # uniformly among each game's legal actions
        obs, rewards, terminated, truncated, info = env.step(actions)
        done = terminated | truncated
        if done.any():
            final = info["rewards"][done]  # both players' rewards of the games that ended
            episodes += int(done.sum())
            south_wins += int((final[:, 0] > final[:, 1]).sum())
            draws += int((final[:, 0] == final[:, 1]).sum())
            returns.extend(rewards[done].tolist())  # the reward of the player who made the last move
    secs = time.perf_counter() - t
    env.close()
    print(f"{args.steps * args.envs} steps in {secs:.2f} s ({args.steps * args.envs / secs / 1e6:.2f} M steps/s)")
    print(f"{episodes} games ended: South won {south_wins}, {draws} draws; "
          f"mean reward of the last mover {np.mean(returns):+.3f}")


if __name__ == "__main__":
    main()
