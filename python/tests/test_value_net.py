"""The value network of eval=net (src/ai/value_net.h) from Python: the features the engine computes,
the weights file that train_value writes and the C++ reader loads (the same predictions), the
self-play shards' value_features, and (when PyTorch is importable) a short training run."""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import carcassonne as carc

pytestmark = pytest.mark.skipif(not carc.has_ai(), reason="the module was built without the AI library")


def _midgame(seed=3, turns=30):
    g = carc.Game(players=2)
    s = g.new_initial_state(seed=seed)
    p = [carc.RandomSeat(seed), carc.RandomSeat(seed + 1)]
    while not s.is_terminal() and s.turn < turns:
        if s.is_chance_node():
            s.draw_random()
        else:
            s.apply(p[s.current_player()].choose(s))
    while s.is_chance_node():
        s.draw_random()
    return s


def test_features_of_every_player():
    s = _midgame()
    f = np.asarray(carc.value_features(s))
    names = list(carc.value_feature_names)
    assert f.shape == (2, len(names)) == (2, 10)
    i = {n: k for k, n in enumerate(names)}
    assert f[0, i["heuristic_margin"]] == pytest.approx(-f[1, i["heuristic_margin"]], abs=1e-5)
    sc = s.scores()
    assert f[0, i["score_margin"]] == pytest.approx((sc[0] - sc[1]) / 50, abs=1e-6)
    assert 0 < f[0, i["bag_share"]] < 1
    assert sorted(f[:, i["to_move"]].tolist()) == [0.0, 1.0]
    assert f[0, i["to_move"]] == (1.0 if s.current_player() == 0 else 0.0)


def test_written_weights_predict_the_same_in_cpp(tmp_path):
    from carcassonne import train_value as tv

    rng = np.random.default_rng(5)
    F, H = 10, 4
    w = {"w1": rng.normal(size=(H, F)), "b1": rng.normal(size=H), "wout": rng.normal(size=H),
         "bout": float(rng.normal()), "skip": rng.normal(size=F)}
    path = tmp_path / "value.txt"
    path.write_text(tv.weights_text(w, ["a test network"]))
    x = rng.normal(size=(3, F)).astype(np.float32)
    want = tv.forward(w, x)
    code = ("import carcassonne as c, json, sys; xs = json.loads(sys.argv[1]); "
            "print(json.dumps([c.value_net_predict(v) for v in xs]))")
    env = dict(os.environ, CARC_VALUE_NET=str(path))
    out = subprocess.run([sys.executable, "-c", code, json.dumps(x.tolist())], env=env, check=True,
                         capture_output=True, text=True).stdout
    got = json.loads(out)
    assert got == pytest.approx(want.tolist(), rel=1e-4, abs=1e-3)
    # A damaged file is refused when eval=net is asked for, naming the file and the line.
    path.write_text("carcassonne-value-net/1\nfeatures 10 hidden 1\n1 2 x\n")
    err = subprocess.run([sys.executable, "-c", "import carcassonne as c; c.Player('greedy:eval=net', 0)"], env=env,
                         capture_output=True, text=True)
    assert err.returncode != 0 and "value.txt" in err.stderr and "line 3" in err.stderr


def test_shards_carry_value_features_and_training_writes_a_loadable_net(tmp_path):
    try:
        from carcassonne import distributed as cd
    except ImportError:
        pytest.skip("Dask's `distributed` is not importable")
    from carcassonne import train_value as tv

    data, n = cd.selfplay_range(cd.rules_spec(), ["greedy", "random"], 2, 0, 3)
    z = np.load(io.BytesIO(data))
    assert z["value_features"].shape == (n, 2, 10)
    # Each decision's features are those of the position then: the first one recomputed from the seed.
    s = carc.Game(players=2).new_initial_state(seed=int(z["game_seeds"][0]))
    while s.is_chance_node():
        s.draw_random()
    assert z["value_features"][0] == pytest.approx(np.asarray(carc.value_features(s)), abs=1e-6)
    try:
        import torch  # noqa: F401
    except ImportError:
        pytest.skip("PyTorch is not importable (scripts/train-value-net.sh installs python3-torch)")
    out = tmp_path / "sp"
    os.makedirs(out)
    # A one-shard directory laid out as selfplay writes it, from the task above.
    (out / "shard_000000.npz").write_bytes(data)
    json.dump({"format": cd.SHARD_FORMAT, "players": ["greedy", "random"], "rules_name": "base/2p", "seed": 2,
               "shards": [{"file": "shard_000000.npz", "games": [0, 3], "decisions": n}]},
              open(out / "manifest.json", "w"))
    x, y, gid = tv.load_examples([str(out)])
    assert x.shape == (2 * n, 10) and len(y) == len(gid) == 2 * n
    net = tmp_path / "value.txt"
    tv.main(["--shards", str(out), "--out", str(net), "--epochs", "2", "--hidden", "4"])
    text = net.read_text()
    assert "carcassonne-value-net/1" in text and "features 10 hidden 4" in text
