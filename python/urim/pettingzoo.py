"""urim.pettingzoo: urim.Game as PettingZoo's classic environments are
built: env() wrapped in PettingZoo's checks when pettingzoo is importable,
raw_env() the bare game."""

from .game import Game


def raw_env(**kwargs):
    """urim.Game(**kwargs): a pettingzoo.AECEnv when pettingzoo is importable."""
    return Game(**kwargs)


def env(illegal_reward=-1, **kwargs):
    """urim.Game(**kwargs) inside PettingZoo's TerminateIllegalWrapper (an
    illegal move ends the game, illegal_reward to the mover and 0 to the
    other), AssertOutOfBoundsWrapper and OrderEnforcingWrapper, as its
    classic games are wrapped (tictactoe, connect_four, chess), or the bare
    game without pettingzoo."""
    g = raw_env(**kwargs)
    try:
        from pettingzoo.utils import wrappers
    except ImportError:
        return g
    g = wrappers.TerminateIllegalWrapper(g, illegal_reward=illegal_reward)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(g))
