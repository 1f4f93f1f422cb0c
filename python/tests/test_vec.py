"""urim.VecEnv: equal to the Go Vec for the same seed and actions, in every
autoreset mode, and Gymnasium's conventions."""

import subprocess

import numpy as np
import pytest

import urim
from urim.random import RandomActions


def _run_python(mode, n, steps, seed, opening, reset_every):
    env = urim.VecEnv(n, autoreset=mode, seed=seed, opening_plies=opening)
    draw = RandomActions(env.num_actions, seed=seed)
    obs, info = env.reset()
    rec = {k: [] for k in ("obs", "mask", "rewards2", "rewards", "terminated", "truncated", "to_move",
                           "final_obs", "has_final")}
    movers = []

    def record(obs, info, rewards=None, term=None, trunc=None):
        rec["obs"].append(obs)
        rec["mask"].append(info["action_mask"])
        rec["rewards2"].append(info["rewards"])
        rec["to_move"].append(info["current_player"])
        rec["terminated"].append(np.zeros(n, bool) if term is None else term)
        rec["truncated"].append(np.zeros(n, bool) if trunc is None else trunc)
        rec["rewards"].append(np.zeros(n, np.float32) if rewards is None else rewards)
        if mode == "same_step":
            rec["final_obs"].append(info["final_obs"])
            rec["has_final"].append(info["_final_obs"])

    record(obs, info)
    actions = []
    for t in range(steps):
        a = draw.draw(info["legal"])
        actions.append(a)
        movers.append(info["current_player"])
        obs, rewards, term, trunc, info = env.step(a)
        record(obs, info, rewards, term, trunc)
        if mode == "disabled" and (t + 1) % reset_every == 0:
            done = ~info["action_mask"].astype(bool).any(axis=1)
            obs, info = env.reset(options={"reset_mask": done})
    env.close()
    return {k: np.array(v) for k, v in rec.items() if v}, np.array(actions, np.int32), np.array(movers)


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_vec_equals_go(mode, govec, tmp_path):
    n, steps, seed, opening, every = 16, 300, 7, 3, 25
    py, actions, movers = _run_python(mode, n, steps, seed, opening, every)
    np.save(tmp_path / "a.npy", actions.reshape(-1))
    subprocess.run([govec, "-n", str(n), "-seed", str(seed), "-opening", str(opening), "-autoreset", mode,
                    "-reset-every", str(every), "-actions", str(tmp_path / "a.npy"), "-out", str(tmp_path / "go.npz")],
                   check=True)
    go = np.load(tmp_path / "go.npz")
    t = steps + 1
    np.testing.assert_array_equal(py["obs"], go["obs"].reshape(t, n, -1))
    np.testing.assert_array_equal(py["mask"], go["mask"].reshape(t, n, -1) == 1)
    np.testing.assert_array_equal(py["rewards2"], go["rewards"].reshape(t, n, 2))
    np.testing.assert_array_equal(py["terminated"], go["terminated"].reshape(t, n))
    np.testing.assert_array_equal(py["truncated"], go["truncated"].reshape(t, n))
    np.testing.assert_array_equal(py["to_move"], go["to_move"].reshape(t, n))
    # The reward of the player who moved.
    r2 = go["rewards"].reshape(t, n, 2)[1:]
    np.testing.assert_array_equal(py["rewards"][1:], np.take_along_axis(r2, movers[:, :, None].astype(int), 2)[:, :, 0])
    assert py["terminated"].any(), "no game ended: the test proves little"
    if mode == "same_step":
        has = go["has_final"].reshape(t, n)
        np.testing.assert_array_equal(py["has_final"], has)
        np.testing.assert_array_equal(py["final_obs"][has], go["final_obs"].reshape(t, n, -1)[has])


def test_next_step_semantics():
    env = urim.VecEnv(64, seed=1)
    draw = RandomActions(env.num_actions, 1)
    obs, info = env.reset()
    ended = np.zeros(64, bool)
    for _ in range(400):
        obs, r, term, trunc, info2 = env.step(draw.draw(info["legal"]))
        # A game that ended on the last step restarts now: reward 0, flags false, start position.
        assert not (term | trunc)[ended].any()
        assert (r[ended] == 0).all()
        assert info2["action_mask"][ended].all(axis=1).all()
        done = term | trunc
        assert (info2["action_mask"][done] == False).all()  # noqa: E712
        assert (r[~done] == 0).all()
        ended, info = done, info2
    assert env.metadata["autoreset_mode"] == urim.AutoresetMode.NEXT_STEP


def test_same_step_semantics():
    env = urim.VecEnv(32, autoreset="same_step", seed=2)
    draw = RandomActions(env.num_actions, 2)
    obs, info = env.reset()
    seen = False
    for _ in range(300):
        obs, r, term, trunc, info = env.step(draw.draw(info["legal"]))
        done = term | trunc
        np.testing.assert_array_equal(info["_final_obs"], done)
        # The new game is already there: every row has a legal move.
        assert info["action_mask"].any(axis=1).all()
        seen |= done.any()
        assert (r[~done] == 0).all()
    assert seen and env.metadata["autoreset_mode"] == urim.AutoresetMode.SAME_STEP


def test_disabled_semantics():
    env = urim.VecEnv(8, autoreset="disabled", seed=3)
    draw = RandomActions(env.num_actions, 3)
    obs, info = env.reset()
    for _ in range(500):
        obs, r, term, trunc, info = env.step(draw.draw(info["legal"]))
    done = term | trunc
    assert done.all(), "every game ends within 500 plies and stays ended"
    before = obs.copy()
    obs2, r, term, trunc, info = env.step(np.zeros(8, np.int32))
    np.testing.assert_array_equal(obs2, before)
    assert (r == 0).all() and not info["action_mask"].any()
    mask = np.zeros(8, bool)
    mask[[1, 5]] = True
    obs3, info = env.reset(options={"reset_mask": mask})
    assert info["action_mask"][mask].all() and not info["action_mask"][~mask].any()


def test_spaces_and_metadata():
    env = urim.VecEnv(4, encoding="thermometer")
    assert env.single_observation_space.shape == (env.obs_dim,) == (6 * 2 * 13 + 5,)
    assert env.single_action_space.n == 6
    obs, info = env.reset()
    assert obs.dtype == np.float32 and obs.shape == (4, env.obs_dim)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (4, 6)
    assert set(info) >= {"action_mask", "current_player", "rewards", "legal"}
    assert len(env.columns) == env.obs_dim
    assert env.observation_space.shape == (4, env.obs_dim) and env.action_space.shape == (4,)
    assert env.action_space.contains(np.zeros(4, np.int64)) and env.single_action_space.contains(5)


def test_reset_seed_reproducible():
    a = urim.VecEnv(16, opening_plies=6, seed=1)
    b = urim.VecEnv(16, opening_plies=6, seed=2)
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    np.testing.assert_array_equal(oa, ob)
    oc, _ = b.reset(seed=6)
    assert not np.array_equal(oa, oc)


def test_copy_false_aliases_and_torch_buffers():
    env = urim.VecEnv(4, copy=False)
    obs, info = env.reset()
    obs2, *_ = env.step(np.array(np.flatnonzero(info["action_mask"][0])[:1].tolist() * 4, np.int32))
    assert obs2 is obs
    mine = np.zeros((4, env.obs_dim), np.float32)
    env.set_buffers(obs=mine)
    np.testing.assert_array_equal(mine, obs)  # starts as a copy of the current observations
    o, *_ = env.step(np.zeros(4, np.int32) + 1)
    assert o is mine


def test_random_actions_drawn_in_go():
    env = urim.VecEnv(32, seed=2)
    _, info = env.reset(seed=7)
    a = env.random_actions()
    assert a is env.actions_buffer and a.dtype == np.int32 and a.shape == (32,)
    first = a.copy()
    ended = 0
    for _ in range(2000):
        legal = info["legal"]
        a = env.random_actions()
        assert np.all((legal.astype(np.int64) >> a) & 1 | (legal == 0))
        _, _, term, trunc, info = env.step(a)  # legal under illegal="error": no error
        ended += int(term.sum() + trunc.sum())
    assert ended > 0
    env.reset(seed=7)
    np.testing.assert_array_equal(env.random_actions(), first)
    env.close()
    with pytest.raises(urim.ClosedError):
        env.random_actions()


def _result_arrays(r):
    """The arrays of a reset's (obs, info) or a step's (obs, rewards,
    terminated, truncated, info), by name."""
    info = r[-1]
    out = {"obs": r[0], **{k: v for k, v in info.items() if isinstance(v, np.ndarray)}}
    if len(r) == 5:
        out.update(step_rewards=r[1], terminated=r[2], truncated=r[3])
    if "final_info" in info:
        out["final_info.rewards"] = info["final_info"]["rewards"]
    return out


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_copy_true_writes_fresh_sets_equal_to_copy_false(mode):
    """copy=True (the default) has the library write each call into a set
    nobody holds: every tensor equals copy=False's, step after step, resets
    included, and a result the caller keeps (an array, a view of one, the
    info dict) never changes afterwards."""
    n = 24
    kw = dict(autoreset=mode, seed=3, opening_plies=2, illegal="random")
    a, b = urim.VecEnv(n, **kw), urim.VecEnv(n, copy=False, **kw)

    def same(ra, rb):
        xa, xb = _result_arrays(ra), _result_arrays(rb)
        assert xa.keys() == xb.keys()
        for k in xa:
            np.testing.assert_array_equal(xa[k], xb[k], err_msg=k)
        assert xa["obs"] is not xb["obs"]

    same(a.reset(), b.reset())
    kept = []
    for t in range(400):
        act = ((np.arange(n) + t) % 6).astype(np.int32)  # illegal ones too: both replace them alike
        ra, rb = a.step(act), b.step(act)
        same(ra, rb)
        if t % 37 == 0:
            obs, info = ra[0], ra[4]
            kept.append((obs[2:5], info, obs[2:5].copy(), {k: v.copy() for k, v in _result_arrays(ra).items()}))
            del obs, info
        if mode == "disabled" and t % 25 == 24:
            done = ra[2] | ra[3]
            same(a.reset(options={"reset_mask": done}), b.reset(options={"reset_mask": done}))
        if t == 200:
            same(a.reset(seed=9), b.reset(seed=9))
        del ra, rb
    for view, info, view0, arrays0 in kept:
        np.testing.assert_array_equal(view, view0)
        for k, v in arrays0.items():
            if k in info:
                np.testing.assert_array_equal(info[k], v, err_msg=k)
    assert len(a._pool) <= 4


def test_copy_true_reuses_the_sets_nobody_holds():
    """A loop that keeps nothing gets its arrays from a few sets, written
    in turn; a set any array of which is held (a memoryview too) is
    skipped."""
    env = urim.VecEnv(64, seed=1)
    obs, info = env.reset()
    seen = set()
    for _ in range(200):
        obs, rewards, term, trunc, info = env.step(env.random_actions())
        seen.add(obs.ctypes.data)
    assert len(seen) <= 3
    held = memoryview(info["legal"])  # the caller keeps one array of the current set
    snap = np.array(held)
    for _ in range(50):
        obs, rewards, term, trunc, info = env.step(env.random_actions())
        assert info["legal"].ctypes.data != np.asarray(held).ctypes.data
    np.testing.assert_array_equal(np.asarray(held), snap)


def test_copy_true_with_buffers_of_the_callers():
    """set_buffers on a copy=True env: the library writes the caller's
    arrays from then on and each step returns copies of them, which later
    steps leave alone."""
    env = urim.VecEnv(8, seed=4)
    obs, info = env.reset()
    mine = np.zeros((8, env.obs_dim), np.float32)
    env.set_buffers(obs=mine)
    np.testing.assert_array_equal(mine, obs)
    o1, *_ = env.step(env.random_actions())
    assert o1 is not mine
    np.testing.assert_array_equal(o1, mine)
    keep = o1.copy()
    o2, *_ = env.step(env.random_actions())
    np.testing.assert_array_equal(o2, mine)
    np.testing.assert_array_equal(o1, keep)
    assert not np.array_equal(obs, o2) or not np.array_equal(o1, o2)

