"""urim.VecEnv: the Go env.Vec, in the conventions of Gymnasium's vector
API, writing into NumPy arrays that Python owns."""

import ctypes
import json
import threading

import numpy as np

from . import _errors, _lib, spaces
from ._errors import ClosedError
from ._gym import AutoresetMode, Seeded, VectorEnvBase, np_random

AUTORESET_MODES = ("next_step", "same_step", "disabled")
_MODE_OF = {AutoresetMode.NEXT_STEP: "next_step", AutoresetMode.SAME_STEP: "same_step",
            AutoresetMode.DISABLED: "disabled"}
_ENUM_OF = {v: k for k, v in _MODE_OF.items()}
MASK_DTYPES = {"int8": np.int8, "bool": np.bool_}
_CLAIM = threading.Lock()  # taken only by a VecEnv's first reset or step, to claim it


class VecEnv(Seeded, VectorEnvBase):
    """N games of urim stepped together by the Go engine: a
    gymnasium.vector.VectorEnv when gymnasium is importable.

    Observations, masks and rewards are env.Vec's (docs/tensors.md): each
    observation row is seen by that game's player to move, and
    ``rewards[i]`` is the reward of the player who moved in game i on this
    step (0 until a game ends, then the result: match points mapped to
    [-1, 1] by default). ``info`` holds ``action_mask`` (int8, N x actions,
    the dtype of Discrete.sample(mask=); bool with ``mask_dtype="bool"``),
    ``current_player`` (0 or 1, whose view the next observation takes) and
    ``rewards`` (N x 2, players 0 and 1), ``legal`` (uint8, N: the legal
    actions as a bit set, bit a for action a), each with its ``_k`` mask
    (all true: every game has them); under ``same_step``, ``final_obs``,
    ``final_info`` ({"rewards": the ended games' N x 2 rewards}) and their
    masks ``_final_obs``, ``_final_info`` (the games that ended).

    autoreset: ``next_step`` (Gymnasium's default: the step after a game
    ends starts the next one, ignoring the action, with reward 0),
    ``same_step`` (the next game starts within the ending step;
    ``info["final_obs"]`` keeps the last observation) or ``disabled``
    (finished games wait for ``reset(options={"reset_mask": m})``).

    The arrays returned are copies unless ``copy=False``, in which case
    they are the buffers the library writes (valid until the next step).

    illegal: ``error`` (raise, no game moves), ``loss`` (the mover loses
    that game) or ``random`` (a random legal move is played instead, so an
    unmasked ``action_space.sample()`` baseline plays real games).

    One thread: the first thread that resets or steps the env owns it; a
    call from another thread raises RuntimeError (results are buffers that
    the next step rewrites, so sharing them would tear). Make one VecEnv
    per thread.
    """

    render_mode = None
    spec = None

    def __init__(self, num_envs, rules="urim", encoding="compact", autoreset="next_step", seed=0,
                 opening_plies=0, reward="match_points", illegal="error", num_threads=1, copy=True,
                 mask_dtype="int8", render_mode=None):
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"urim.VecEnv: num_envs must be a positive integer, got {num_envs!r}")
        autoreset = _MODE_OF.get(autoreset, autoreset)
        if autoreset not in AUTORESET_MODES:
            raise ValueError(f"urim.VecEnv: autoreset {autoreset!r}: want one of {', '.join(AUTORESET_MODES)} "
                             "or a gymnasium.vector.AutoresetMode")
        if mask_dtype not in MASK_DTYPES:
            raise ValueError(f"urim.VecEnv: mask_dtype {mask_dtype!r}: want int8 or bool")
        if render_mode is not None:
            raise ValueError(f"urim.VecEnv: render_mode {render_mode!r}: a VecEnv does not render (use urim.Game)")
        for name, v in (("opening_plies", opening_plies), ("num_threads", num_threads)):
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 0:
                raise ValueError(f"urim.VecEnv: {name} must be a non-negative integer, got {v!r}")
        check_seed("urim.VecEnv", seed)
        cfg = {"Rules": rules, "N": int(num_envs), "Encoding": encoding, "AutoReset": autoreset, "Reward": reward,
               "Illegal": illegal, "Seed": int(seed), "OpeningPlies": int(opening_plies), "Workers": int(num_threads)}
        self._h = _lib.u()
        _lib.call("urim_vec_new", _lib.enc(json.dumps(cfg)), ctypes.byref(self._h))
        self._closed = False
        self._owner = None
        self._np_random, self._np_random_seed = None, None
        self._mode = autoreset
        self._mask_dtype = MASK_DTYPES[mask_dtype]
        self._copy = bool(copy)
        self._n1 = (int(num_envs),)
        self._step = _lib.lib.urim_vec_step
        self._draw = _lib.lib.urim_vec_random_actions
        self._err = ctypes.create_string_buffer(_lib.ERRLEN)
        info = _lib.blob_json("urim_vec_info", self._h)
        self.num_envs, self.obs_dim, self.num_actions = info["num_envs"], info["obs_dim"], info["actions"]
        self.columns = info["columns"]
        self.metadata = {"autoreset_mode": _ENUM_OF[info["autoreset_mode"]], "render_modes": [], "rules": info["rules"],
                         "encoding": info["encoding"], "reward": info["reward"], "illegal": info["illegal"],
                         "num_threads": info["workers"], "max_plies": info["max_plies"]}
        self.single_observation_space, self.single_action_space = spaces.make(
            0.0, spaces.obs_high(self.num_actions), (self.obs_dim,), self.num_actions)
        n, d, p = self.num_envs, self.obs_dim, self.num_actions
        self.observation_space, self.action_space = spaces.batch(n, d, p)
        # Every game has every info key: one read-only all-true mask for their _k.
        self._all = np.ones(n, np.bool_)
        self._all.flags.writeable = False
        self._buf = {
            "obs": np.zeros((n, d), np.float32), "mask": np.zeros((n, p), self._mask_dtype),
            "rewards": np.zeros(n, np.float32), "rewards2": np.zeros((n, 2), np.float32),
            "terminated": np.zeros(n, np.bool_), "truncated": np.zeros(n, np.bool_),
            "to_move": np.zeros(n, np.int32), "final_obs": None, "has_final": None,
            "legal": np.zeros(n, np.uint8), "actions": np.zeros(n, np.int32),
        }
        if self._mode == "same_step":
            self._buf["final_obs"] = np.zeros((n, d), np.float32)
            self._buf["has_final"] = np.zeros(n, np.bool_)
        self.set_buffers(**self._buf)
        self._owner = None  # the thread that first resets or steps it owns it

    # The buffers.

    _SPECS = {"obs": (np.float32, "nd", ctypes.c_float), "mask": (None, "np", ctypes.c_uint8),
              "rewards": (np.float32, "n", ctypes.c_float), "rewards2": (np.float32, "n2", ctypes.c_float),
              "terminated": (np.bool_, "n", ctypes.c_uint8), "truncated": (np.bool_, "n", ctypes.c_uint8),
              "to_move": (np.int32, "n", ctypes.c_int32), "final_obs": (np.float32, "nd", ctypes.c_float),
              "has_final": (np.bool_, "n", ctypes.c_uint8), "legal": (np.uint8, "n", ctypes.c_uint8),
              "actions": (np.int32, "n", ctypes.c_int32)}

    def _shape(self, kind):
        n, d, p = self.num_envs, self.obs_dim, self.num_actions
        return {"nd": (n, d), "np": (n, p), "n": (n,), "n2": (n, 2)}[kind]

    def set_buffers(self, **arrays):
        """Hands the library the arrays it writes (obs, mask, rewards,
        rewards2, terminated, truncated, to_move, final_obs, has_final) and
        reads (actions), replacing the ones given: each must be a
        writable, C-contiguous array of the exact dtype and shape (a
        torch.from_numpy view works, so observations can land in a tensor;
        mask may be int8 or bool).
        The env keeps a reference to each, and the library writes the
        current observations into them at once (reset state is kept)."""
        self._check_thread("set_buffers")
        same = self._mode == "same_step"
        new = dict(self._buf)
        for name, a in arrays.items():
            if name not in self._SPECS:
                raise TypeError(f"urim.VecEnv.set_buffers: unknown buffer {name!r} (known: {', '.join(self._SPECS)})")
            if a is None and name in ("final_obs", "has_final") and not same:
                new[name] = None
                continue
            dtype, kind, _ = self._SPECS[name]
            if dtype is None:  # the mask: int8 or bool, both one byte of 0 or 1
                dtype = np.bool_ if isinstance(a, np.ndarray) and a.dtype == np.bool_ else np.int8
            _lib.check_array(name, a, dtype, self._shape(kind))
            new[name] = a
        b = _lib.Buffers()
        for name, (_, _, ctype) in self._SPECS.items():
            a = new[name]
            setattr(b, name, _lib.ptr(a, ctype) if a is not None else None)
        _lib.call("urim_vec_set_buffers", self._h, ctypes.byref(b))
        # Keep the old contents: the new arrays start as copies of them.
        for name, a in arrays.items():
            old = self._buf.get(name)
            if a is not None and old is not None and a is not old:
                np.copyto(a, old)
        self._buf = new

    # Gymnasium's vector API.

    def reset(self, seed=None, options=None):
        """Starts every game again (a seed reseeds the random openings) and
        returns (obs, info). With options={"reset_mask": m} (bool, N) only
        the games where m is true start again, as Gymnasium's disabled
        autoreset mode expects."""
        self._check_thread("reset")
        if options and "reset_mask" in options:
            m = np.asarray(options["reset_mask"])
            if m.dtype != np.bool_ or m.shape != (self.num_envs,):
                raise ValueError(f"urim.VecEnv.reset: reset_mask must be bool of shape ({self.num_envs},), "
                                 f"got {m.dtype} {m.shape}")
            if seed is not None:
                raise ValueError("urim.VecEnv.reset: give a seed or a reset_mask, not both")
            m = np.ascontiguousarray(m)
            _lib.call("urim_vec_reset_mask", self._h, _lib.ptr(m, ctypes.c_uint8))
        else:
            if seed is not None:
                check_seed("urim.VecEnv.reset", seed)
                self._np_random, self._np_random_seed = np_random(int(seed))
            _lib.call("urim_vec_reset", self._h, 0 if seed is None else 1, 0 if seed is None else int(seed))
        return self._out(self._buf["obs"]), self._info()

    def step(self, actions):
        """Plays one action per game (relative pit numbers of each game's
        player to move) and returns (obs, rewards, terminated, truncated,
        info). An illegal or out-of-range action raises
        urim.IllegalActionError naming the game, and no game moves (unless
        the env was made with illegal="loss" or "random")."""
        if self._closed or self._owner != threading.get_ident():
            self._check_thread("step")
        a = actions
        if type(a) is np.ndarray and a.dtype == np.int32 and a.shape == self._n1:
            if a is not self._buf["actions"]:  # step(env.random_actions()) needs no copy
                np.copyto(self._buf["actions"], a)
            code = self._step(self._h, self._err, _lib.ERRLEN)
            if code:
                raise _errors.from_code(code, self._err.value.decode("utf-8", "replace"))
            b, out = self._buf, self._out
            return out(b["obs"]), out(b["rewards"]), out(b["terminated"]), out(b["truncated"]), self._info()
        if not isinstance(a, np.ndarray):
            a = np.asarray(a)
        if a.shape != (self.num_envs,):
            raise ValueError(f"urim.VecEnv.step: actions have shape {a.shape}, want ({self.num_envs},)")
        if a.dtype.kind not in "iu":
            raise TypeError(f"urim.VecEnv.step: actions have dtype {a.dtype}, want integers")
        buf = self._buf["actions"]
        if a.dtype != np.int32:
            if a.size and (a.min() < 0 or a.max() >= self.num_actions):
                bad = int(np.flatnonzero((a < 0) | (a >= self.num_actions))[0])
                raise_illegal(bad, a[bad], self.num_actions)
        np.copyto(buf, a, casting="unsafe")
        _lib.call("urim_vec_step", self._h)
        b, out = self._buf, self._out
        return out(b["obs"]), out(b["rewards"]), out(b["terminated"]), out(b["truncated"]), self._info()

    def random_actions(self):
        """One uniformly random legal action per game (0 for a finished
        one), drawn in Go from the current legal sets into actions_buffer,
        which it returns: step(env.random_actions()) plays a random
        baseline with no NumPy draw and no copy of the actions (the next
        call rewrites the array; copy it to keep it). reset(seed=s)
        restarts the stream, so the draws are reproducible."""
        if self._closed or self._owner != threading.get_ident():
            self._check_thread("random_actions")
        code = self._draw(self._h, self._err, _lib.ERRLEN)
        if code:
            raise _errors.from_code(code, self._err.value.decode("utf-8", "replace"))
        return self._buf["actions"]

    def _out(self, a):
        return a.copy() if self._copy else a

    @property
    def actions_buffer(self):
        """The int32 array the library reads actions from: step(env.actions_buffer)
        after writing into it skips one copy."""
        return self._buf["actions"]

    def _info(self):
        b, out, every = self._buf, self._out, self._all
        info = {"action_mask": out(b["mask"]), "_action_mask": every, "current_player": out(b["to_move"]),
                "_current_player": every, "rewards": out(b["rewards2"]), "_rewards": every,
                "legal": out(b["legal"]), "_legal": every}
        if b["final_obs"] is not None:
            has = out(b["has_final"])
            info["final_obs"], info["_final_obs"] = out(b["final_obs"]), has
            # Gymnasium's same_step convention: the ended games' last info.
            info["final_info"], info["_final_info"] = {"rewards": info["rewards"], "_rewards": has}, has
        return info

    def close(self, **kwargs):
        """Stops the workers and frees the env; later calls raise
        urim.ClosedError. Closing twice is allowed, from any thread."""
        if not self._closed:
            self._closed = True
            self.close_extras(**kwargs)
            _lib.lib.urim_free(self._h)

    def close_extras(self, **kwargs):
        """Gymnasium's hook for what close frees besides the env: nothing."""

    def render(self):
        """A VecEnv does not render (render_mode is None): urim.Game does."""
        return None

    @property
    def closed(self):
        return self._closed

    @closed.setter
    def closed(self, value):  # Gymnasium's VectorEnv.close assigns it
        self._closed = bool(value)

    def _check_open(self):
        if self._closed:
            raise ClosedError("urim.VecEnv: the environment is closed")

    def _check_thread(self, what):
        """Claims the env for the calling thread, or refuses a second one."""
        self._check_open()
        me = threading.get_ident()
        if self._owner is None:
            with _CLAIM:  # two threads' first calls at once: one wins, the other is refused
                if self._owner is None:
                    self._owner = me
        if self._owner != me:
            raise RuntimeError(f"urim.VecEnv.{what}: the env belongs to thread {self._owner} (the first to reset "
                               f"or step it), not to thread {me}: a VecEnv's results are buffers each step "
                               "rewrites, so make one VecEnv per thread")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return (f"urim.VecEnv({self.num_envs}, rules={self.metadata['rules']!r}, encoding="
                f"{self.metadata['encoding']!r}, autoreset={self._mode!r})")


def check_seed(where, seed):
    """Raises unless seed is an integer in 0..2**64-1 (the Go seed's range:
    a bigger one would wrap)."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= int(seed) < 2 ** 64:
        raise ValueError(f"{where}: seed must be an integer in 0..2**64-1, got {seed!r}")


def raise_illegal(game, action, p):
    from ._errors import IllegalActionError
    raise IllegalActionError(f"urim.VecEnv.step: game {game}: action {int(action)} is out of range 0..{p - 1}")
