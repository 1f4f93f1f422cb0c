"""Threads: an Agent may be shared (the library serialises the calls on one
object, ctypes releases the GIL); a VecEnv belongs to the first thread that
resets or steps it and refuses any other with a clear error, since its
results are buffers the next step rewrites (two threads stepping one env
got torn results)."""

import sys
import threading
import time

import numpy as np
import pytest

import urim
from urim.random import RandomActions


def _in_thread(f):
    out = []

    def run():
        try:
            out.append(f())
        except Exception as e:
            out.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    return out[0]


def test_vec_env_refuses_a_second_thread():
    env = urim.VecEnv(64, illegal="random")
    env.reset()
    env.step(np.zeros(64, np.int32))
    for call in (lambda: env.step(np.zeros(64, np.int32)), env.reset, lambda: env.set_buffers()):
        e = _in_thread(call)
        assert isinstance(e, RuntimeError) and "belongs to thread" in str(e) and "one VecEnv per thread" in str(e)
    env.step(np.zeros(64, np.int32))  # the owner goes on
    env.close()


def _actions(k, i, n):
    """Thread k's actions at step i: any pit (illegal="random" plays a legal one instead)."""
    return ((np.arange(n) + 3 * k + i) % 6).astype(np.int32)


def test_two_threads_step_one_env_one_owns_it_and_no_result_is_torn():
    """2 threads x 1000 steps on one env, started together: one thread owns
    it and every one of its results equals a replay of its actions on a
    single-threaded env; every call of the other is refused."""
    n, steps = 32, 1000
    env = urim.VecEnv(n, illegal="random", seed=7)
    go = threading.Barrier(2)
    got = {0: [], 1: []}

    def run(k):
        go.wait()
        for i in range(steps):
            try:
                obs, rew, term, trunc, info = env.step(_actions(k, i, n))
                got[k].append((obs, rew, term, trunc, info["action_mask"], info["rewards"], info["current_player"]))
            except RuntimeError as e:
                got[k].append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=run, args=(k,)) for k in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    owners = [k for k in (0, 1) if not any(isinstance(r, Exception) for r in got[k])]
    assert len(owners) == 1, [sum(isinstance(r, Exception) for r in got[k]) for k in (0, 1)]
    owner, other = owners[0], 1 - owners[0]
    assert all(isinstance(e, RuntimeError) and "one VecEnv per thread" in str(e) for e in got[other])
    replay = urim.VecEnv(n, illegal="random", seed=7)
    for i, mine in enumerate(got[owner]):
        obs, rew, term, trunc, info = replay.step(_actions(owner, i, n))
        want = (obs, rew, term, trunc, info["action_mask"], info["rewards"], info["current_player"])
        for a, b in zip(mine, want):
            np.testing.assert_array_equal(a, b, err_msg=f"step {i}")
    env.close()
    replay.close()


class _SlowClaim(urim.VecEnv):
    """A VecEnv whose owner is slow to read while unclaimed: each thread that
    finds it unclaimed lets the other run, so a claim that is not atomic
    would let both threads in."""

    @property
    def _owner(self):
        v = self.__dict__.get("_owner_")
        if v is None:
            time.sleep(0.002)  # the other thread runs, and may claim it meanwhile
        return v

    @_owner.setter
    def _owner(self, v):
        self.__dict__["_owner_"] = v


def test_first_calls_at_once_exactly_one_thread_wins():
    """Two threads' first calls on a fresh env, released together: the
    claim is atomic, so exactly one of them is refused."""
    for _ in range(20):
        env = _SlowClaim(2)
        go = threading.Barrier(2)
        out = []

        def run():
            go.wait()
            try:
                env.reset()
                out.append("ok")
            except RuntimeError as e:
                out.append(str(e))

        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert out.count("ok") == 1 and "one VecEnv per thread" in "".join(out), out
        env.close()


def test_vec_env_made_in_one_thread_used_in_another():
    env = urim.VecEnv(8)
    obs = _in_thread(lambda: env.reset()[0])
    assert isinstance(obs, np.ndarray) and obs.shape == (8, env.obs_dim)
    env.close()


def test_threads_each_with_their_env_and_a_shared_agent():
    agent = urim.Agent("mcts:sims=20")
    errors = []

    def work(seed):
        try:
            env = urim.VecEnv(256, illegal="loss")
            env.reset()
            draw = RandomActions(env.num_actions, seed)
            for _ in range(200):
                env.step(draw.draw(np.zeros(256, np.uint8) + 0x3F))
            env.close()
            g = urim.Game()
            for _ in range(10):
                if g.is_over():
                    break
                g.play(agent.act(g))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_close_from_another_thread():
    env = urim.VecEnv(4)
    env.reset()
    assert _in_thread(env.close) is None
    with pytest.raises(urim.ClosedError):
        env.step(np.zeros(4, np.int32))
