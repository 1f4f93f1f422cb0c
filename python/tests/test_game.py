"""urim.Game: AEC play of whole games equals `urim replay`; clone, notation,
agents' moves."""

import json
import subprocess

import numpy as np
import pytest

import urim


def _play_aec(policy, seed=0):
    """A full game through the AEC loop; returns the actions and the records."""
    g = urim.Game()
    g.reset()
    rng = np.random.default_rng(seed)
    actions, records = [], [g.to_json()]
    totals = {a: 0.0 for a in urim.AGENTS}
    for agent in g.agent_iter():
        obs, reward, term, trunc, info = g.last()
        totals[agent] += reward
        if term or trunc:
            g.step(None)
            continue
        assert agent == urim.AGENTS[g.to_move]
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == g.legal_actions()
        a = policy(g, legal, rng)
        actions.append(a)
        g.step(a)
        records.append(g.to_json(action=a))
    return g, actions, records, totals


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_aec_game_equals_replay(seed, urim_bin):
    g, actions, records, totals = _play_aec(lambda g, legal, rng: int(rng.choice(legal)), seed)
    out = subprocess.run([urim_bin, "replay", "--moves", ",".join(map(str, actions))],
                         check=True, capture_output=True, text=True).stdout
    want = [json.loads(line) for line in out.splitlines()]
    assert records == want
    last = want[-1]
    assert last["terminal"]
    # Both agents got the final rewards, of opposite signs or a draw.
    r = g.final_rewards()
    assert totals["player_0"] == pytest.approx(float(r[0])) and totals["player_1"] == pytest.approx(float(r[1]))
    assert np.sign(r[0]) == {0: 1, 1: -1, -1: 0}[last["winner"]]
    assert g.agents == []


def test_clone_notation_and_position():
    g = urim.Game()
    for a in (3, 2, 0):
        g.step(a)
    c = g.clone()
    c.step(c.legal_actions()[0])
    assert g.ply == 3 and c.ply == 4
    h = urim.Game(position=g.notation())
    assert h.notation() == g.notation() and h.legal_actions() == g.legal_actions()
    np.testing.assert_array_equal(h.observation()[0], g.observation()[0])
    assert " N 3 h:" in str(g)
    with pytest.raises(urim.ArgumentError, match="bad position"):
        urim.Game(position="1,2/3 0-0 S 0")


@pytest.mark.parametrize("spec", ["random", "greedy", "alphabeta:depth=4", "mcts:sims=50"])
def test_agents_play_legal_moves(spec):
    a = urim.Agent(spec, seed=1)
    g, actions, records, _ = _play_aec(lambda g, legal, rng: a.act(g))
    assert records[-1]["terminal"]
    games, want = [], []
    rng = np.random.default_rng(3)
    for _ in range(20):
        h = urim.Game()
        for _ in range(int(rng.integers(0, 20))):
            if h.is_over():
                break
            h.play(int(rng.choice(h.legal_actions())))
        if not h.is_over():
            games.append(h)
    out = a.act_batch(games)
    assert out.dtype == np.int32 and len(out) == len(games)
    for h, m in zip(games, out):
        assert m in h.legal_actions()
    # Notation strings work too.
    assert a.act(games[0].notation()) in games[0].legal_actions()


def test_tablebase_probe(urim_bin, tmp_path):
    tb = tmp_path / "urim.tb"
    subprocess.run([urim_bin, "tablebase", "build", "--max-seeds", "6", "--quiet", "--out", str(tb)], check=True, capture_output=True)
    g = urim.Game(position="0,0,0,0,0,1/0,0,0,0,0,1 17-17 S 60")
    rep = g.probe(str(tb))
    assert rep["seeds"] == 2 and rep["lower"] <= rep["upper"] and rep["best"]
    with pytest.raises(urim.UrimError):
        urim.Game().probe(str(tb))  # 36 seeds on the board: not in a 6-seed table
    a = urim.Agent(f"tb:file={tb}")
    assert a.act(g) in g.legal_actions()
