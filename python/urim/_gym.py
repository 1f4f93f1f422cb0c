"""What urim takes from Gymnasium when it is importable, and stand-ins
when it is not: gymnasium stays optional (numpy is the one dependency)."""

import enum

import numpy as np

try:
    import gymnasium
except ImportError:  # the stand-ins below
    gymnasium = None

if gymnasium is not None:
    from gymnasium.utils.seeding import np_random
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector import VectorEnv as VectorEnvBase
    from gymnasium import Env as EnvBase
else:
    class AutoresetMode(enum.Enum):
        """gymnasium.vector.AutoresetMode's members and values."""
        NEXT_STEP = "NextStep"
        SAME_STEP = "SameStep"
        DISABLED = "Disabled"

    class VectorEnvBase:
        """Without gymnasium, VecEnv derives from this empty class."""

    class EnvBase:
        """Without gymnasium, urim.gym.UrimEnv derives from this empty class."""

    def np_random(seed=None):
        """gymnasium.utils.seeding.np_random: a Generator and its seed."""
        if seed is not None and not (isinstance(seed, int) and seed >= 0):
            raise ValueError(f"urim: seed must be a non-negative integer or None, got {seed!r}")
        seq = np.random.SeedSequence(seed)
        return np.random.Generator(np.random.PCG64(seq)), seq.entropy


class Seeded:
    """Gymnasium's np_random, np_random_seed and unwrapped, for urim.gym.UrimEnv
    and VecEnv (listed before their base, so these serve with or without
    gymnasium). np_random is a NumPy Generator for the caller's use, seeded by
    reset(seed=) (the games' openings use the Go seed); the owner sets
    self._np_random and self._np_random_seed to None in __init__."""

    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random, self._np_random_seed = np_random(None)
        return self._np_random

    @np_random.setter
    def np_random(self, value):
        self._np_random, self._np_random_seed = value, -1

    @property
    def np_random_seed(self):
        if self._np_random_seed is None:
            self._np_random, self._np_random_seed = np_random(None)
        return self._np_random_seed

    @property
    def unwrapped(self):
        return self


def register():
    """Registers urim/Urim-v0 with gymnasium (a no-op without it, or when
    already registered): gymnasium.make builds urim.gym.UrimEnv, and
    gymnasium.make_vec(..., vectorization_mode="vector_entry_point") urim's
    own VecEnv."""
    if gymnasium is None or "urim/Urim-v0" in gymnasium.registry:
        return
    gymnasium.register(id="urim/Urim-v0", entry_point="urim.gym:UrimEnv", vector_entry_point="urim.vec:VecEnv")
