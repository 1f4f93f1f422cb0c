"""A PyTorch network laid out as urim's mlp, saved with urim.save_checkpoint,
gives the same outputs in Go to 1e-6 (the PPO example's path)."""

import os
import sys

import numpy as np
import pytest

import urim

torch = pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
from ppo_masked import Policy  # noqa: E402


def test_torch_policy_as_checkpoint(tmp_path):
    torch.manual_seed(1)
    model = Policy(17, 6, width=32, depth=2)
    path = str(tmp_path / "torch.ckpt")
    urim.save_checkpoint(path, model.weights(), model.arch())
    env = urim.VecEnv(64, opening_plies=8, seed=2)
    obs, _ = env.reset()
    logits, values = urim.Network(path).predict(obs)
    with torch.no_grad():
        tl, tv = model(torch.from_numpy(obs))
    np.testing.assert_allclose(logits, tl.numpy(), atol=1e-6, rtol=0)
    np.testing.assert_allclose(values, tv.numpy(), atol=1e-6, rtol=0)
    assert urim.Agent(f"neural:ckpt={path}").act(urim.Game()) in range(6)
