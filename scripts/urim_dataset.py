"""Load a urim self-play dataset (see docs/dataset.md) with numpy alone.

    import sys; sys.path.insert(0, "scripts")
    from urim_dataset import load
    ds = load("data/mcts100")          # one dict: manifest, games, and every array concatenated
    ds["obs"].shape, ds["policy"][ds["has_policy"]].sum(1)

Only numpy and the standard library are used; arrays are read with
allow_pickle=False.
"""

import gzip
import json
import os

import numpy as np

ARRAYS = ("obs", "mask", "policy", "has_policy", "value", "outcome", "action", "ply", "game_id")


def load(path, verify_counts=True):
    """Return {"manifest": dict, "games": [record, ...], ARRAY: np.ndarray, ...}.

    The arrays of every shard listed in the manifest are concatenated in
    shard order; games[j] is the j-th game record (JSON object) and its rows
    are those whose game_id equals games[j]["id"].
    """
    with open(os.path.join(path, "manifest.json")) as f:
        manifest = json.load(f)
    if manifest.get("format") != "urim-dataset" or manifest.get("schema_version") != 1:
        raise ValueError(f"{path}: not a urim dataset of schema version 1")
    parts = {name: [] for name in ARRAYS}
    games = []
    for shard in manifest["shards"]:
        with np.load(os.path.join(path, shard["tensors"]), allow_pickle=False) as z:
            if sorted(z.files) != sorted(ARRAYS):
                raise ValueError(f"{shard['tensors']}: arrays {sorted(z.files)}")
            for name in ARRAYS:
                parts[name].append(z[name])
        with gzip.open(os.path.join(path, shard["games"]), "rt") as f:
            games.extend(json.loads(line) for line in f)
    out = {"manifest": manifest, "games": games}
    for name in ARRAYS:
        if parts[name]:
            out[name] = np.concatenate(parts[name])
        else:
            width = {"obs": manifest["obs_dim"], "mask": manifest["actions"], "policy": manifest["actions"]}.get(name)
            dtype = {"mask": bool, "has_policy": bool, "action": np.int32, "ply": np.int32, "game_id": np.int64}.get(name, np.float32)
            out[name] = np.zeros((0, width) if width else (0,), dtype=dtype)
    if verify_counts:
        n = manifest["positions"]
        for name in ARRAYS:
            if len(out[name]) != n:
                raise ValueError(f"{name}: {len(out[name])} rows, the manifest says {n}")
        if len(games) != manifest["games"]:
            raise ValueError(f"{len(games)} games, the manifest says {manifest['games']}")
    return out


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 2:
        sys.exit("usage: urim_dataset.py DATASET_DIR")
    ds = load(sys.argv[1])
    m = ds["manifest"]
    print(f"{len(ds['games'])} games, {len(ds['obs'])} positions, rules {m['rules']['name']}, encoding {m['encoding']}")
    for name in ARRAYS:
        print(f"  {name:<11} {str(ds[name].dtype):<8} {ds[name].shape}")
