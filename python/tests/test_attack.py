"""Issue 34's Python causes, each reproduced: a callable's move is never cut
to 32 bits (N8), a network refuses NaN/Inf rows (N9), and an agent handed
its own handle as the game fails instead of deadlocking (N10)."""

import ctypes
import threading

import numpy as np
import pytest

import urim
from urim import _lib


def test_callable_move_beyond_32_bits_is_refused():
    # 2**32 + a legal move used to reach Go as that legal move.
    def big(g):
        return 2 ** 32 + g.legal_actions()[0]

    with pytest.raises(urim.IllegalActionError, match=r"4294967296: illegal, out of range 0\.\.5"):
        urim.match(big, "random", games=2)


def test_callable_negative_move_is_refused():
    with pytest.raises(urim.IllegalActionError, match="out of range"):
        urim.match(lambda g: -1, "random", games=2)


def test_predict_refuses_nan_and_inf(urim_bin, tmp_path):
    import subprocess
    path = tmp_path / "net.ckpt"
    subprocess.run([urim_bin, "nn", "new", "--width", "16", "--depth", "1", "--out", str(path)],
                   check=True, capture_output=True)
    net = urim.Network(str(path))
    x = np.zeros((3, net.input_dim), np.float32)
    net.predict(x)  # finite rows are fine
    for bad in (np.nan, np.inf, -np.inf):
        y = x.copy()
        y[2, 1] = bad
        with pytest.raises(urim.ArgumentError, match=r"row 2.*not finite"):
            net.predict(y)


def test_agent_act_on_its_own_handle_fails():
    a = urim.Agent("random")
    out = ctypes.c_int32()
    result = []

    def act():
        try:
            _lib.call("urim_agent_act", a._h, a._h, ctypes.byref(out))
        except urim.UrimError as e:
            result.append(e)

    t = threading.Thread(target=act, daemon=True)
    t.start()
    t.join(20)
    assert not t.is_alive(), "urim_agent_act deadlocked on the agent's own handle"
    assert result and "not a Game" in str(result[0])
