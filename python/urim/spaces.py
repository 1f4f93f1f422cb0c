"""Minimal stand-ins for Gymnasium's Box and Discrete spaces, so that
VecEnv's spaces look like Gymnasium's without gymnasium installed. With
gymnasium installed, VecEnv uses its classes instead."""

import numpy as np


class Box:
    def __init__(self, low, high, shape, dtype=np.float32):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))

    def sample(self, rng=None):
        rng = rng or np.random.default_rng()
        return rng.uniform(self.low, self.high).astype(self.dtype)

    def __repr__(self):
        return f"Box({self.low.flat[0]}, {self.high.flat[0]}, {self.shape}, {self.dtype})"


class Discrete:
    def __init__(self, n):
        self.n, self.shape, self.dtype, self.start = int(n), (), np.dtype(np.int64), 0

    def contains(self, x):
        return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n

    def sample(self, mask=None, rng=None):
        """A uniform action, or one where mask (int8 of shape (n,), 1 where
        allowed, as Gymnasium's Discrete.sample takes it) is 1; an all-zero
        mask gives the start, 0. A mask of another dtype or shape, or with
        values other than 0 and 1, raises ValueError, as it fails in
        Gymnasium, so code tried without gymnasium works with it."""
        rng = rng or np.random.default_rng()
        if mask is None:
            return int(rng.integers(self.n))
        legal = np.flatnonzero(check_mask(mask, self.n))
        return int(rng.choice(legal)) if legal.size else self.start

    def __repr__(self):
        return f"Discrete({self.n})"


class MultiDiscrete:
    def __init__(self, nvec):
        self.nvec = np.asarray(nvec, np.int64)
        self.shape, self.dtype = self.nvec.shape, np.dtype(np.int64)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all((x >= 0) & (x < self.nvec)))

    def sample(self, mask=None, rng=None):
        """One action per entry; mask, as for Gymnasium's MultiDiscrete, is a
        tuple of int8 masks, one per entry (tuple(info["action_mask"]))."""
        rng = rng or np.random.default_rng()
        if mask is None:
            return rng.integers(self.nvec).astype(self.dtype)
        if not isinstance(mask, tuple) or len(mask) != self.nvec.size or self.nvec.ndim != 1:
            raise ValueError(f"MultiDiscrete.sample: mask must be a tuple of {self.nvec.size} int8 masks, one per "
                             f"entry (tuple(info['action_mask'])), got {type(mask).__name__}")
        return np.array([Discrete(n).sample(m, rng) for n, m in zip(self.nvec, mask)], self.dtype)

    def __repr__(self):
        return f"MultiDiscrete({self.nvec.tolist() if self.nvec.size <= 8 else self.nvec.shape})"


def check_mask(mask, n):
    """mask as Gymnasium's Discrete.sample(mask=) takes it (int8 0/1 of shape
    (n,)), or ValueError naming what is wrong."""
    if not isinstance(mask, np.ndarray) or mask.dtype != np.int8:
        what = mask.dtype if isinstance(mask, np.ndarray) else type(mask).__name__
        raise ValueError(f"Discrete.sample: the mask must be an int8 array (Gymnasium's dtype), got {what}; "
                         "urim's int8 masks are info['action_mask'] (mask_dtype='int8', the default) or "
                         "mask.astype(np.int8)")
    if mask.shape != (n,):
        raise ValueError(f"Discrete.sample: the mask has shape {mask.shape}, want ({n},)")
    if not np.all((mask == 0) | (mask == 1)):
        raise ValueError("Discrete.sample: the mask holds values other than 0 and 1")
    return mask


def obs_high(p):
    """The largest value of any observation column with p pits a row: a pit
    holding every seed reads 2p (seeds over the seeds per pit at the start);
    stores, ply, quiet and thermometer columns stay at or below 1."""
    return float(2 * p)


def batch(n, d, p):
    """The batched observation Box and action MultiDiscrete of n games."""
    try:
        import gymnasium
        return (gymnasium.spaces.Box(0.0, obs_high(p), (n, d), np.float32),
                gymnasium.spaces.MultiDiscrete(np.full(n, p)))
    except ImportError:
        return Box(0.0, obs_high(p), (n, d)), MultiDiscrete(np.full(n, p))


def make(low, high, shape, n):
    """The observation Box and action Discrete, Gymnasium's when it is
    installed."""
    try:
        import gymnasium
        return gymnasium.spaces.Box(low, high, shape, np.float32), gymnasium.spaces.Discrete(n)
    except ImportError:
        return Box(low, high, shape), Discrete(n)


class Dict:
    """A stand-in for gymnasium.spaces.Dict: named subspaces."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def contains(self, x):
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            s.contains(x[k]) for k, s in self.spaces.items())

    def __repr__(self):
        return "Dict(" + ", ".join(f"{k!r}: {s}" for k, s in self.spaces.items()) + ")"


def mask_box(p):
    """The Box of an action mask: p values in {0, 1}, int8."""
    try:
        import gymnasium
        return gymnasium.spaces.Box(0, 1, (p,), np.int8)
    except ImportError:
        return Box(0, 1, (p,), np.int8)


def dict_space(d):
    """gymnasium.spaces.Dict of d when gymnasium is installed."""
    try:
        import gymnasium
        return gymnasium.spaces.Dict(d)
    except ImportError:
        return Dict(d)
