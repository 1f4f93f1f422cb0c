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


def register():
    """Registers urim/Urim-v0 with gymnasium (a no-op without it, or when
    already registered): gymnasium.make builds urim.gym.UrimEnv, and
    gymnasium.make_vec(..., vectorization_mode="vector_entry_point") urim's
    own VecEnv."""
    if gymnasium is None or "urim/Urim-v0" in gymnasium.registry:
        return
    gymnasium.register(id="urim/Urim-v0", entry_point="urim.gym:UrimEnv", vector_entry_point="urim.vec:VecEnv")
