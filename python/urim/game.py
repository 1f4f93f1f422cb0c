"""urim.Game: one game, in the style of PettingZoo's AEC environments."""

import ctypes
import json

import numpy as np

from . import _lib, spaces
from ._errors import ClosedError, IllegalActionError
from .vec import check_seed

try:
    from pettingzoo import AECEnv as _AECBase
except ImportError:
    _AECBase = object

AGENTS = ("player_0", "player_1")  # player_0 is South, who moves first


class Game(_AECBase):
    """One game of urim, played move by move by the Go engine: a
    pettingzoo.AECEnv when pettingzoo is importable.

    PettingZoo's AEC interface: ``agents``, ``possible_agents``,
    ``agent_selection``, ``agent_iter()``, ``last()``, ``step(action)``,
    ``observe(agent)``, ``rewards``, ``terminations``, ``truncations``,
    ``infos``, ``observation_spaces``, ``action_spaces``; ``observe(agent)``
    is a dict with ``"observation"`` (float32, the encoding's columns, seen
    by that agent) and ``"action_mask"`` (int8, 1 where legal; all zero
    for the agent not to move). Rewards are given to both players on the
    move that ends the game (match points mapped to [-1, 1] by default, as
    the VecEnv does); after that each agent is selected once more and steps
    with ``None`` (PettingZoo's dead step, which clears ``rewards``).

    Beyond PettingZoo: ``legal_actions()``, ``clone()``, ``notation()``
    (urim's position notation, history included) and ``Game(position=...)``
    to start from one, ``to_json()`` (the position as ``urim replay``
    writes it) and ``probe(table)`` (the endgame tablebase's report).
    """

    metadata = {"name": "urim_v0", "is_parallelizable": False, "render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, rules="urim", encoding="compact", position=None, reward="match_points", render_mode=None,
                 _handle=None):
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"urim.Game: render_mode {render_mode!r}: want None, 'human' or 'ansi'")
        self.render_mode = render_mode
        self._h = _lib.u()
        if _handle is not None:
            self._h = _handle
        else:
            _lib.call("urim_game_new", _lib.enc(rules), _lib.enc(encoding), _lib.enc(reward),
                      _lib.enc(position or ""), ctypes.byref(self._h))
        self._closed = False
        self._rules_arg = rules if _handle is None else None
        info = _lib.blob_json("urim_game_text", self._h, 2, 0, -1)
        self.rules, self.encoding, self.reward_kind = info["rules"], info["encoding"], info["reward"]
        self.obs_dim, self.num_actions = info["obs_dim"], info["actions"]
        self.rules_full = info["rules_full"]
        self.possible_agents = list(AGENTS)
        box, disc = spaces.make(0.0, spaces.obs_high(self.num_actions), (self.obs_dim,), self.num_actions)
        mask = spaces.mask_box(self.num_actions)
        self.observation_spaces = {a: spaces.dict_space({"observation": box, "action_mask": mask}) for a in AGENTS}
        self.action_spaces = {a: disc for a in AGENTS}
        self._st = np.zeros(5, np.int32)
        self._rw = np.zeros(2, np.float32)
        self._status()
        self._aec_reset()

    # The engine's view.

    def _status(self):
        self._check_open()
        _lib.call("urim_game_status", self._h, _lib.ptr(self._st, ctypes.c_int32), _lib.ptr(self._rw, ctypes.c_float))
        return self._st

    @property
    def to_move(self):
        """0 (South, player_0) or 1 (North, player_1)."""
        return int(self._status()[0])

    @property
    def ply(self):
        return int(self._status()[3])

    def is_over(self):
        st = self._status()
        return bool(st[1] or st[2])

    def final_rewards(self):
        """The two players' rewards: 0, 0 until the game is over."""
        self._status()
        return self._rw.copy()

    def legal_actions(self):
        """The legal actions of the player to move (empty once over)."""
        bits = int(self._status()[4])
        return [a for a in range(self.num_actions) if bits >> a & 1]

    def action_mask(self):
        bits = int(self._status()[4])
        return np.array([bits >> a & 1 for a in range(self.num_actions)], np.int8)

    def observation(self):
        """(obs float32 of obs_dim, mask bool of actions) of the player to move."""
        self._check_open()
        obs = np.zeros(self.obs_dim, np.float32)
        mask = np.zeros(self.num_actions, np.bool_)
        _lib.call("urim_game_observe", self._h, _lib.ptr(obs, ctypes.c_float), _lib.ptr(mask, ctypes.c_uint8))
        return obs, mask

    def play(self, action):
        """Plays action for the player to move (the engine's step, without
        the AEC bookkeeping). An illegal action raises
        urim.IllegalActionError and changes nothing."""
        self._check_open()
        _lib.call("urim_game_step", self._h, _action(action, self.num_actions))

    def notation(self):
        """The position in urim's notation (docs/rules.md)."""
        self._check_open()
        return _lib.blob("urim_game_text", self._h, 0, 0, -1).decode()

    def to_json(self, game=0, action=None):
        """The position as a dict, as `urim replay` writes it."""
        self._check_open()
        return json.loads(_lib.blob("urim_game_text", self._h, 1, int(game), -1 if action is None else int(action)))

    def probe(self, table):
        """The endgame tablebase's report of the position (bounds on the
        seeds the player to move ends with, every move's): a dict, as
        `urim tablebase probe --json` prints it."""
        self._check_open()
        return _lib.blob_json("urim_game_probe", self._h, _lib.enc(table))

    def clone(self):
        """An independent copy (the AEC bookkeeping included)."""
        self._check_open()
        h = _lib.u()
        _lib.call("urim_game_clone", self._h, ctypes.byref(h))
        g = Game(_handle=h, encoding=self.encoding, render_mode=self.render_mode)
        g._rules_arg = self._rules_arg  # a rules file: the clone resets from it too
        for k in ("agents", "agent_selection", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos",
                  "_skip_agent_selection"):
            v = getattr(self, k)
            setattr(g, k, dict(v) if isinstance(v, dict) else (list(v) if isinstance(v, list) else v))
        g.infos = {a: dict(i) for a, i in self.infos.items()}
        return g

    # PettingZoo's AEC interface.

    def reset(self, seed=None, options=None):
        """Back to the start position (or options["position"]). The game
        has no randomness: a seed (an integer in 0..2**64-1, as everywhere
        in urim) is accepted and changes nothing."""
        self._check_open()
        if seed is not None:
            check_seed("urim.Game.reset", seed)
        h = _lib.u()
        pos = (options or {}).get("position", "")
        _lib.call("urim_game_new", _lib.enc(self.rules_file_or_name()), _lib.enc(self.encoding),
                  _lib.enc(self.reward_kind), _lib.enc(pos), ctypes.byref(h))
        _lib.lib.urim_free(self._h)
        self._h = h
        self._aec_reset()

    def rules_file_or_name(self):
        return getattr(self, "_rules_arg", None) or self.rules

    def _aec_reset(self):
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._skip_agent_selection = None
        st = self._status()
        self.agent_selection = AGENTS[int(st[0])]
        if st[1] or st[2]:
            self._end(st)

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        """{"observation", "action_mask"} of agent: the board seen by that
        agent (its own pits and store first, as the VecEnv's rows of the
        player to move); the mask is all zero unless agent is to move."""
        if agent not in AGENTS:
            raise ValueError(f"urim.Game.observe: unknown agent {agent!r} (agents: {', '.join(AGENTS)})")
        obs, mask = self.observation()
        if AGENTS.index(agent) != int(self._st[0]):
            obs = self._other_view(obs)
        if (agent != self.agent_selection or agent not in self.agents or self.is_over()
                or self.terminations.get(agent) or self.truncations.get(agent)):
            mask[:] = False  # (the last two: a game ended by PettingZoo's TerminateIllegalWrapper)
        return {"observation": obs, "action_mask": mask.astype(np.int8)}

    def _other_view(self, obs):
        """The mover's observation row as the other player sees it: the two
        rows of pits and the two stores swapped, the mover column flipped
        (docs/tensors.md: the ply and quiet columns are the same)."""
        half = (self.obs_dim - 5) // 2
        out = np.empty_like(obs)
        out[:half], out[half:2 * half] = obs[half:2 * half], obs[:half]
        out[2 * half], out[2 * half + 1] = obs[2 * half + 1], obs[2 * half]
        out[2 * half + 2:2 * half + 4] = obs[2 * half + 2:2 * half + 4]
        out[2 * half + 4] = 1 - obs[2 * half + 4]
        return out

    def last(self, observe=True):
        a = self.agent_selection
        obs = self.observe(a) if observe else None
        return obs, self._cumulative_rewards[a], self.terminations[a], self.truncations[a], self.infos[a]

    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        """Plays action for agent_selection. Once the game is over each
        agent is selected once more and must step with None (PettingZoo's
        dead step): it leaves ``agents`` and ``rewards`` are cleared, so
        summing ``rewards`` after every step counts each reward once."""
        a = self.agent_selection
        if a not in self.agents:
            raise ValueError(f"urim.Game.step: {a} has left the game")
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise IllegalActionError(f"urim.Game.step: the game is over; {a} must step with None")
            self._dead_step()
            return
        if action is None:
            raise IllegalActionError(f"urim.Game.step: {a} must play an action (legal: {self.legal_actions()})")
        self.play(action)
        self._cumulative_rewards[a] = 0.0
        for x in self.rewards:
            self.rewards[x] = 0.0
        st = self._status()
        if st[1] or st[2]:
            self._end(st)
            self.agent_selection = AGENTS[1 - AGENTS.index(a)]
        else:
            self.agent_selection = AGENTS[int(st[0])]

    def _end(self, st):
        for i, x in enumerate(AGENTS):
            self.rewards[x] = float(self._rw[i])
            self._cumulative_rewards[x] += float(self._rw[i])
            self.terminations[x] = bool(st[1])
            self.truncations[x] = bool(st[2])

    def _dead_step(self):
        """The selected agent, whose game is over, leaves: the next one
        still in the game is selected and the rewards are cleared."""
        a = self.agent_selection
        for d in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del d[a]
        self.agents.remove(a)
        dead = [x for x in self.agents if self.terminations[x] or self.truncations[x]]
        if dead:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = a
            self.agent_selection = dead[0]
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        for x in self.rewards:
            self.rewards[x] = 0.0

    def render(self):
        """The position in urim's notation: returned (render_mode "ansi"),
        printed ("human", returning None), else None."""
        if self.render_mode == "ansi":
            return self.notation() + "\n"
        if self.render_mode == "human":
            print(self.notation(), flush=True)
        return None

    def close(self):
        if not self._closed:
            self._closed = True
            _lib.lib.urim_free(self._h)

    def _check_open(self):
        if self._closed:
            raise ClosedError("urim.Game: the game is closed")

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __str__(self):
        return self.notation()

    def __repr__(self):
        return f"urim.Game({self.rules!r}, position={self.notation()!r})"


def _action(a, p):
    if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
        raise TypeError(f"urim: an action is an integer 0..{p - 1}, got {type(a).__name__} {a!r}")
    a = int(a)
    if not 0 <= a < p:
        raise IllegalActionError(f"urim: action {a} is out of range 0..{p - 1}")
    return a
