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


SHIPPED = os.path.join(os.path.dirname(__file__), "..", "..", "models", "urim-az.ckpt")


def _torch_forward(weights, meta, obs):
    """urim's resmlp (docs/nn.md) written in PyTorch from the exported weights."""
    F = torch.nn.functional
    t = {k: torch.from_numpy(v) for k, v in weights.items()}
    eps = meta.get("norm_eps", 1e-5)

    def lin(x, p):
        return x @ t[p + ".w"] + t[p + ".b"]

    def norm_relu(x, p):
        return F.relu(F.layer_norm(x, (x.shape[-1],), t[p + ".g"], t[p + ".b"], eps))

    x = lin(torch.from_numpy(obs), "stem")
    for i in range(meta["arch"]["depth"]):
        a = lin(norm_relu(x, f"block.{i}.ln1"), f"block.{i}.fc1")
        x = x + lin(norm_relu(a, f"block.{i}.ln2"), f"block.{i}.fc2")
    x = norm_relu(x, "final.ln")
    return lin(x, "policy"), torch.tanh(lin(x, "value"))[:, 0]


def test_shipped_network_agrees_with_torch_to_4e6():
    """docs/python.md: the shipped checkpoint loads into PyTorch and agrees
    with the Go forward pass to 4e-6 (its wider sums round differently in
    float32, so not to the 1e-6 of the small networks)."""
    w, meta = urim.load_weights(SHIPPED)
    assert meta["arch"]["kind"] == "resmlp" and meta["arch"]["layer_norm"]
    obs, _ = urim.VecEnv(256, opening_plies=10, seed=3).reset()
    logits, values = urim.Network(SHIPPED).predict(obs)
    with torch.no_grad():
        tl, tv = _torch_forward(w, meta, obs)
    np.testing.assert_allclose(logits, tl.numpy(), atol=4e-6, rtol=0)
    np.testing.assert_allclose(values, tv.numpy(), atol=4e-6, rtol=0)


def test_minus_inf_masking_trap_and_the_examples_mask():
    """docs/python.md: torch's Categorical over logits masked with -inf is
    NaN on a row whose mask is all false (a finished game); the PPO
    example's large negative finite mask stays finite there."""
    from ppo_masked import masked_logits
    env = urim.VecEnv(4, autoreset="disabled", illegal="random")
    env.reset()
    for _ in range(400):  # play every game out: their masks become all zero
        _, _, term, trunc, info = env.step(env.random_actions())
        if (term | trunc).all():
            break
    mask = torch.from_numpy(info["action_mask"]).bool()
    assert not mask.any()
    logits = torch.zeros(4, 6)
    trap = torch.distributions.Categorical(logits=logits.masked_fill(~mask, float("-inf")), validate_args=False)
    assert torch.isnan(trap.probs).all()
    safe = torch.distributions.Categorical(logits=masked_logits(logits, mask))
    assert torch.isfinite(safe.probs).all() and torch.isfinite(safe.entropy()).all()
