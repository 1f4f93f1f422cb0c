"""urim.gym.UrimEnv: one game of urim as a single-agent gymnasium.Env (a
gymnasium.Env subclass when gymnasium is importable), registered as
urim/Urim-v0 (gymnasium.make("urim/Urim-v0"))."""

import numpy as np

from . import spaces
from ._errors import IllegalActionError
from ._gym import EnvBase, Seeded, np_random
from .game import Game
from .vec import check_seed

ILLEGAL = ("error", "loss", "random")


class UrimEnv(Seeded, EnvBase):
    """One game of urim for a single agent.

    Without ``opponent`` the agent plays both sides (self-play): each
    observation is seen by the player to move and the reward goes to the
    player who just moved, as in urim.VecEnv. With ``opponent`` (an agent
    spec such as ``"random"`` or ``"mcts:sims=100"``) the agent plays seat
    ``seat`` (0 moves first) and the opponent's moves are played inside
    step and reset; the reward is then the agent's.

    ``info`` holds ``action_mask`` (int8, 1 where legal: what
    ``action_space.sample(mask=)`` takes) and ``current_player``.
    ``illegal``: ``error`` raises urim.IllegalActionError and changes
    nothing, ``loss`` ends the game lost by the mover (reward -1),
    ``random`` plays a random legal move instead (drawn from np_random).
    ``render_mode="ansi"``: render() returns the position's notation;
    ``"human"`` prints it.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, rules="urim", encoding="compact", reward="match_points", opponent=None, seat=0,
                 illegal="error", render_mode=None):
        if illegal not in ILLEGAL:
            raise ValueError(f"urim.gym.UrimEnv: illegal {illegal!r}: want one of {', '.join(ILLEGAL)}")
        if seat not in (0, 1):
            raise ValueError(f"urim.gym.UrimEnv: seat must be 0 or 1, got {seat!r}")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"urim.gym.UrimEnv: render_mode {render_mode!r}: want None, 'human' or 'ansi'")
        self.render_mode = render_mode
        self._game = Game(rules, encoding=encoding, reward=reward)
        self._illegal, self._seat = illegal, seat
        self._opponent_spec = opponent
        self._opponent = None
        if opponent is not None:
            from .agent import Agent
            self._opponent = Agent(opponent, rules=rules)
        g = self._game
        self.observation_space, self.action_space = spaces.make(0.0, spaces.obs_high(g.num_actions), (g.obs_dim,), g.num_actions)
        self._np_random, self._np_random_seed = None, None
        self._over = False

    # np_random, np_random_seed and unwrapped come from Seeded.

    @property
    def game(self):
        """The urim.Game being played (read it, do not play on it)."""
        return self._game

    def reset(self, *, seed=None, options=None):
        """Back to the start (or options["position"], a notation) and
        (obs, info). A seed seeds np_random, the opponent and the random
        fallback."""
        if seed is not None:
            check_seed("urim.gym.UrimEnv.reset", seed)
            self._np_random, self._np_random_seed = np_random(int(seed))
        self._game.reset(options={"position": (options or {}).get("position", "")})
        if self._opponent is not None:
            if seed is not None:
                from .agent import Agent
                self._opponent.close()
                self._opponent = Agent(self._opponent_spec, rules=self._game.rules_file_or_name(), seed=int(seed))
            self._opponent.reset()
        self._over = False
        self._opponent_moves()
        return self._obs(), self._info()

    def step(self, action):
        """Plays action and returns (obs, reward, terminated, truncated, info)."""
        g = self._game
        if self._over or g.is_over():
            raise RuntimeError("urim.gym.UrimEnv.step: the game is over: call reset()")
        mover = g.to_move
        me = mover if self._opponent is None else self._seat
        legal = g.legal_actions()
        if not (isinstance(action, (int, np.integer)) and not isinstance(action, bool) and int(action) in legal):
            if self._illegal == "error":
                raise IllegalActionError(f"urim.gym.UrimEnv.step: action {action!r} is not legal (legal: {legal})")
            if self._illegal == "loss":
                self._over = True
                return self._obs(), -1.0 if me == mover else 1.0, True, False, self._info()
            action = int(self.np_random.choice(legal))
        g.play(int(action))
        self._opponent_moves()
        st = g._status()
        terminated, truncated = bool(st[1]), bool(st[2])
        reward = float(g.final_rewards()[me]) if terminated or truncated else 0.0
        self._over = terminated or truncated
        return self._obs(), reward, terminated, truncated, self._info()

    def _opponent_moves(self):
        g = self._game
        while self._opponent is not None and not g.is_over() and g.to_move != self._seat:
            g.play(self._opponent.act(g))

    def _obs(self):
        return self._game.observation()[0]

    def _info(self):
        return {"action_mask": self._game.action_mask(), "current_player": self._game.to_move}

    def render(self):
        """The position's notation: returned (render_mode "ansi"), printed
        ("human", returning None), else None."""
        if self.render_mode == "ansi":
            return self._game.notation() + "\n"
        if self.render_mode == "human":
            print(self._game.notation(), flush=True)
        return None

    def close(self):
        if self._opponent is not None:
            self._opponent.close()
        self._game.close()

    def __str__(self):
        return f"<UrimEnv<{self._game.rules}>>"
