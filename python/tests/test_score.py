"""Networks with the score head (training.score_weight, docs/nn.md): they
load into NumPy and into urim.Network; predict gives the policy and values
of the same network without the head, urim.forward(..., score=True) the
scores as well; save_checkpoint writes them back."""

import subprocess

import numpy as np
import pytest

import urim


@pytest.fixture(params=[("mlp", False), ("resmlp", True)])
def ckpt(request, urim_bin, tmp_path):
    kind, ln = request.param
    path = tmp_path / "score.ckpt"
    cmd = [urim_bin, "nn", "new", "--arch", kind, "--width", "32", "--depth", "2", "--seed", "4", "--score", "--out", str(path)]
    if ln:
        cmd.append("--layernorm")
    subprocess.run(cmd, check=True, capture_output=True)
    return path


def _obs(n=64, seed=0):
    obs, _ = urim.VecEnv(n, opening_plies=10, seed=seed).reset()
    return obs


def test_load_score_network(ckpt):
    w, meta = urim.load_weights(str(ckpt))
    assert meta["arch"]["score"] is True
    assert w["score.w"].shape == (32, 1) and w["score.b"].shape == (1,)
    assert meta["params"][-2:] == ["score.w", "score.b"]
    net = urim.Network(str(ckpt))
    assert net.has_score and net.arch["score"] is True
    x = _obs()
    logits, values = net.predict(x)
    nl, nv, ns = urim.forward(w, meta, x, score=True)
    np.testing.assert_allclose(logits, nl, atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(values, nv, atol=1e-6, rtol=1e-5)
    assert ns.shape == (x.shape[0],) and np.all(np.abs(ns) <= 1) and ns.std() > 0
    # The head is apart from the rest: dropped, the network without it
    # gives the same policy and values (in NumPy and in Go), int8 too.
    plain = {k: v for k, v in w.items() if not k.startswith("score.")}
    pmeta = dict(meta, arch=dict(meta["arch"], score=False))
    pl, pv = urim.forward(plain, pmeta, x)
    np.testing.assert_array_equal(pl, nl)
    np.testing.assert_array_equal(pv, nv)
    with pytest.raises(ValueError, match="no score head"):
        urim.forward(plain, pmeta, x, score=True)


def test_score_head_off_is_the_plain_network(ckpt, tmp_path):
    w, meta = urim.load_weights(str(ckpt))
    plain = {k: v for k, v in w.items() if not k.startswith("score.")}
    arch = dict(meta["arch"], score=False)
    out = tmp_path / "plain.ckpt"
    urim.save_checkpoint(str(out), plain, arch, rules=meta["rules"], encoding=meta["encoding"])
    x = _obs(seed=3)
    net, pnet = urim.Network(str(ckpt)), urim.Network(str(out))
    assert not pnet.has_score
    for precision in ("fp32", "int8"):
        l1, v1 = net.predict(x, precision=precision)
        l2, v2 = pnet.predict(x, precision=precision)
        np.testing.assert_array_equal(l1, l2)
        np.testing.assert_array_equal(v1, v2)


def test_save_score_checkpoint(ckpt, tmp_path):
    w, meta = urim.load_weights(str(ckpt))
    rng = np.random.default_rng(2)
    w2 = {k: (v + rng.normal(0, 0.05, v.shape)).astype(np.float32) for k, v in w.items()}
    out = tmp_path / "changed.ckpt"
    urim.save_checkpoint(str(out), w2, meta["arch"], rules=meta["rules"], encoding=meta["encoding"], step=5)
    back, bmeta = urim.load_weights(str(out))
    assert bmeta["arch"]["score"] is True and bmeta["step"] == 5
    for k in w2:
        np.testing.assert_array_equal(back[k], w2[k])
    x = _obs(seed=1)
    logits, values = urim.Network(str(out)).predict(x)
    nl, nv, _ = urim.forward(w2, meta, x, score=True)
    np.testing.assert_allclose(logits, nl, atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(values, nv, atol=1e-6, rtol=1e-5)
    missing = {k: v for k, v in w2.items() if k != "score.w"}
    with pytest.raises(urim.CheckpointError, match="score.w"):
        urim.save_checkpoint(str(tmp_path / "bad.ckpt"), missing, meta["arch"], rules=meta["rules"])
