"""urim.VecEnv: the Go env.Vec, in the conventions of Gymnasium's vector
API, writing into NumPy arrays that Python owns."""

import ctypes
import json
import sys
import threading
from threading import get_ident

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

    The arrays returned are the caller's to keep unless ``copy=False``,
    in which case they are the buffers the library writes (valid until the
    next step). With ``copy=True`` (the default) nothing is copied: the
    library writes each step straight into a set of arrays nobody else
    holds (a small pool, reused once the caller has dropped every array of
    a set, as a reference count says), so a result stays as it was for as
    long as anything refers to it.

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
        self._draw = _lib.unchecked("urim_vec_random_actions")  # (handle, err, errlen): ctypes objects only
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
        self._same = self._mode == "same_step"
        self._actions = np.zeros(n, np.int32)  # read by every step; random_actions writes it
        self._buf = self._new_arrays()
        # copy=True: each call writes a fresh set (_Set) of the pool through
        # the _into functions, carrying over from the current one (_cur);
        # copy=False, or arrays of the caller's: every call rewrites _buf.
        self._fresh = self._copy
        self._pool = self._cur = self._reg = None
        if self._fresh:
            self._cur = _Set(self._buf, self._actions)
            self._pool = [self._cur]
        self._register(self._buf)
        self._step_into = _lib.unchecked("urim_vec_step_into")  # (handle, out, prev, err, errlen), as _draw
        self._owner = None  # the thread that first resets or steps it owns it

    def _new_arrays(self):
        n, d, p = self.num_envs, self.obs_dim, self.num_actions
        return {
            "obs": np.zeros((n, d), np.float32), "mask": np.zeros((n, p), self._mask_dtype),
            "rewards": np.zeros(n, np.float32), "rewards2": np.zeros((n, 2), np.float32),
            "terminated": np.zeros(n, np.bool_), "truncated": np.zeros(n, np.bool_),
            "to_move": np.zeros(n, np.int32), "legal": np.zeros(n, np.uint8),
            "final_obs": np.zeros((n, d), np.float32) if self._same else None,
            "has_final": np.zeros(n, np.bool_) if self._same else None,
        }

    def _take(self):
        """A set for the next call to write: one of the pool that nobody
        holds any array of (never the current one, which the call carries
        over from), else a new one; the pool forgets the oldest set beyond
        _POOL, which is then the caller's alone."""
        cur = self._cur
        for s in self._pool:
            if s is not cur and s.free():
                return s
        s = _Set(self._new_arrays(), self._actions)
        if len(self._pool) >= _POOL:
            self._pool.remove(next(x for x in self._pool if x is not cur))
        self._pool.append(s)
        return s

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

    def _register(self, arrays):
        """Hands the library the set every call without a set of its own
        uses (urim_vec_set_buffers), with the first actions array; with
        copy=False (or arrays of the caller's) steps write it too."""
        _lib.call("urim_vec_set_buffers", self._h, ctypes.byref(_buffers(arrays, self._actions)))
        if not self._fresh:
            self._reg = _Set(arrays, self._actions)

    def set_buffers(self, **arrays):
        """Hands the library the arrays it writes (obs, mask, rewards,
        rewards2, terminated, truncated, to_move, final_obs, has_final) and
        reads (actions), replacing the ones given: each must be a
        writable, C-contiguous array of the exact dtype and shape (a
        torch.from_numpy view works, so observations can land in a tensor;
        mask may be int8 or bool).
        The env keeps a reference to each, and they start as copies of the
        current tensors (reset state is kept). From then on every step
        rewrites them; with copy=True it returns copies of them."""
        self._check_thread("set_buffers")
        cur = self._cur.arrays if self._fresh else self._buf
        new = dict(cur, actions=self._actions)
        for name, a in arrays.items():
            if name not in self._SPECS:
                raise TypeError(f"urim.VecEnv.set_buffers: unknown buffer {name!r} (known: {', '.join(self._SPECS)})")
            if a is None and name in ("final_obs", "has_final") and not self._same:
                continue
            dtype, kind, _ = self._SPECS[name]
            if dtype is None:  # the mask: int8 or bool, both one byte of 0 or 1
                dtype = np.bool_ if isinstance(a, np.ndarray) and a.dtype == np.bool_ else np.int8
            _lib.check_array(name, a, dtype, self._shape(kind))
            new[name] = a
        if not arrays:
            return
        if self._fresh and set(arrays) != {"actions"}:
            # The caller may hold the current set: the env's own arrays
            # from now on are copies of it.
            new.update({k: a.copy() for k, a in cur.items() if a is not None and new[k] is a})
            self._fresh, self._pool, self._cur = False, None, None
        for name, a in new.items():  # the new arrays start as copies of the old ones
            old = self._actions if name == "actions" else cur.get(name)
            if a is not None and old is not None and a is not old:
                np.copyto(a, old)
        a = new.pop("actions")
        if a is not self._actions:
            self._actions = a
            for x in self._pool or ():
                x.set_actions(a)
        if self._fresh:
            self._register(self._cur.arrays)
            return
        self._buf = new
        self._register(new)

    # Gymnasium's vector API.

    def reset(self, seed=None, options=None):
        """Starts every game again (a seed reseeds the random openings) and
        returns (obs, info). With options={"reset_mask": m} (bool, N) only
        the games where m is true start again, as Gymnasium's disabled
        autoreset mode expects."""
        self._check_thread("reset")
        mask = None
        if options and "reset_mask" in options:
            m = np.asarray(options["reset_mask"])
            if m.dtype != np.bool_ or m.shape != (self.num_envs,):
                raise ValueError(f"urim.VecEnv.reset: reset_mask must be bool of shape ({self.num_envs},), "
                                 f"got {m.dtype} {m.shape}")
            if seed is not None:
                raise ValueError("urim.VecEnv.reset: give a seed or a reset_mask, not both")
            mask = _lib.ptr(np.ascontiguousarray(m), ctypes.c_uint8)
        elif seed is not None:
            check_seed("urim.VecEnv.reset", seed)
            self._np_random, self._np_random_seed = np_random(int(seed))
        seeded = (0, 0) if seed is None else (1, int(seed))
        if self._fresh:
            s = self._take()
            if mask is not None:
                _lib.call("urim_vec_reset_mask_into", self._h, s.ref, self._cur.ref, mask)
            else:
                _lib.call("urim_vec_reset_into", self._h, s.ref, self._cur.ref, *seeded)
            self._cur = s
            b = s.arrays
        else:
            if mask is not None:
                _lib.call("urim_vec_reset_mask", self._h, mask)
            else:
                _lib.call("urim_vec_reset", self._h, *seeded)
            b = self._copies()
        return b["obs"], self._info(b)

    def step(self, actions):
        """Plays one action per game (relative pit numbers of each game's
        player to move) and returns (obs, rewards, terminated, truncated,
        info). An illegal or out-of-range action raises
        urim.IllegalActionError naming the game, and no game moves (unless
        the env was made with illegal="loss" or "random")."""
        if self._closed or self._owner != get_ident():
            self._check_thread("step")
        a, buf = actions, self._actions
        if a is not buf:  # step(env.random_actions()) needs no copy
            if not (type(a) is np.ndarray and a.dtype == np.int32 and a.shape == self._n1):
                a = self._check_actions(a)
            np.copyto(buf, a, casting="unsafe")
        fresh = self._fresh
        if fresh:
            s, prev = self._take(), self._cur
        else:
            s = prev = self._reg
        code = self._step_into(self._h, s.ref, prev.ref, self._err, _ERRLEN)  # ctypes objects only: unchecked
        if code:
            raise _errors.from_code(code, self._err.value.decode("utf-8", "replace"))
        if fresh:
            self._cur = s
            b = s.arrays
        else:
            b = self._copies()
        return b["obs"], b["rewards"], b["terminated"], b["truncated"], self._info(b)

    def _check_actions(self, a):
        """Actions that are not an int32 array of shape (N,): as an array,
        checked (a cast to int32 could wrap an out-of-range one into range)."""
        if not isinstance(a, np.ndarray):
            a = np.asarray(a)
        if a.shape != (self.num_envs,):
            raise ValueError(f"urim.VecEnv.step: actions have shape {a.shape}, want ({self.num_envs},)")
        if a.dtype.kind not in "iu":
            raise TypeError(f"urim.VecEnv.step: actions have dtype {a.dtype}, want integers")
        if a.size and (a.min() < 0 or a.max() >= self.num_actions):
            bad = int(np.flatnonzero((a < 0) | (a >= self.num_actions))[0])
            raise_illegal(bad, a[bad], self.num_actions)
        return a

    def random_actions(self):
        """One uniformly random legal action per game (0 for a finished
        one), drawn in Go from the current legal sets into actions_buffer,
        which it returns: step(env.random_actions()) plays a random
        baseline with no NumPy draw and no copy of the actions (the next
        call rewrites the array; copy it to keep it). reset(seed=s)
        restarts the stream, so the draws are reproducible."""
        if self._closed or self._owner != get_ident():
            self._check_thread("random_actions")
        code = self._draw(self._h, self._err, _ERRLEN)
        if code:
            raise _errors.from_code(code, self._err.value.decode("utf-8", "replace"))
        return self._actions

    def _copies(self):
        """The arrays of _buf to return: themselves with copy=False, else
        copies (arrays of the caller's given to set_buffers)."""
        if not self._copy:
            return self._buf
        return {k: (None if a is None else a.copy()) for k, a in self._buf.items()}

    @property
    def actions_buffer(self):
        """The int32 array the library reads actions from: step(env.actions_buffer)
        after writing into it skips one copy."""
        return self._actions

    def _info(self, b):
        every = self._all
        info = {"action_mask": b["mask"], "_action_mask": every, "current_player": b["to_move"],
                "_current_player": every, "rewards": b["rewards2"], "_rewards": every,
                "legal": b["legal"], "_legal": every}
        if self._same:
            has = b["has_final"]
            info["final_obs"], info["_final_obs"] = b["final_obs"], has
            # Gymnasium's same_step convention: the ended games' last info.
            info["final_info"], info["_final_info"] = {"rewards": b["rewards2"], "_rewards": has}, has
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


_POOL = 4  # sets a copy=True VecEnv keeps for reuse
_ERRLEN = _lib.ERRLEN_C


def _buffers(arrays, actions):
    """The urim_buffers of a set of arrays and the actions array."""
    b = _lib.Buffers()
    for name, (_, _, ctype) in VecEnv._SPECS.items():
        a = actions if name == "actions" else arrays[name]
        setattr(b, name, _lib.ptr(a, ctype) if a is not None else None)
    return b


def _counts(arrays):
    return tuple(map(sys.getrefcount, arrays))


class _Set:
    """One set of the arrays a call writes (a copy=True VecEnv's result),
    as the library's urim_buffers, and the reference counts of its arrays
    while only the set holds them: free() says nobody else does (no
    variable, view, tensor or info dict of the caller's), so the next call
    may write into it."""

    __slots__ = ("arrays", "ref", "_struct", "_held", "_base")

    def __init__(self, arrays, actions):
        self.arrays = arrays
        self._struct = _buffers(arrays, actions)
        self.ref = ctypes.byref(self._struct)
        self._held = tuple(a for a in arrays.values() if a is not None)
        self._base = _counts(self._held)

    def free(self):
        return _counts(self._held) == self._base

    def set_actions(self, actions):
        self._struct.actions = _lib.ptr(actions, ctypes.c_int32)
