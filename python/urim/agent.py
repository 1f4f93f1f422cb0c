"""urim.Agent: any agent of urim's registry, by spec string."""

import ctypes

import numpy as np

from . import _lib
from ._errors import ClosedError
from .game import Game
from .vec import check_seed


class Agent:
    """An agent built from a spec string, exactly as every urim command
    builds it: ``random``, ``greedy``, ``alphabeta:depth=8``,
    ``mcts:sims=400``, ``neural:ckpt=net.ckpt``, ``az:ckpt=net.ckpt,sims=200``,
    ``tb:file=urim.tb`` ... (docs/agents.md). An unknown agent or a bad
    parameter raises urim.SpecError; a checkpoint or table made for other
    rules than ``rules`` raises urim.CheckpointError.

    ``act(game)`` returns the agent's move in a position (a urim.Game or a
    notation string); ``act_batch(positions)`` the moves of many positions
    in one call, as an int32 array.
    """

    def __init__(self, spec, rules="urim", seed=0):
        if not isinstance(spec, str):
            raise TypeError(f"urim.Agent: spec must be a string, got {type(spec).__name__}")
        check_seed("urim.Agent", seed)
        self.spec, self.rules = spec, rules
        self._h = _lib.u()
        _lib.call("urim_agent_new", _lib.enc(spec), _lib.enc(rules), int(seed), ctypes.byref(self._h))
        self._closed = False

    def _game(self, position):
        if isinstance(position, Game):
            return position
        if isinstance(position, str):
            return Game(self.rules, position=position)
        raise TypeError(f"urim.Agent: a position is a urim.Game or a notation string, got {type(position).__name__}")

    def act(self, position):
        """The agent's move in position (a urim.Game or a notation string)."""
        self._check_open()
        g = self._game(position)
        g._check_open()
        a = ctypes.c_int32()
        _lib.call("urim_agent_act", self._h, g._h, ctypes.byref(a))
        return int(a.value)

    def act_batch(self, positions):
        """The agent's moves in a sequence of positions (urim.Game or
        notation strings), played one after the other in Go in one call:
        an int32 array."""
        self._check_open()
        games = [self._game(p) for p in positions]
        for g in games:
            g._check_open()
        hs = (_lib.u * max(len(games), 1))(*[g._h.value for g in games])
        out = np.zeros(len(games), np.int32)
        _lib.call("urim_agent_act_batch", self._h, hs, len(games), _lib.ptr(out, ctypes.c_int32))
        return out

    def reset(self):
        """Tells the agent a new game starts (a search tree is dropped)."""
        self._check_open()
        _lib.call("urim_agent_reset", self._h)

    def close(self):
        if not self._closed:
            self._closed = True
            _lib.lib.urim_free(self._h)

    def _check_open(self):
        if self._closed:
            raise ClosedError(f"urim.Agent({self.spec!r}) is closed")

    def __call__(self, game):
        return self.act(game)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return f"urim.Agent({self.spec!r})"
