"""Threads: an Agent may be shared (the library serialises the calls on one
object, ctypes releases the GIL); a VecEnv belongs to the first thread that
resets or steps it and refuses any other with a clear error, since its
results are buffers the next step rewrites (two threads stepping one env
got torn results)."""

import threading

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
