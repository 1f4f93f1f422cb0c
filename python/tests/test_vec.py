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
