"""Networks: weights exported by Go, imported back (urim nn import --npz and
urim.save_checkpoint), give the same outputs to 1e-6; modified weights too."""

import subprocess

import numpy as np
import pytest

import urim


@pytest.fixture(params=[("mlp", False), ("resmlp", True)])
def ckpt(request, urim_bin, tmp_path):
    kind, ln = request.param
    path = tmp_path / "net.ckpt"
    cmd = [urim_bin, "nn", "new", "--arch", kind, "--width", "32", "--depth", "2", "--seed", "4", "--out", str(path)]
    if ln:
        cmd.append("--layernorm")
    subprocess.run(cmd, check=True, capture_output=True)
    return path


def _obs(n=64, seed=0):
    env = urim.VecEnv(n, opening_plies=10, seed=seed)
    obs, _ = env.reset()
    return obs


def test_import_of_export_same_outputs(ckpt, urim_bin, tmp_path):
    npz, back = tmp_path / "net.npz", tmp_path / "back.ckpt"
    subprocess.run([urim_bin, "nn", "export", str(ckpt), "--npz", str(npz)], check=True, capture_output=True)
    subprocess.run([urim_bin, "nn", "import", "--npz", str(npz), "--out", str(back)], check=True, capture_output=True)
    x = _obs()
    l1, v1 = urim.Network(str(ckpt)).predict(x)
    l2, v2 = urim.Network(str(back)).predict(x)
    np.testing.assert_allclose(l2, l1, atol=1e-6, rtol=0)
    np.testing.assert_allclose(v2, v1, atol=1e-6, rtol=0)


def test_save_checkpoint_of_changed_weights(ckpt, tmp_path):
    w, meta = urim.load_weights(str(ckpt))
    rng = np.random.default_rng(1)
    w2 = {k: (v + rng.normal(0, 0.05, v.shape)).astype(np.float32) for k, v in w.items()}
    out = tmp_path / "changed.ckpt"
    urim.save_checkpoint(str(out), w2, meta["arch"], rules=meta["rules"], encoding=meta["encoding"], step=9)
    x = _obs()
    logits, values = urim.Network(str(out)).predict(x)
    nl, nv = urim.forward(w2, meta, x)
    np.testing.assert_allclose(logits, nl, atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(values, nv, atol=1e-6, rtol=1e-5)
    # The checkpoint plays as neural: and az: in every command.
    g = urim.Game()
    for spec in (f"neural:ckpt={out}", f"az:ckpt={out},sims=16"):
        assert urim.Agent(spec).act(g) in g.legal_actions()


def test_save_checkpoint_refuses_bad_weights(ckpt, tmp_path):
    w, meta = urim.load_weights(str(ckpt))
    out = str(tmp_path / "bad.ckpt")
    missing = dict(w)
    missing.pop("policy.b")
    with pytest.raises(urim.CheckpointError, match="policy.b"):
        urim.save_checkpoint(out, missing, meta["arch"], rules=meta["rules"])
    shaped = dict(w)
    shaped["policy.w"] = shaped["policy.w"].T
    with pytest.raises(urim.CheckpointError, match="shape"):
        urim.save_checkpoint(out, shaped, meta["arch"], rules=meta["rules"])
    extra = dict(w, **{"extra.w": np.zeros(3, np.float32)})
    with pytest.raises(urim.CheckpointError, match="extra"):
        urim.save_checkpoint(out, extra, meta["arch"], rules=meta["rules"])
    nan = dict(w)
    nan["value.b"] = np.array([np.nan], np.float32)
    with pytest.raises(urim.CheckpointError, match="NaN"):
        urim.save_checkpoint(out, nan, meta["arch"], rules=meta["rules"])
