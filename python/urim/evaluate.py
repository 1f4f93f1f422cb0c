"""urim.match and urim.evaluate: games and tournaments through the Go
evaluator (evaluate.RunTournament), with agents given as spec strings,
urim.Agent objects or Python callables."""

import ctypes
import json

from . import _lib
from ._errors import AgentError, IllegalActionError
from .agent import Agent
from .game import Game
from .vec import check_seed


def _players(agents, names=None):
    """The tournament's agents list and the Python callables among them."""
    players, callables = [], []
    for i, a in enumerate(agents):
        name = names[i] if names else None
        if isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], str):
            name, a = a
        if isinstance(a, str):
            players.append({"name": name or "", "spec": a})
        elif isinstance(a, Agent):
            players.append({"name": name or "", "spec": a.spec})
        elif callable(a):
            enc = getattr(a, "encoding", "compact")
            name = name or getattr(a, "__name__", None) or f"python{i}"
            players.append({"name": name, "callback": len(callables), "encoding": enc})
            callables.append(a)
        else:
            raise TypeError(f"urim: agent {i} is a {type(a).__name__}: give a spec string, a urim.Agent, "
                            "a callable taking a urim.Game, or a (name, agent) pair")
    return players, callables


def _run(config, callables):
    errors = []

    def trampoline(index, handle):
        try:
            h = _lib.u()
            _lib.call("urim_game_clone", _lib.u(handle), ctypes.byref(h))
            g = Game(_handle=h)
            a = callables[index](g)
            if isinstance(a, bool) or not isinstance(a, int):
                import numpy as np
                if not isinstance(a, np.integer):
                    raise TypeError(f"the agent returned {type(a).__name__} {a!r}, not an action")
            a = int(a)
            # Checked here: the C callback returns 32 bits, so 2**32 + a move would play the move.
            if not 0 <= a < g.num_actions:
                raise IllegalActionError(f"the agent returned action {a}: illegal, out of range 0..{g.num_actions - 1}")
            return a
        except BaseException as e:  # reported after the tournament stops
            errors.append(e)
            return -1

    fn = _lib.AGENT_FN(trampoline)
    try:
        return _lib.blob_json("urim_tournament", _lib.enc(json.dumps(config)), fn, len(callables))
    except AgentError as e:
        if errors:
            raise errors[0] from e
        raise


def evaluate(agents, games=100, rules="urim", opening_plies=4, paired=True, seed=1, workers=0,
             format="round_robin", anchor="", anchor_elo=0.0, max_plies=0, names=None):
    """A tournament through urim's evaluator, with the keys of `urim eval`
    (docs/evaluate.md): every pair of agents (or the first against each
    other with format="gauntlet") plays ``games`` games. Returns a dict:
    ``ratings`` (Elo with intervals, anchored at ``anchor`` or random),
    ``pairs`` (wins, draws, losses, score, match-point rates per pairing),
    ``players``, ``played`` and ``report`` (the Markdown report).

    An agent is a spec string, a urim.Agent, a (name, agent) pair, or a
    callable that takes a urim.Game (the position, a copy) and returns an
    action; give a callable an ``encoding`` attribute for thermometer
    observations. A callable's exception stops the tournament and is
    raised again here. Tournaments with callables play one game at a time
    unless ``workers`` says otherwise."""
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(f"urim.evaluate: games must be a positive integer, got {games!r}")
    if len(agents) < 2:
        raise ValueError("urim.evaluate: give at least two agents")
    check_seed("urim.evaluate", seed)
    players, callables = _players(agents, names)
    cfg = {"rules": rules, "games": games, "opening_plies": opening_plies, "paired": paired, "seed": int(seed),
           "workers": workers, "format": format, "anchor": anchor, "anchor_elo": anchor_elo,
           "max_plies": max_plies, "agents": players}
    return _run(cfg, callables)


def match(a, b, games=100, **kw):
    """Two agents, seats alternated: the statistics of A against B (wins,
    draws, losses, score, elo and its interval, match-point rates) as a
    dict, with ``ratings`` and ``report`` from the evaluator. Keywords as
    for urim.evaluate."""
    res = evaluate([a, b], games=games, **kw)
    out = dict(res["pairs"][0])
    out["ratings"], out["report"], out["players"] = res["ratings"], res["report"], res["players"]
    return out
