"""carcassonne.distributed on a real Dask cluster: a scheduler and two single-threaded worker
processes on loopback (random free ports, always torn down). Tournaments must equal
`carcassonne tournament --json` number for number, also when a worker is killed mid-run; self-play
shards must read back, match the tournament's games and resume without replaying finished shards."""
import io
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

import pytest

import carcassonne as carc  # the project's own module: never skipped
import numpy as np
try:
    import distributed
except ImportError:
    pytest.skip("Dask's `distributed` is not importable (Debian: apt install python3-distributed, which "
                "scripts/setup.sh installs)", allow_module_level=True)
if not carc.has_ai():
    pytest.skip("the module was built without the AI library (tournaments need it)", allow_module_level=True)

from carcassonne import distributed as cd  # noqa: E402

PKG_DIR = str(pathlib.Path(carc.__file__).resolve().parents[1])  # the directory holding the package


def _cli():
    for d in (os.environ.get("CARC_BUILD_DIR"), pathlib.Path(PKG_DIR).parent):
        if d and (pathlib.Path(d) / "carcassonne").is_file():
            return str(pathlib.Path(d) / "carcassonne")
    pytest.skip("the carcassonne CLI was not found ($CARC_BUILD_DIR/carcassonne)")


def _env():
    env = dict(os.environ)
    # Less idle bookkeeping in the Dask processes (README.md): the machine is shared.
    env.setdefault("DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED", "False")
    env.setdefault("DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL", "1s")
    env["PYTHONPATH"] = os.pathsep.join([PKG_DIR] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def _without_seconds(text):
    out = re.sub(r',"seconds":[-+0-9.eE]+', "", text.strip())
    assert out != text.strip(), "no seconds field in " + text
    return out


def cli_tournament(players, games, seed, tileset="base", expansions=""):
    cmd = [_cli(), "tournament", "--players", players, "-n", str(games), "--seed", str(seed), "--json",
           "-t", "2", "--tileset", tileset]
    if expansions:
        cmd += ["--expansions", expansions]
    return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120).stdout


class Cluster:
    """`dask scheduler` and `dask worker` processes (Debian's python3-distributed) on 127.0.0.1."""

    def __init__(self, workdir):
        self.dir = workdir
        self.file = os.path.join(workdir, "scheduler.json")
        self.procs = []
        self.workers = []
        self.scheduler = self._spawn([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                      "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", self.file],
                                     "scheduler")
        deadline = time.monotonic() + 60
        while not os.path.exists(self.file):
            if self.scheduler.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the Dask scheduler did not start: " + self._log("scheduler"))
            time.sleep(0.1)
        time.sleep(0.2)  # the file is complete once renamed into place; be safe on slow disks
        with open(self.file) as f:
            self.address = json.load(f)["address"]
        self.client = distributed.Client(scheduler_file=self.file, timeout=60)
        self.add_worker()
        self.add_worker()

    def _spawn(self, cmd, name):
        log = open(os.path.join(self.dir, name + ".log"), "wb")
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=_env(), cwd=self.dir,
                             start_new_session=True)
        log.close()
        self.procs.append(p)
        return p

    def _log(self, name):
        try:
            return pathlib.Path(self.dir, name + ".log").read_text(errors="replace")[-2000:]
        except OSError:
            return "(no log)"

    def add_worker(self):
        n = len(self.workers)
        w = self._spawn([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", self.file,
                         "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                         "--local-directory", self.dir, "--death-timeout", "60", "--name", f"w{n}"],
                        f"worker{n}")
        self.workers.append(w)
        alive = sum(1 for x in self.workers if x.poll() is None)
        try:
            self.client.wait_for_workers(alive, timeout=90)
        except Exception as e:  # noqa: BLE001
            raise RuntimeError(f"worker {n} did not join: {e}\n" + self._log(f"worker{n}")) from e
        return w

    def worker_address(self, proc):
        """The scheduler's address for one of our worker processes (by its --name)."""
        name = f"w{self.workers.index(proc)}"
        info = self.client.scheduler_info()["workers"]
        for addr, w in info.items():
            if str(w.get("name")) == name:
                return addr
        raise AssertionError(f"no worker named {name} in {[w.get('name') for w in info.values()]}")

    def close(self):
        try:
            self.client.close(timeout=10)
        except Exception:  # noqa: BLE001 - tear down whatever happens
            pass
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        deadline = time.monotonic() + 5  # workers stop at once; a slow one is killed
        for p in self.procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=15)


@pytest.fixture(scope="module")
def cluster():
    with tempfile.TemporaryDirectory(prefix="carc-dask-") as d:
        c = Cluster(d)
        try:
            yield c
        finally:
            c.close()


def test_tournament_equals_the_cli(cluster):
    ref = cli_tournament("greedy,random", 24, 5)
    got = cd.tournament_json(cluster.client, ["greedy", "random"], 24, seed=5, chunk=5)
    assert _without_seconds(got) == _without_seconds(ref)  # byte for byte
    d = cd.tournament(cluster.client, "greedy,random", 24, seed=5)  # default chunk, a dict
    r = json.loads(ref)
    del d["seconds"], r["seconds"]
    assert d == r
    assert d["games"] == 24 and d["players"][0]["wins"] + d["players"][1]["wins"] == 24


def test_three_players_mcts_and_an_expansion_equal_the_cli(cluster):
    players = "mcts:iterations=12,greedy,random"
    ref = cli_tournament(players, 6, 9, expansions="festival")
    got = cd.tournament_json(cluster.client, players.split(","), 6, seed=9, expansions=["festival"], chunk=1)
    assert _without_seconds(got) == _without_seconds(ref)
    assert json.loads(got)["players"][0]["mean_iterations_per_search"] == 12
    assert json.loads(got)["rules"] == "base+festival/3p"


def test_command_line_with_scheduler_prints_the_cli_json(cluster, tmp_path):
    ref = cli_tournament("greedy,greedy:eval=expect", 10, 2)
    out = subprocess.run([sys.executable, "-m", "carcassonne.distributed", "tournament", "--scheduler",
                          cluster.address, "--players", "greedy,greedy:eval=expect", "--games", "10", "--seed", "2",
                          "--json", "--chunk", "3"], capture_output=True, text=True, env=_env(), timeout=120)
    assert out.returncode == 0, out.stderr
    assert _without_seconds(out.stdout) == _without_seconds(ref)
    sp = subprocess.run([sys.executable, "-m", "carcassonne.distributed", "selfplay", "--scheduler",
                         cluster.address, "--players", "greedy,greedy", "--games", "3", "--shard-size", "2",
                         "--out", str(tmp_path / "sp"), "--no-progress"],
                        capture_output=True, text=True, env=_env(), timeout=120)
    assert sp.returncode == 0, sp.stderr
    assert "3 games in 2 shards (2 played, 0 kept)" in sp.stdout
    assert cd.read_manifest(str(tmp_path / "sp"))["complete"]
    buf = io.StringIO()
    cd._text_summary(json.loads(ref), buf)  # the text form of the same summary
    assert "tournament base/2p: 10 games, seats rotating, seed 2" in buf.getvalue()
    assert "Elo difference   greedy - greedy:eval=expect" in buf.getvalue()


def test_a_killed_worker_changes_nothing(cluster):
    # A run long enough to still be going when the victim is killed on an idle machine (a few seconds).
    games, seed, players = 480, 13, "mcts:iterations=150,greedy"
    ref = cli_tournament(players, games, seed)
    victim = cluster.workers[0]
    victim_addr = cluster.worker_address(victim)
    run = subprocess.Popen([sys.executable, "-m", "carcassonne.distributed", "tournament", "--scheduler",
                            cluster.address, "--players", players, "--games", str(games), "--seed",
                            str(seed), "--json", "--chunk", "4", "--progress"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    try:
        # Wait until the victim holds tasks of the run and some tasks have finished, then kill it.
        deadline = time.monotonic() + 90
        held = []
        while time.monotonic() < deadline and run.poll() is None:
            held = [k for k in cluster.client.processing().get(victim_addr, ()) if "carc-tournament" in str(k)]
            done = cluster.client.run_on_scheduler(
                lambda dask_scheduler: sum(1 for k, ts in dask_scheduler.tasks.items()
                                           if "carc-tournament" in str(k) and ts.state == "memory"))
            if held and done >= 1:
                break
            time.sleep(0.05)
        if not held:
            rc = run.poll()
            _, err = run.communicate(timeout=240) if rc is not None else ("", "")
            raise AssertionError(f"the victim never held a task of the run (exit {rc}): {err[-1500:]}")
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=30)
        out, err = run.communicate(timeout=240)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 0, err
    assert _without_seconds(out) == _without_seconds(ref)
    assert f"/{games} games" in err  # the progress bar was drawn on stderr
    cluster.add_worker()  # back to two workers for the tests after this one


def test_selfplay_shards_read_back_and_resume(cluster, tmp_path):
    out = tmp_path / "run"
    players = ["greedy", "random"]
    m = cd.selfplay(cluster.client, players, 6, str(out), seed=3, shard_size=2)
    assert m["played"] == 3 and m["kept"] == 0 and m["complete"]
    assert [sh["games"] for sh in m["shards"]] == [[0, 2], [2, 4], [4, 6]]
    assert cd.read_manifest(str(out))["shards"] == m["shards"]
    ref = carc.tournament_games(players, 3, 0, 6)["scores"]  # scores by player index
    game = carc.Game(players=2)
    C, W = game.observation_shape["planes"][:2]
    total = 0
    for sh in m["shards"]:
        z = cd.read_shard(str(out / sh["file"]))
        S = len(z["actions"])
        total += S
        assert S == sh["decisions"] and S > 0
        assert z["planes"].shape == (S, C, W, W) and z["planes"].dtype == np.uint8
        assert z["vector"].shape == (S, game.observation_shape["vector"][0]) and z["vector"].dtype == np.float32
        assert z["legal_offsets"].shape == (S + 1,) and z["legal_offsets"][-1] == len(z["legal_actions"])
        assert list(z["games"]) == list(range(*sh["games"]))
        for t in range(S):
            legal = z["legal_actions"][z["legal_offsets"][t]:z["legal_offsets"][t + 1]]
            assert z["actions"][t] in legal and (np.diff(legal) > 0).all()
        for g, i in enumerate(z["games"]):
            seats = z["seat_players"][g]
            assert list(seats) == [carc.tournament_player(int(i), j, 2) for j in range(2)]
            # Returns are by seat; the tournament's scores by player: the same games.
            assert [z["returns"][g][j] for j in range(2)] == [ref[i][seats[j]] for j in range(2)]
            rec = carc.parse_record(str(z["records"][g]))
            assert rec.seed == z["game_seeds"][g] == carc.derive_seed(3, int(i))
            assert carc.replay(rec, final=True).scores() == list(z["returns"][g])
            a, b = z["game_offsets"][g], z["game_offsets"][g + 1]
            assert set(z["players"][a:b]) == {0, 1}
            # The first decision's observation, recomputed from the seed, is the stored one.
            s = game.new_initial_state(seed=int(z["game_seeds"][g]))
            while s.is_chance_node():
                s.draw_random()
            assert (s.observation_planes(int(z["players"][a])) == z["planes"][a]).all()
            assert (s.observation_vector(int(z["players"][a])) == z["vector"][a]).all()
    assert m["decisions"] == total

    # An interrupted run: one shard lost. Only that shard is played again, byte for byte the same.
    lost = out / m["shards"][1]["file"]
    lost.unlink()
    stamps = {sh["file"]: (out / sh["file"]).stat().st_mtime_ns for sh in m["shards"] if sh["file"] != lost.name}
    m2 = cd.selfplay(cluster.client, players, 6, str(out), seed=3, shard_size=2)
    assert m2["played"] == 1 and m2["kept"] == 2
    assert m2["shards"] == m["shards"]  # same sha256: the replayed shard is identical
    assert all((out / f).stat().st_mtime_ns == t for f, t in stamps.items())
    # A corrupted shard is played again too; a finished run plays nothing; more games extend it.
    (out / m["shards"][0]["file"]).write_bytes(b"garbage")
    assert cd.selfplay(cluster.client, players, 6, str(out), seed=3, shard_size=2)["played"] == 1
    assert cd.selfplay(cluster.client, players, 6, str(out), seed=3, shard_size=2)["played"] == 0
    m3 = cd.selfplay(cluster.client, players, 7, str(out), seed=3, shard_size=2)
    assert m3["played"] == 1 and m3["shards"][-1]["games"] == [6, 7] and m3["shards"][:3] == m["shards"]
    with pytest.raises(ValueError, match="other settings"):
        cd.selfplay(cluster.client, players, 6, str(out), seed=4, shard_size=2)


def test_local_cluster_command_line(tmp_path):
    ref = cli_tournament("greedy,random", 6, 21)
    out = subprocess.run([sys.executable, "-m", "carcassonne.distributed", "tournament", "--workers", "2",
                          "--players", "greedy,random", "--games", "6", "--seed", "21", "--json"],
                         capture_output=True, text=True, env=_env(), timeout=180, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert _without_seconds(out.stdout) == _without_seconds(ref)


def test_bad_input_is_refused_before_any_cluster_work(capsys):
    assert cd.main(["tournament", "--players", "greedy,nobody", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "nobody" in capsys.readouterr().err
    assert cd.main(["tournament", "--players", "greedy", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "2 to 6" in capsys.readouterr().err
    assert cd.main(["tournament", "--players", "greedy,greedy", "--games", "0", "--scheduler", "x"]) == 2
    assert cd.main(["tournament", "--players", "greedy,greedy", "--expansions", "dragons", "--scheduler", "x"]) == 2
    assert "dragons" in capsys.readouterr().err
    with pytest.raises(ValueError, match="seed"):
        cd.tournament(None, ["greedy", "greedy"], 2, seed=-1)
    with pytest.raises(ValueError, match="rules are for 3 players"):
        cd.tournament(None, ["greedy", "greedy"], 2, rules=carc.Rules(3))


def test_default_chunk_and_rules_spec():
    assert cd.default_chunk(2000, 2) == 63
    assert cd.default_chunk(10, 4) == 1
    assert cd.default_chunk(10**6, 2) == cd.MAX_CHUNK
    spec = cd.rules_spec(None, 3, "base", ["festival"])
    assert spec == {"players": 3, "tileset": "base", "expansions": ["festival"], "tent_scores_unoccupied": True}
    assert cd.rules_spec(carc.Rules(3, "base", ["festival"])) == spec
    with pytest.raises(ValueError):
        cd.rules_spec({"players": 2, "colour": "red"})


def test_tournament_games_are_pure_functions_of_the_index():
    whole = carc.tournament_games(["greedy", "random"], 8, 0, 6)
    parts = [carc.tournament_games(["greedy", "random"], 8, a, a + 2)["scores"] for a in (4, 0, 2)]
    assert (np.concatenate([parts[1], parts[2], parts[0]]) == whole["scores"]).all()
    assert whole["decisions"] == [0, 0]
    with pytest.raises(ValueError):
        carc.tournament_games(["greedy", "random"], 8, 3, 2)
    with pytest.raises(ValueError):
        carc.tournament_games(["greedy", "nobody"], 8, 0, 1)


def test_limits_are_checked():
    for bad in (0, -3, 2.5, "x", None, True, cd.MAX_GAMES + 1):
        with pytest.raises(ValueError, match="games"):
            cd.tournament(None, ["greedy", "greedy"], bad)
    for bad in (-1, 2**64, 1.5, "7"):
        with pytest.raises(ValueError, match="seed"):
            cd.tournament(None, ["greedy", "greedy"], 2, seed=bad)
    with pytest.raises(ValueError, match="chunk"):
        cd.tournament(None, ["greedy", "greedy"], 2, chunk=0)
    with pytest.raises(ValueError, match="radius"):
        cd.selfplay(None, ["greedy", "greedy"], 2, "unused", radius=64)
    with pytest.raises(ValueError, match="shard_size"):
        cd.selfplay(None, ["greedy", "greedy"], 2, "unused", shard_size=0)
    with pytest.raises(ValueError, match="2 to 6"):
        cd.selfplay(None, ["greedy"] * 7, 2, "unused")
