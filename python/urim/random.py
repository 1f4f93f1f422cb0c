"""Random legal actions for a whole batch, drawn in NumPy from the legal
bit sets that VecEnv's info["legal"] holds."""

import numpy as np

_SLOTS = 420  # lcm(1..7): every count of legal actions divides it, so the draw is uniform


class RandomActions:
    """draw(legal) returns one uniformly random legal action per game from
    the uint8 bit sets legal (info["legal"]), as int32; a game with no
    legal action gets 0, which VecEnv.step ignores for a finished game."""

    def __init__(self, num_actions, seed=0):
        self.rng = np.random.default_rng(seed)
        p = int(num_actions)
        table = np.zeros((1 << p, _SLOTS), np.int32)
        for m in range(1 << p):
            legal = [a for a in range(p) if m >> a & 1] or [0]
            table[m] = [legal[k * len(legal) // _SLOTS] for k in range(_SLOTS)]
        self.table = table
        self._flat = table.reshape(-1)
        self._rows = np.arange(1 << p, dtype=np.intp) * _SLOTS  # where each bit set's row starts in _flat

    def draw(self, legal):
        # Two flat gathers (the rows' starts, then the actions): about 5x
        # faster than table[legal, r] in NumPy 1.24.
        r = self.rng.integers(0, _SLOTS, len(legal), dtype=np.int32)
        return np.take(self._flat, np.take(self._rows, legal) + r)

    def from_mask(self, mask):
        """The same from a bool mask (N x actions)."""
        bits = np.asarray(mask, np.uint8) @ (1 << np.arange(mask.shape[1], dtype=np.uint8))
        return self.draw(bits)
