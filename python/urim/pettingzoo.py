"""urim.pettingzoo: urim.Game as PettingZoo's classic environments are
built: env() wrapped in PettingZoo's checks when pettingzoo is importable,
raw_env() the bare game."""

from .game import Game


def raw_env(**kwargs):
    """urim.Game(**kwargs): a pettingzoo.AECEnv when pettingzoo is importable."""
    return Game(**kwargs)


def env(**kwargs):
    """urim.Game(**kwargs) inside PettingZoo's AssertOutOfBoundsWrapper and
    OrderEnforcingWrapper (the wrappers of its classic games), or the bare
    game without pettingzoo."""
    g = raw_env(**kwargs)
    try:
        from pettingzoo.utils import wrappers
    except ImportError:
        return g
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(g))
