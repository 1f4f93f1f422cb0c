"""Gymnasium's and PettingZoo's contracts, checked point by point without
those packages (they stay optional), and with their own checkers when they
are importable (the subclass tests skip cleanly otherwise)."""

import ctypes
import os

import numpy as np
import pytest

import urim
import urim.gym
import urim.pettingzoo
from urim import _lib


def _run(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        out.append(env.step(rng.integers(0, env.num_actions, env.num_envs)))
    return out


# The vector env.

def test_vec_env_attributes():
    env = urim.VecEnv(8, seed=1)
    assert isinstance(env.metadata["autoreset_mode"], urim.AutoresetMode)
    assert [m.value for m in urim.AutoresetMode] == ["NextStep", "SameStep", "Disabled"]
    assert env.render_mode is None and env.render() is None and env.spec is None and env.unwrapped is env
    assert isinstance(env.np_random, np.random.Generator)
    env.reset(seed=5)
    assert env.np_random_seed == 5
    a = env.np_random.integers(1 << 30)
    env.reset(seed=5)
    assert env.np_random.integers(1 << 30) == a
    assert not env.closed
    env.close_extras()
    env.close()
    assert env.closed
    e2 = urim.VecEnv(2, autoreset=urim.AutoresetMode.SAME_STEP)
    assert e2.metadata["autoreset_mode"] is urim.AutoresetMode.SAME_STEP
    with pytest.raises(ValueError, match="render_mode"):
        urim.VecEnv(2, render_mode="human")


def test_vec_info_masks_and_int8():
    env = urim.VecEnv(6, illegal="random")
    _, info = env.reset()
    for k in ("action_mask", "current_player", "rewards", "legal"):
        assert info["_" + k].dtype == np.bool_ and info["_" + k].all() and info["_" + k].shape == (6,)
    assert info["action_mask"].dtype == np.int8
    env.single_action_space.sample(mask=info["action_mask"][0])  # the dtype Discrete.sample(mask=) takes
    b = urim.VecEnv(3, mask_dtype="bool")
    assert b.reset()[1]["action_mask"].dtype == np.bool_
    with pytest.raises(ValueError, match="mask_dtype"):
        urim.VecEnv(3, mask_dtype="uint8")
    mine = np.zeros((3, 6), np.int8)
    b.set_buffers(mask=mine)  # either one-byte dtype is accepted
    assert mine.all()


def test_same_step_final_info():
    env = urim.VecEnv(16, autoreset="same_step", illegal="random", seed=3)
    env.reset()
    seen = 0
    for obs, r, term, trunc, info in _run(env, 400):
        done = term | trunc
        np.testing.assert_array_equal(info["_final_info"], done)
        np.testing.assert_array_equal(info["final_info"]["_rewards"], done)
        if done.any():
            fr = info["final_info"]["rewards"][done]  # the two players' results of the ended games
            assert (fr.sum(axis=1) == 0).all() and (np.abs(fr) <= 1).all()
            assert set(np.abs(r[done]).tolist()) <= set(np.abs(fr).ravel().tolist())
            seen += int(done.sum())
    assert seen > 0


def test_illegal_random_plays_unmasked_actions():
    env = urim.VecEnv(32, illegal="random", seed=2)
    env.reset()
    ended = sum(int((t | tr).sum()) for _, _, t, tr, _ in _run(env, 600))
    assert ended > 32 and env.metadata["illegal"] == "random"
    strict = urim.VecEnv(4)
    strict.reset()
    with pytest.raises(urim.IllegalActionError):
        for _ in range(50):
            strict.step(np.full(4, 5, np.int32))


def test_seeds_beyond_64_bits_refused():
    with pytest.raises(ValueError, match=r"0\.\.2\*\*64-1"):
        urim.VecEnv(2, seed=2 ** 64)
    env = urim.VecEnv(2)
    env.reset(seed=2 ** 64 - 1)
    with pytest.raises(ValueError, match=r"0\.\.2\*\*64-1"):
        env.reset(seed=2 ** 64 + 3)
    with pytest.raises(ValueError, match=r"0\.\.2\*\*64-1"):
        urim.Agent("random", seed=2 ** 64)
    with pytest.raises(ValueError, match=r"0\.\.2\*\*64-1"):
        urim.gym.UrimEnv().reset(seed=-1)
    for bad in (-1, 2 ** 64, 2 ** 70, np.int64(-5), 1.0, True, "3"):
        for call in (lambda: env.reset(seed=bad), lambda: urim.VecEnv(2, seed=bad), lambda: urim.Agent("random", seed=bad),
                     lambda: urim.Game().reset(seed=bad), lambda: urim.match("greedy", "random", games=2, seed=bad)):
            with pytest.raises(ValueError, match=r"seed must be an integer in 0\.\.2\*\*64-1"):
                call()
    top = np.uint64(2 ** 64 - 1)  # the largest seed, as Python or NumPy integer, is taken
    env.reset(seed=top)
    urim.Agent("random", seed=top)
    urim.Game().reset(seed=2 ** 64 - 1)
    assert urim.match("greedy", "random", games=2, seed=top)["games"] == 2


def test_random_gym_and_pettingzoo_are_attributes():
    """After a bare `import urim`, in a fresh interpreter (in this one another
    test may have imported the submodules already)."""
    import subprocess
    import sys
    code = ("import urim; urim.random.RandomActions(6).draw(urim.VecEnv(2).reset()[1]['legal']); "
            "urim.gym.UrimEnv().reset(); urim.pettingzoo.raw_env().reset()")
    root = os.path.join(os.path.dirname(__file__), "..")
    r = subprocess.run([sys.executable, "-c", code], cwd="/", capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.path.abspath(root)))
    assert r.returncode == 0, r.stderr


# The single-game env.

def test_urim_env_self_play_and_opponent():
    for kw in ({}, {"opponent": "random", "seat": 1}, {"opponent": "greedy"}):
        env = urim.gym.UrimEnv(render_mode="ansi", **kw)
        obs, info = env.reset(seed=4)
        assert env.observation_space.contains(obs) and info["action_mask"].dtype == np.int8
        total, rng = 0.0, np.random.default_rng(0)
        for _ in range(1000):
            a = env.action_space.sample(mask=info["action_mask"])
            obs, r, term, trunc, info = env.step(a)
            assert env.observation_space.contains(obs)
            total += r
            if term or trunc:
                break
        assert term or trunc
        if "opponent" in kw:  # the agent's own result, whoever moved last
            assert total == pytest.approx(float(env.game.final_rewards()[kw.get("seat", 0)]))
        assert " " in env.render()
        with pytest.raises(RuntimeError, match="reset"):
            env.step(0)
        env.close()


def test_urim_env_illegal_modes():
    env = urim.gym.UrimEnv(illegal="loss")
    env.reset()
    env.step(0)  # South sows pit 0; it is now empty
    env.step(0)
    obs, r, term, trunc, info = env.step(0)  # South's pit 0 is empty: illegal
    assert term and r == -1.0
    strict = urim.gym.UrimEnv()
    strict.reset()
    for a in (0, 0):
        strict.step(a)
    with pytest.raises(urim.IllegalActionError, match="not legal"):
        strict.step(0)
    rnd = urim.gym.UrimEnv(illegal="random")
    rnd.reset(seed=1)
    for a in (0, 0):
        rnd.step(a)
    rnd.step(0)
    assert rnd.game.ply == 3


# The AEC game.

def test_aec_dead_step_and_rewards_once():
    g = urim.Game()
    g.reset(seed=1)
    summed = {a: 0.0 for a in urim.AGENTS}
    rng = np.random.default_rng(1)
    for agent in g.agent_iter():
        obs, _, term, trunc, _ = g.last()
        if term or trunc:
            g.step(None)
        else:
            g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a, r in g.rewards.items():
            summed[a] += r
    final = g.final_rewards()
    assert summed == {"player_0": pytest.approx(float(final[0])), "player_1": pytest.approx(float(final[1]))}
    assert g.agents == [] and g.rewards == {}
    # AECEnv's properties, with or without pettingzoo.
    assert g.num_agents == 0 and g.max_num_agents == 2 and g.unwrapped is g
    g.reset()
    assert g.num_agents == 2


def test_aec_each_agent_its_own_view():
    g = urim.Game(position="1,2,3,4,5,6/7,0,2,0,1,0 2-3 S 10")
    v0, v1 = g.observe("player_0")["observation"], g.observe("player_1")["observation"]
    n = urim.Game(position="1,2,3,4,5,6/7,0,2,0,1,0 2-3 N 10")
    np.testing.assert_array_equal(v1, n.observation()[0])  # as if North were to move
    np.testing.assert_array_equal(v0, g.observation()[0])
    assert not g.observe("player_1")["action_mask"].any() and g.observe("player_0")["action_mask"].any()
    assert g.observation_space("player_1").contains(g.observe("player_1"))
    assert g.action_space("player_0").n == 6 and set(g.observation_spaces) == set(urim.AGENTS)
    with pytest.raises(ValueError, match="unknown agent"):
        g.observe("player_2")


def test_clone_of_rules_file_game_resets():
    import os
    f = os.path.join(os.path.dirname(__file__), "..", "..", "configs", "rules", "urim5.yaml")
    g = urim.Game(rules=f)
    g.step(g.legal_actions()[0])
    c = g.clone()
    c.reset()  # used to fail: unknown rules preset "urim5"
    assert c.ply == 0 and c.num_actions == g.num_actions


# The real packages, when importable (python/tests skips these without them;
# docs/python.md says which versions they were run with).

def test_gymnasium_check_env_make_and_make_vec():
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env
    assert isinstance(urim.VecEnv(2), gym.vector.VectorEnv)
    assert isinstance(urim.gym.UrimEnv(), gym.Env)
    for kw in ({}, {"opponent": "random"}, {"opponent": "random", "seat": 1}, {"render_mode": "ansi"},
               {"render_mode": "human"}, {"illegal": "random"}):
        check_env(urim.gym.UrimEnv(**kw))
    check_env(gym.make("urim/Urim-v0").unwrapped)  # with its spec: every render mode, and close twice
    e = gym.make("urim/Urim-v0", opponent="random")  # through PassiveEnvChecker and OrderEnforcing
    assert isinstance(e.unwrapped, urim.gym.UrimEnv)
    obs, info = e.reset(seed=1)
    ended = 0
    for _ in range(600):
        obs, r, te, tr, info = e.step(e.action_space.sample(mask=info["action_mask"]))
        if te or tr:
            ended += 1
            obs, info = e.reset()
    assert ended > 0
    v = gym.make_vec("urim/Urim-v0", num_envs=4, vectorization_mode="vector_entry_point")
    assert type(v) is urim.VecEnv
    s = gym.make_vec("urim/Urim-v0", num_envs=3, vectorization_mode="sync")  # Gymnasium's own, of UrimEnv
    obs, info = s.reset(seed=0)
    for _ in range(100):
        obs, *_, info = s.step(np.array([s.single_action_space.sample(mask=m) for m in info["action_mask"]]))


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_gymnasium_vector_wrappers(mode):
    """Every vector wrapper of Gymnasium's that fits a Discrete action
    space takes a VecEnv; those Gymnasium itself restricts to some
    autoreset modes refuse the others with its own error."""
    gym = pytest.importorskip("gymnasium")
    from gymnasium.wrappers import vector as vw

    def mk():
        return urim.VecEnv(16, autoreset=mode, illegal="random")

    def play(w, steps=300):
        w.reset(seed=0)
        for _ in range(steps):
            out = w.step(w.unwrapped.random_actions().copy())
        return out

    w = vw.RecordEpisodeStatistics(mk())
    play(w, 600)
    assert w.episode_count > 0
    info = play(vw.DictInfoToList(vw.RecordEpisodeStatistics(mk())))[4]
    assert isinstance(info, list) and len(info) == 16
    for w in (vw.ClipReward(mk(), min_reward=-0.5, max_reward=0.5), vw.NormalizeReward(mk()),
              vw.TransformReward(mk(), lambda r: 2 * r)):
        play(w)
    for cls, args in ((vw.NormalizeObservation, ()), (vw.TransformObservation, (lambda o: o * 2,)),
                      (vw.DtypeObservation, (np.float64,)), (vw.RescaleObservation, (0.0, 1.0)),
                      (vw.FlattenObservation, ())):
        try:
            w = cls(mk(), *args)
        except (ValueError, AssertionError) as e:
            assert mode != "next_step" and "autoreset_mode" in str(e), e
            continue
        play(w)


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_vec_env_equals_gymnasium_sync_vector_env(mode):
    """urim.VecEnv against Gymnasium's SyncVectorEnv of urim.gym.UrimEnv,
    the same actions: every observation, reward, flag, mask and final
    observation equal, step for step."""
    gym = pytest.importorskip("gymnasium")
    n = 8
    s = gym.vector.SyncVectorEnv([urim.gym.UrimEnv for _ in range(n)], autoreset_mode=urim.VecEnv(1, autoreset=mode)
                                 .metadata["autoreset_mode"])
    v = urim.VecEnv(n, autoreset=mode)
    (so, si), (vo, vi) = s.reset(seed=5), v.reset(seed=5)
    np.testing.assert_array_equal(so, vo)
    rng = np.random.default_rng(0)
    ends = 0
    for t in range(600):
        m = vi["action_mask"]
        a = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in m])
        so, sr, ste, stt, si = s.step(a)
        vo, vr, vte, vtt, vi = v.step(a)
        np.testing.assert_array_equal(so, vo)
        np.testing.assert_array_equal(sr.astype(np.float32), vr)
        np.testing.assert_array_equal(ste, vte)
        np.testing.assert_array_equal(stt, vtt)
        np.testing.assert_array_equal(si["action_mask"], vi["action_mask"])
        np.testing.assert_array_equal(si["current_player"], vi["current_player"])
        if mode == "same_step":
            ended = si.get("_final_obs", np.zeros(n, bool))
            np.testing.assert_array_equal(ended, vi["_final_obs"])
            np.testing.assert_array_equal(si.get("_final_info", np.zeros(n, bool)), vi["_final_info"])
            for i in np.flatnonzero(ended):
                np.testing.assert_array_equal(si["final_obs"][i], vi["final_obs"][i])
        done = vte | vtt
        ends += int(done.sum())
        if mode == "disabled" and done.any():
            (so, si), (vo, vi) = s.reset(options={"reset_mask": done}), v.reset(options={"reset_mask": done})
            np.testing.assert_array_equal(so, vo)
    assert ends > 30


def test_pettingzoo_checkers():
    pz = pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
    from pettingzoo.utils import average_total_reward
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    assert isinstance(urim.Game(), pz.AECEnv)
    for make in (urim.pettingzoo.env, urim.pettingzoo.raw_env):
        api_test(make(), num_cycles=300)
        seed_test(make, num_cycles=200)
    render_test(urim.pettingzoo.env)
    parallel_api_test(turn_based_aec_to_parallel(urim.pettingzoo.env()), num_cycles=200)
    # Unmasked random actions: the TerminateIllegalWrapper of env() ends a
    # game on an illegal one, as in PettingZoo's classic games.
    average_total_reward(urim.pettingzoo.env(), max_episodes=3)


def test_pettingzoo_env_wraps_as_classic_games():
    pytest.importorskip("pettingzoo")
    from pettingzoo.utils import wrappers
    e = urim.pettingzoo.env()
    chain = []
    while hasattr(e, "env"):
        chain.append(type(e))
        e = e.env
    assert chain == [wrappers.OrderEnforcingWrapper, wrappers.AssertOutOfBoundsWrapper,
                     wrappers.TerminateIllegalWrapper] and type(e) is urim.Game
    # An illegal move ends the game: -1 to the mover, 0 to the other,
    # then each agent's dead step.
    g = urim.pettingzoo.env()
    g.reset()
    mover = None
    for agent in g.agent_iter():
        obs, r, te, tr, info = g.last()
        if te or tr:
            g.step(None)
            continue
        empty = np.flatnonzero(obs["action_mask"] == 0)
        if len(empty):
            mover = agent
            g.step(int(empty[0]))
            assert all(g.terminations.values()) and g.rewards[mover] == -1
            assert sum(g.rewards.values()) == -1
            continue
        g.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert mover is not None and not g.agents


def test_render_modes(capsys):
    """render_mode "ansi" returns the notation, "human" prints it (PettingZoo's
    render_test and Gymnasium's checker make one of each mode listed)."""
    for make in (urim.Game, urim.gym.UrimEnv):
        assert make.metadata["render_modes"] == ["human", "ansi"]
        e = make(render_mode="ansi")
        e.reset()
        text = e.render()
        assert text.startswith("3,3,3,3,3,3/3,3,3,3,3,3") and text.endswith("\n")
        h = make(render_mode="human")
        h.reset()
        capsys.readouterr()
        assert h.render() is None and capsys.readouterr().out == text
        assert make().render() is None
        with pytest.raises(ValueError, match="render_mode"):
            make(render_mode="rgb_array")


def test_agent_act_refuses_vec_handle():
    env = urim.VecEnv(2)
    a = urim.Agent("random")
    with pytest.raises(urim.UrimError, match="not a"):
        _lib.call("urim_agent_act", a._h, env._h, ctypes.byref(ctypes.c_int32()))


def test_mask_dtypes_as_documented_and_the_stand_in_sample():
    """docs/python.md lists every mask's dtype; the stand-in spaces take
    Gymnasium's int8 masks and refuse what Gymnasium refuses."""
    from urim import spaces
    env = urim.VecEnv(4, autoreset="same_step", illegal="random")
    _, info = env.reset()
    _, _, _, _, info = env.step(env.random_actions())
    assert info["action_mask"].dtype == np.int8 and info["legal"].dtype == np.uint8
    assert all(info[k].dtype == np.bool_ for k in ("_action_mask", "_legal", "_final_obs", "_final_info"))
    assert urim.gym.UrimEnv().reset()[1]["action_mask"].dtype == np.int8
    g = urim.Game()
    assert g.observe("player_0")["action_mask"].dtype == np.int8 and g.action_mask().dtype == np.int8
    assert g.observation()[1].dtype == np.bool_
    d = spaces.Discrete(6)
    m = np.array([0, 0, 1, 0, 1, 0], np.int8)
    assert {d.sample(mask=m) for _ in range(50)} == {2, 4}
    assert d.sample(mask=np.zeros(6, np.int8)) == 0  # nothing allowed: the start, as in Gymnasium
    for bad, why in ((m.astype(bool), "int8"), (list(m), "int8"), (m[:5], "shape"), (m * 2, "0 and 1")):
        with pytest.raises(ValueError, match=why):
            d.sample(mask=bad)
    md = spaces.MultiDiscrete(np.full(4, 6))
    a = md.sample(mask=tuple(info["action_mask"]))
    assert all(info["action_mask"][i, a[i]] == 1 or not info["action_mask"][i].any() for i in range(4))
    assert md.contains(md.sample())
    with pytest.raises(ValueError, match="tuple"):
        md.sample(mask=info["action_mask"])
