"""Python threads may share a VecEnv or an Agent: the library serialises the
calls on one object (ctypes releases the GIL), and nothing crashes."""

import threading

import numpy as np

import urim
from urim.random import RandomActions


def test_threads_share_objects():
    env = urim.VecEnv(256, illegal="loss")
    env.reset()
    agent = urim.Agent("mcts:sims=20")
    errors = []

    def work(seed):
        try:
            draw = RandomActions(env.num_actions, seed)
            for _ in range(200):
                env.step(draw.draw(np.zeros(256, np.uint8) + 0x3F))
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
    env.close()
