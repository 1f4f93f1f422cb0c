"""Bad input raises a Python exception with a clear message; the
interpreter never crashes."""

import ctypes

import numpy as np
import pytest

import urim
from urim import _lib


@pytest.fixture
def env():
    e = urim.VecEnv(4)
    e.reset()
    yield e
    e.close()


def test_actions_wrong_dtype(env):
    with pytest.raises(TypeError, match="dtype float64"):
        env.step(np.zeros(4))
    with pytest.raises(TypeError, match="integers"):
        env.step(["a", "b", "c", "d"])


def test_actions_wrong_shape(env):
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        env.step(np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((4, 1), np.int32))
    with pytest.raises(ValueError, match="shape"):
        env.step(5)


def test_actions_non_contiguous_are_copied(env):
    a = np.zeros(8, np.int64)[::2]  # a strided view: copied into the env's buffer
    assert not a.flags.c_contiguous
    env.step(a)


def test_out_of_range_and_illegal_actions(env):
    with pytest.raises(urim.IllegalActionError, match="game 2: action 6 is out of range"):
        env.step(np.array([0, 0, 6, 0]))
    with pytest.raises(urim.IllegalActionError, match="game 1"):
        env.step(np.array([0, -1, 0, 0], np.int32))
    with pytest.raises(urim.IllegalActionError, match="out of range"):
        env.step(np.array([0, 2**40, 0, 0]))
    env.step(np.array([0, 0, 0, 0], np.int32))  # the refused steps moved nothing: 0 is legal for South
    env.step(np.array([0, 0, 0, 0], np.int32))  # and for North
    with pytest.raises(urim.IllegalActionError, match="game 0: illegal action 0, its pit is empty"):
        env.step(np.array([0, 1, 1, 1], np.int32))  # South's pit 0 was sown
    g = urim.Game()
    g.play(0)
    g.play(0)
    with pytest.raises(urim.IllegalActionError, match="empty"):
        g.play(0)
    with pytest.raises(urim.IllegalActionError, match="out of range"):
        g.play(7)
    with pytest.raises(TypeError, match="integer"):
        g.play(1.0)
    with pytest.raises(TypeError, match="integer"):
        g.play(True)


def test_illegal_loss_policy():
    e = urim.VecEnv(2, illegal="loss")
    e.reset()
    e.step(np.array([0, 0], np.int32))
    e.step(np.array([0, 0], np.int32))
    obs, r, term, trunc, info = e.step(np.array([0, 1], np.int32))  # game 0 plays an empty pit
    assert term[0] and r[0] == -1 and not term[1]


def test_buffers_checked(env):
    n, d = env.num_envs, env.obs_dim
    with pytest.raises(TypeError, match="dtype float64"):
        env.set_buffers(obs=np.zeros((n, d)))
    with pytest.raises(ValueError, match="shape"):
        env.set_buffers(obs=np.zeros((n, d + 1), np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        env.set_buffers(obs=np.zeros((n, 2 * d), np.float32)[:, ::2])
    with pytest.raises(ValueError, match="C-contiguous"):
        env.set_buffers(obs=np.asfortranarray(np.zeros((n, d), np.float32)))
    ro = np.zeros((n, d), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        env.set_buffers(obs=ro)
    with pytest.raises(TypeError, match="numpy array"):
        env.set_buffers(mask=[[True] * 6] * n)
    with pytest.raises(TypeError, match="unknown buffer"):
        env.set_buffers(observations=np.zeros((n, d), np.float32))
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.zeros(n, np.int32)})
    env.step(np.zeros(n, np.int32))  # still works


def test_constructor_arguments():
    with pytest.raises(ValueError, match="num_envs"):
        urim.VecEnv(0)
    with pytest.raises(ValueError, match="num_envs"):
        urim.VecEnv(2.5)
    with pytest.raises(ValueError, match="autoreset"):
        urim.VecEnv(2, autoreset="sometimes")
    with pytest.raises(urim.ArgumentError, match="encoding"):
        urim.VecEnv(2, encoding="onehot")
    with pytest.raises(urim.UrimError, match="rules"):
        urim.VecEnv(2, rules="urim9")
    with pytest.raises(urim.FileError):
        urim.VecEnv(2, rules="/nonexistent/rules.yaml")
    with pytest.raises(urim.ArgumentError, match="games"):
        urim.VecEnv(10**9)  # more memory than a batch may take
    with pytest.raises(ValueError, match="NUL"):
        urim.Game(rules="urim\0x")


def test_closed_objects(env):
    env.close()
    env.close()  # twice is fine
    for call in (lambda: env.step(np.zeros(4, np.int32)), lambda: env.reset(), lambda: env.set_buffers()):
        with pytest.raises(urim.ClosedError, match="closed"):
            call()
    g = urim.Game()
    g.close()
    with pytest.raises(urim.ClosedError):
        g.legal_actions()
    a = urim.Agent("random")
    a.close()
    with pytest.raises(urim.ClosedError):
        a.act(urim.Game())
    with pytest.raises(urim.ClosedError):
        urim.Agent("random").act(g)


def test_stale_and_wrong_handles():
    """The library itself refuses freed, unknown and mistyped handles."""
    g = urim.Game()
    e = urim.VecEnv(2)
    st = np.zeros(5, np.int32)
    rw = np.zeros(2, np.float32)
    for h in (0, 12345, e._h.value):
        with pytest.raises(urim.ClosedError):
            _lib.call("urim_game_status", _lib.u(h), _lib.ptr(st, ctypes.c_int32), _lib.ptr(rw, ctypes.c_float))
    with pytest.raises(urim.ArgumentError, match="NULL"):
        _lib.call("urim_game_status", g._h, None, None)
    h = _lib.u()
    _lib.call("urim_game_clone", g._h, ctypes.byref(h))
    _lib.lib.urim_free(h)
    _lib.lib.urim_free(h)  # freeing twice does nothing
    with pytest.raises(urim.ClosedError):
        _lib.call("urim_game_step", h, 0)
    with pytest.raises(urim.ArgumentError, match="config"):
        _lib.call("urim_vec_new", b"{not json", ctypes.byref(_lib.u()))
    # The _into calls take their sets with the call: missing or NULL ones are refused.
    env = urim.VecEnv(4)
    env.reset()
    s = env._cur
    for out, prev in ((None, None), (s.ref, None), (None, s.ref)):
        with pytest.raises(urim.ArgumentError, match="no buffers"):
            _lib.call("urim_vec_step_into", env._h, out, prev)
        with pytest.raises(urim.ArgumentError, match="no buffers"):
            _lib.call("urim_vec_reset_into", env._h, out, prev, 0, 0)
    holey = _lib.Buffers()
    ctypes.memmove(ctypes.byref(holey), s.ref, ctypes.sizeof(holey))
    holey.legal = None
    with pytest.raises(urim.ArgumentError, match="NULL buffer"):
        _lib.call("urim_vec_step_into", env._h, ctypes.byref(holey), s.ref)
    with pytest.raises(urim.ArgumentError, match="no mask"):
        _lib.call("urim_vec_reset_mask_into", env._h, s.ref, s.ref, None)
    env.step(env.random_actions())  # nothing moved: still works


def test_unknown_and_bad_specs():
    with pytest.raises(urim.SpecError, match="unknown agent \"nosuch\""):
        urim.Agent("nosuch")
    with pytest.raises(urim.SpecError, match="sims"):
        urim.Agent("mcts:sims=-4")
    with pytest.raises(urim.SpecError, match="unknown parameter"):
        urim.Agent("mcts:depth=4")
    with pytest.raises(urim.SpecError):
        urim.match("random", "nosuch", games=2)
    with pytest.raises(TypeError):
        urim.Agent(42)


def test_corrupt_checkpoint(tmp_path):
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"URIMNNCK" + b"\0" * 100)
    with pytest.raises(urim.CheckpointError):
        urim.Network(str(bad))
    with pytest.raises(urim.UrimError, match="checkpoint"):
        urim.Agent(f"neural:ckpt={bad}")
    junk = tmp_path / "junk.ckpt"
    junk.write_bytes(b"hello")
    with pytest.raises(urim.UrimError, match="checkpoint"):
        urim.Agent(f"az:ckpt={junk}")
    with pytest.raises(urim.FileError):
        urim.Network(str(tmp_path / "missing.ckpt"))
    npz = tmp_path / "bad.npz"
    npz.write_bytes(b"PK\3\4 not really a zip")
    with pytest.raises(urim.CheckpointError, match="corrupt"):
        urim.import_npz(str(npz), str(tmp_path / "out.ckpt"))


def test_act_on_finished_game():
    g = urim.Game()
    a = urim.Agent("greedy")
    while not g.is_over():
        g.play(a.act(g))
    with pytest.raises(urim.UrimError, match="over"):
        a.act(g)
    with pytest.raises(urim.IllegalActionError, match="over"):
        g.play(0)
    with pytest.raises(TypeError):
        a.act(3)


def test_network_inputs(tmp_path, urim_bin):
    import subprocess
    ck = tmp_path / "n.ckpt"
    subprocess.run([urim_bin, "nn", "new", "--width", "8", "--depth", "1", "--out", str(ck)], check=True, capture_output=True)
    net = urim.Network(str(ck))
    with pytest.raises(TypeError, match="float32"):
        net.predict(np.zeros((2, 17)))
    with pytest.raises(ValueError, match="shape"):
        net.predict(np.zeros((2, 16), np.float32))
    logits, values = net.predict(np.zeros((4, 34), np.float32)[:, ::2])  # strided: copied
    assert logits.shape == (4, 6)
    assert net.predict(np.zeros((0, 17), np.float32))[0].shape == (0, 6)
