"""Networks: checkpoints from NumPy weights (the inverse of
`urim nn export --npz`), their weights as NumPy arrays, and their forward
pass in Go and in NumPy."""

import ctypes
import json
import os
import tempfile

import numpy as np

from . import _lib
from ._errors import ClosedError


def save_checkpoint(path, weights, arch, rules="urim", encoding="compact", step=0):
    """Writes a checkpoint at path from weights, a dict of arrays named and
    shaped as docs/nn.md lists them ("hidden.0.w" [in, out], ...; torch's
    Linear.weight is [out, in], so transpose it), for the network
    ``arch`` (a dict: kind "mlp" or "resmlp", width, depth, layer_norm, and
    score: True for a network with the score head, whose "score.w" [width,
    1] and "score.b" [1] weights must then be given),
    ``rules`` (a preset name, or the rules dict of an exported meta) and
    ``encoding``. It plays as neural:ckpt=PATH and az:ckpt=PATH. Missing,
    extra or misshapen tensors raise urim.CheckpointError."""
    if isinstance(rules, str):
        from .game import Game
        rules = Game(rules).rules_full
    meta = {"format": "urim-nn", "arch": dict(arch), "encoding": encoding, "rules": rules, "step": int(step)}
    arrays = {}
    for name, w in weights.items():
        if hasattr(w, "detach"):  # a torch tensor
            w = w.detach().cpu().numpy()
        arrays[name] = np.ascontiguousarray(np.asarray(w, dtype=np.float32))
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    fd, tmp = tempfile.mkstemp(suffix=".npz", dir=os.path.dirname(os.path.abspath(path)) or None)
    os.close(fd)
    try:
        np.savez(tmp, **arrays)
        import_npz(tmp, path)
    finally:
        os.unlink(tmp)


def import_npz(npz, ckpt):
    """`urim nn import --npz NPZ --out CKPT`."""
    _lib.call("urim_nn_import", _lib.enc(npz), _lib.enc(ckpt))


def export_npz(ckpt, npz):
    """`urim nn export CKPT --npz NPZ`."""
    _lib.call("urim_nn_export", _lib.enc(ckpt), _lib.enc(npz))


def load_weights(ckpt):
    """The checkpoint's weights as a dict of float32 arrays, and its meta
    (arch, encoding, rules, step, params)."""
    fd, tmp = tempfile.mkstemp(suffix=".npz")
    os.close(fd)
    try:
        export_npz(ckpt, tmp)
        with np.load(tmp) as z:
            meta = json.loads(z["meta"].tobytes())
            return {k: z[k] for k in z.files if k != "meta"}, meta
    finally:
        os.unlink(tmp)


def forward(weights, meta, x, score=False):
    """The network's forward pass in NumPy (docs/nn.md): x (batch,
    input_dim) float32 -> logits (batch, actions), values (batch,). With
    score=True, a network with the score head (meta["arch"]["score"]) also
    returns its scores (batch,): the predicted final seed margin for the
    player to move over the rules' seeds, in [-1, 1]."""
    arch, eps = meta["arch"], meta.get("norm_eps", 1e-5)
    if score and not arch.get("score"):
        raise ValueError("urim.forward: score=True, but the network has no score head")
    z = weights

    def lin(x, p):
        return x @ z[p + ".w"] + z[p + ".b"]

    def norm_relu(x, p):
        if arch.get("layer_norm"):
            m, v = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
            x = (x - m) / np.sqrt(v + eps) * z[p + ".g"] + z[p + ".b"]
        return np.maximum(x, 0)

    x = np.asarray(x, np.float32)
    if arch["kind"] == "mlp":
        for i in range(arch["depth"]):
            x = norm_relu(lin(x, f"hidden.{i}"), f"hidden.{i}.ln")
    else:
        x = lin(x, "stem")
        for i in range(arch["depth"]):
            a = lin(norm_relu(x, f"block.{i}.ln1"), f"block.{i}.fc1")
            x = x + lin(norm_relu(a, f"block.{i}.ln2"), f"block.{i}.fc2")
        x = norm_relu(x, "final.ln")
    if score:
        return lin(x, "policy"), np.tanh(lin(x, "value"))[:, 0], np.tanh(lin(x, "score"))[:, 0]
    return lin(x, "policy"), np.tanh(lin(x, "value"))[:, 0]


class Network:
    """A checkpoint's network, run by the Go code: predict(obs) returns
    (logits, values) as the neural agents see them; predict(obs,
    precision="int8") runs the hidden layers in int8 (docs/nn.md). A network
    with the score head (has_score) loads too; predict ignores the head, as
    the searches do: its scores are urim.forward(..., score=True)'s."""

    def __init__(self, ckpt):
        self._h = _lib.u()
        _lib.call("urim_net_load", _lib.enc(ckpt), ctypes.byref(self._h))
        self._closed = False
        info = _lib.blob_json("urim_net_info", self._h)
        self.arch, self.rules, self.encoding = info["arch"], info["rules"], info["encoding"]
        self.input_dim, self.num_actions = info["input_dim"], info["actions"]
        self.has_score = bool(self.arch.get("score", False))
        self._precision = "fp32"

    def predict(self, obs, precision="fp32"):
        if self._closed:
            raise ClosedError("urim.Network is closed")
        if precision not in ("fp32", "int8"):
            raise ValueError(f"urim.Network.predict: precision {precision!r}, want 'fp32' or 'int8'")
        if precision != self._precision:
            _lib.call("urim_net_set_precision", self._h, _lib.enc(precision))
            self._precision = precision
        obs = np.asarray(obs)
        if obs.dtype != np.float32:
            raise TypeError(f"urim.Network.predict: obs has dtype {obs.dtype}, want float32")
        if obs.ndim != 2 or obs.shape[1] != self.input_dim:
            raise ValueError(f"urim.Network.predict: obs has shape {obs.shape}, want (batch, {self.input_dim})")
        obs = np.ascontiguousarray(obs)
        n = obs.shape[0]
        logits = np.zeros((n, self.num_actions), np.float32)
        values = np.zeros(n, np.float32)
        _lib.call("urim_net_predict", self._h, _lib.ptr(obs, ctypes.c_float), n,
                  _lib.ptr(logits, ctypes.c_float), _lib.ptr(values, ctypes.c_float))
        return logits, values

    def close(self):
        if not self._closed:
            self._closed = True
            _lib.lib.urim_free(self._h)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
