"""urim.match and urim.evaluate through the Go evaluator, with Python
callables as agents."""

import numpy as np
import pytest

import urim


def first_legal(game):
    return game.legal_actions()[0]


def test_match_specs():
    r = urim.match("greedy", "random", games=20, seed=3)
    assert r["games"] == 20 and r["wins"] + r["draws"] + r["losses"] == 20
    assert r["score"] > 0.5
    assert "greedy" in r["report"]


def test_evaluate_with_callable_and_agent():
    rng = np.random.default_rng(0)
    calls = []

    def python_random(game):
        obs, mask = game.observation()
        assert obs.shape == (game.obs_dim,) and mask.any()
        calls.append(1)
        return int(rng.choice(np.flatnonzero(mask)))

    res = urim.evaluate([("py", python_random), urim.Agent("greedy"), "random"], games=10, seed=1)
    assert res["players"] == ["py", "greedy", "random"]
    assert res["played"] == 30 and calls
    elo = {p["name"]: p["elo"] for p in res["ratings"]["players"]}
    assert set(elo) == {"py", "greedy", "random"} and elo["random"] == 0 and res["ratings"]["anchor"] == "random"
    assert "Elo" in res["report"]


def test_callable_errors_are_raised():
    def broken(game):
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        urim.match(("broken", broken), "random", games=2)

    def illegal(game):
        return 99

    with pytest.raises(urim.UrimError, match="illegal"):
        urim.match(("illegal", illegal), "random", games=2)

    with pytest.raises(TypeError):
        urim.match(first_legal, 3.5, games=2)
