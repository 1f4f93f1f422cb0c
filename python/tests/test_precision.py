"""int8 inference from Python: Network.predict(obs, precision="int8") and
the precision=int8 agent specs (docs/nn.md)."""

import os

import numpy as np
import pytest

import urim

SHIPPED = os.path.join(os.path.dirname(__file__), "..", "..", "models", "urim-az.ckpt")


def test_int8_predict_close_to_fp32():
    net = urim.Network(SHIPPED)
    obs, _ = urim.VecEnv(256, opening_plies=10, seed=3).reset()
    l32, v32 = net.predict(obs)
    l8, v8 = net.predict(obs, precision="int8")
    assert not np.array_equal(l8, l32)  # the int8 path ran
    np.testing.assert_allclose(v8, v32, atol=0.4, rtol=0)
    assert np.abs(v8 - v32).mean() < 0.02
    l32b, _ = net.predict(obs, precision="fp32")
    np.testing.assert_array_equal(l32b, l32)  # and back to float32


def test_bad_precision_refused():
    net = urim.Network(SHIPPED)
    obs = np.zeros((1, net.input_dim), np.float32)
    with pytest.raises(ValueError, match="precision"):
        net.predict(obs, precision="fp16")


def test_int8_agent_plays():
    agent = urim.Agent(f"az:ckpt={SHIPPED},sims=16,precision=int8")
    game = urim.Game()
    action = agent.act(game)
    assert 0 <= action < 6
