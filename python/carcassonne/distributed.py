"""Tournaments and self-play on a Dask cluster (Debian's ``python3-distributed``).

Every task is a pure function of (rules, player specs, run seed, range of game indices): game ``i``
is played by the same C++ function ``carcassonne tournament`` uses (the match runner with the one seed
rule of every front end: draws seeded with ``game_seed(seed, i)``, seat ``j`` taken by player
``(i + j) % k`` seeded with ``seat_seed(that, j)``), so the result does not depend on which worker played what, and a task
lost with its worker is simply played again elsewhere with the same outcome.

    from distributed import Client
    from carcassonne import distributed as cd
    client = Client("tcp://scheduler:8786")                   # or Client(LocalCluster(...))
    summary = cd.tournament(client, ["mcts:iterations=500", "greedy"], games=10_000, seed=1)
    cd.selfplay(client, ["greedy", "greedy"], games=1000, out_dir="data/run1", seed=1)

Command line (``--scheduler ADDRESS``, or a local cluster of ``--workers`` processes)::

    python3 -m carcassonne.distributed tournament --players mcts:iterations=500,greedy --games 10000 --json
    python3 -m carcassonne.distributed selfplay --players greedy,greedy --games 1000 --out data/run1

Documented in docs/python.md ("Cluster runs") and README.md.
"""
import argparse
import hashlib
import io
import json
import math
import os
import sys
import time
import zipfile

from . import _core

__all__ = ["tournament", "tournament_json", "selfplay", "read_shard", "read_manifest", "rules_spec", "play_range",
           "selfplay_range", "default_chunk", "main"]

MANIFEST = "manifest.json"
SHARD_FORMAT = "carcassonne-selfplay/1"
# Default task size: about this many tasks per worker thread (load balance, little lost when a
# worker dies), but never more games per task than MAX_CHUNK. docs/performance.md ("Cluster runs").
TASKS_PER_THREAD = 16
MAX_CHUNK = 1000
# Games per call: the client keeps every game's scores (4 bytes per player per game) until the end.
MAX_GAMES = 100_000_000


# ---------------------------------------------------------------------------------------------
# Rules as plain data (what travels to the workers)

def rules_spec(rules=None, players=2, tileset="base", expansions=()):
    """The rule variant as a plain dict (sent to the workers): from a ``Rules`` or from a player
    count, tile set and expansions. Raises ValueError for a combination the engine rejects."""
    if rules is None:
        rules = _core.Rules(players, tileset, list(expansions))
    elif isinstance(rules, dict):
        rules = _rules_from_spec(rules)
    spec = {"players": int(rules.players), "tileset": str(rules.tileset),
            "expansions": sorted(rules.expansions), "tent_scores_unoccupied": bool(rules.tent_scores_unoccupied)}
    _rules_from_spec(spec)  # validates
    return spec


def _rules_from_spec(spec):
    unknown = set(spec) - {"players", "tileset", "expansions", "tent_scores_unoccupied"}
    if unknown:
        raise ValueError(f"rules: unknown field(s) {sorted(unknown)}")
    r = _core.Rules(int(spec["players"]), str(spec.get("tileset", "base")), list(spec.get("expansions", [])))
    r.tent_scores_unoccupied = bool(spec.get("tent_scores_unoccupied", True))
    err = r.validate()
    if err:
        raise ValueError(f"rules: {err}")
    return r


def _check_players(players):
    if isinstance(players, str):
        players = [p for p in players.split(",")]
    players = [str(p) for p in players]
    if not 2 <= len(players) <= 6:
        raise ValueError(f"players: need 2 to 6 player specs, got {len(players)}")
    for p in players:
        if not p:
            raise ValueError("players: an empty player spec")
        _core.Player(p, 0)  # ValueError naming what is wrong with the spec
    return players


def _check_count(name, n, lo=1, hi=MAX_GAMES):
    try:
        ok = not isinstance(n, bool) and int(n) == n and lo <= int(n) <= hi
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ValueError(f"{name} must be an integer from {lo} to {hi}, got {n!r}")
    return int(n)


def _check_seed(seed):
    try:
        ok = not isinstance(seed, bool) and int(seed) == seed and 0 <= int(seed) < 2**64
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ValueError(f"seed must be an integer in [0, 2^64), got {seed!r}")
    return int(seed)


def _check_version(version):
    if version != _core.__version__:
        raise RuntimeError(f"this worker has carcassonne {_core.__version__}, the client {version}: "
                           "install the same version on every machine (games would differ)")


# ---------------------------------------------------------------------------------------------
# Tasks (module-level functions: workers import them from the installed package)

def play_range(rules, players, seed, start, stop, version=None):
    """Task: games ``start..stop-1`` of the tournament. Returns ``{"start", "stop", "scores": int32
    array (games, players) by player index, "iterations", "decisions": per player}``."""
    if version is not None:
        _check_version(version)
    out = _core.tournament_games(list(players), seed, start, stop, rules=_rules_from_spec(rules))
    out["start"], out["stop"] = start, stop
    return out


def default_chunk(games, threads):
    """Games per task: ``ceil(games / (TASKS_PER_THREAD * threads))``, at most ``MAX_CHUNK``."""
    return max(1, min(MAX_CHUNK, math.ceil(games / (TASKS_PER_THREAD * max(1, threads)))))


def _total_threads(client):
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - any scheduler trouble: fall back to one thread
        return 1


def _ranges(games, chunk):
    return [(a, min(games, a + chunk)) for a in range(0, games, chunk)]


class _Progress:
    """A one-line progress bar on stderr (like ``carcassonne tournament``'s)."""

    def __init__(self, total, unit, enabled, stream=None):
        self.total, self.unit, self.enabled = total, unit, enabled
        self.stream = stream or sys.stderr
        self.t0 = time.monotonic()
        self.last = 0.0
        self.done = 0

    def add(self, n):
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last < 0.25 and self.done < self.total:
            return
        self.last = now
        el = now - self.t0
        frac = self.done / self.total if self.total else 1.0
        eta = el / self.done * (self.total - self.done) if self.done else 0.0
        full = int(frac * 30 + 0.5)
        self.stream.write(f"\r  [{'#' * full}{'.' * (30 - full)}] {self.done}/{self.total} {self.unit}, "
                          f"{el:.0f} s elapsed, ~{eta:.0f} s left   ")
        self.stream.flush()

    def close(self):
        if self.enabled:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()


def _as_completed(futures):
    from distributed import as_completed
    return as_completed(futures)


def tournament(client, players, games, seed=1, rules=None, tileset="base", expansions=(), chunk=None,
               progress=False):
    """Plays a tournament on the Dask cluster behind ``client`` and returns the summary of
    ``carcassonne tournament --json`` (a dict: games, players with win_rate, ci95, mean_score, wins,
    score_ci95 [, mean_iterations_per_search], elo_diff, elo_ci95, score_diff, score_diff_ci95,
    rules, seed, seconds). The numbers equal the CLI's for the same players, games, seed and rules
    when every player is deterministic (fixed iterations, not time); ``seconds`` is this run's wall
    time. ``chunk`` = games per task (default: ``default_chunk(games, worker threads)``);
    ``progress``: a progress bar on stderr. A worker lost mid-run costs only time."""
    return json.loads(tournament_json(client, players, games, seed, rules, tileset, expansions, chunk, progress))


def tournament_json(client, players, games, seed=1, rules=None, tileset="base", expansions=(), chunk=None,
                    progress=False):
    """``tournament()``'s summary as the JSON text ``carcassonne tournament --json`` prints (made by
    the same C++ code, so the same bytes apart from ``seconds``)."""
    players = _check_players(players)
    games = _check_count("games", games)
    seed = _check_seed(seed)
    spec = rules_spec(rules, len(players), tileset, expansions)
    if spec["players"] != len(players):
        raise ValueError(f"rules are for {spec['players']} players, {len(players)} player specs given")
    chunk = default_chunk(games, _total_threads(client)) if chunk is None else _check_count("chunk", chunk)
    import numpy as np

    t0 = time.monotonic()
    futures = [client.submit(play_range, spec, players, seed, a, b, _core.__version__, pure=False,
                             key=f"carc-tournament-{seed}-{a}-{b}-{time.time_ns()}")
               for a, b in _ranges(games, chunk)]
    k = len(players)
    scores = np.zeros((games, k), dtype=np.int32)
    iterations, decisions = [0] * k, [0] * k
    bar = _Progress(games, "games", progress)
    try:
        for fut in _as_completed(futures):
            r = fut.result()
            fut.release()
            scores[r["start"]:r["stop"]] = r["scores"]
            for p in range(k):
                iterations[p] += r["iterations"][p]
                decisions[p] += r["decisions"][p]
            bar.add(r["stop"] - r["start"])
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        bar.close()
    seconds = time.monotonic() - t0
    return _core.tournament_summary(players, scores, iterations, decisions, seed, seconds,
                                    rules=_rules_from_spec(spec))


# ---------------------------------------------------------------------------------------------
# Self-play shards

def _npz_bytes(arrays):
    """A compressed .npz (readable by numpy.load) whose bytes depend only on the arrays: fixed
    member dates, so that the same games give byte-identical shards on any machine."""
    import numpy as np

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            member = io.BytesIO()
            np.lib.format.write_array(member, np.ascontiguousarray(arrays[name]), allow_pickle=False)
            z.writestr(info, member.getvalue(), compresslevel=6)
    return buf.getvalue()


def selfplay_range(rules, players, seed, start, stop, radius=20, version=None):
    """Task: games ``start..stop-1`` (the same games as the tournament's), with every decision
    recorded; returns ``(npz bytes, number of decisions)`` (the shard layout: docs/python.md)."""
    import numpy as np

    if version is not None:
        _check_version(version)
    game = _core.Game(_rules_from_spec(rules), radius=radius)
    k = len(players)
    names = [_core.Player(p, 0).name for p in players]
    planes, vectors, legal, legal_offsets, actions, deciders = [], [], [], [0], [], []
    value_features = []  # per decision: the value network's features of every seat (train_value)
    game_offsets, returns, seat_players, records, game_seeds = [0], [], [], [], []
    for i in range(start, stop):
        gs = _core.game_seed(seed, i)  # the one seed rule (src/engine/seeds.h), as the match runner's
        seat_of = [_core.tournament_player(i, j, k) for j in range(k)]
        seats = [_core.Player(players[seat_of[j]], _core.seat_seed(gs, j)) for j in range(k)]
        s = game.new_initial_state(seed=gs)
        while not s.is_terminal():
            if s.is_chance_node():
                s.draw_random()
                continue
            cp = s.current_player()
            p = s.observation_planes(cp)
            p8 = p.astype(np.uint8)
            if not np.array_equal(p8, p):
                raise RuntimeError(f"game {i}: an observation plane does not fit uint8")
            planes.append(p8)
            vectors.append(s.observation_vector(cp))
            value_features.append(_core.value_features(s))
            la = s.legal_actions()
            legal.extend(la)
            legal_offsets.append(len(legal))
            m = seats[cp].choose(s)
            try:
                a = s.move_to_action(m)
            except ValueError:
                a = -1  # outside the action window (never seen at the default radius)
            actions.append(a)
            deciders.append(cp)
            s.apply(m)
        game_offsets.append(len(actions))
        returns.append(s.returns())
        seat_players.append(seat_of)
        game_seeds.append(gs)
        records.append(_core.record_to_json(_core.record_of(s, [names[q] for q in seat_of])))
    C, W = game.observation_shape["planes"][0], game.observation_shape["planes"][1]
    V = game.observation_shape["vector"][0]
    arrays = {
        "planes": np.stack(planes) if planes else np.zeros((0, C, W, W), np.uint8),
        "vector": np.stack(vectors).astype(np.float32) if vectors else np.zeros((0, V), np.float32),
        "legal_actions": np.asarray(legal, dtype=np.int64),
        "legal_offsets": np.asarray(legal_offsets, dtype=np.int64),
        "actions": np.asarray(actions, dtype=np.int64),
        "players": np.asarray(deciders, dtype=np.int8),
        "game_offsets": np.asarray(game_offsets, dtype=np.int64),
        "games": np.arange(start, stop, dtype=np.int64),
        "game_seeds": np.asarray(game_seeds, dtype=np.uint64),
        "returns": np.asarray(returns, dtype=np.float32).reshape(stop - start, k),
        "seat_players": np.asarray(seat_players, dtype=np.int8).reshape(stop - start, k),
        "records": np.asarray(records, dtype=np.str_),
        "value_features": (np.asarray(value_features, dtype=np.float32) if value_features
                           else np.zeros((0, k, len(_core.value_feature_names)), np.float32)),
    }
    return _npz_bytes(arrays), len(actions)


def _write_atomic(path, data):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_manifest(out_dir):
    """The manifest of a self-play directory (dict), or None when there is none."""
    path = os.path.join(out_dir, MANIFEST)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        m = json.load(f)
    if m.get("format") != SHARD_FORMAT:
        raise ValueError(f"{path}: not a {SHARD_FORMAT} manifest (format {m.get('format')!r})")
    return m


def read_shard(path):
    """The arrays of one shard (dict of numpy arrays; layout in docs/python.md)."""
    import numpy as np

    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def selfplay(client, players, games, out_dir, seed=1, rules=None, tileset="base", expansions=(),
             shard_size=100, radius=20, progress=False):
    """Plays ``games`` games (tournament game indices 0..games-1 of ``seed``, seats rotating as in
    a tournament) on the cluster and writes every decision to compressed shards
    ``out_dir/shard_NNNNNN.npz`` of ``shard_size`` games each, plus ``out_dir/manifest.json``
    (settings, and per shard its games, decisions and sha256). The client writes the files (no
    shared file system needed). Run again with the same settings, it keeps every finished shard
    whose file matches the manifest and plays only the rest (a larger ``games`` extends a run).
    Returns the manifest (dict) with ``"played"`` and ``"kept"`` shard counts of this call."""
    players = _check_players(players)
    games = _check_count("games", games)
    shard_size = _check_count("shard_size", shard_size)
    seed = _check_seed(seed)
    radius = _check_count("radius", radius, 1, 63)
    spec = rules_spec(rules, len(players), tileset, expansions)
    if spec["players"] != len(players):
        raise ValueError(f"rules are for {spec['players']} players, {len(players)} player specs given")
    os.makedirs(out_dir, exist_ok=True)
    game = _core.Game(_rules_from_spec(spec), radius=radius)
    settings = {
        "format": SHARD_FORMAT,
        "version": _core.__version__,
        "players": players,
        "names": [_core.Player(p, 0).name for p in players],
        "rules": spec,
        "rules_name": str(_rules_from_spec(spec)),
        "seed": seed,
        "shard_size": shard_size,
        "radius": radius,
        "observation": {"planes": list(game.observation_shape["planes"]),
                        "vector": list(game.observation_shape["vector"]),
                        "num_actions": game.num_actions},
    }
    old = read_manifest(out_dir)
    done = {}
    if old is not None:
        mismatch = [key for key in settings if old.get(key) != settings[key]]
        if mismatch:
            raise ValueError(f"{out_dir} holds a self-play run with other settings ({', '.join(mismatch)}); "
                             "use another directory")
        for sh in old.get("shards", []):
            path = os.path.join(out_dir, sh["file"])
            if os.path.exists(path) and _sha256_file(path) == sh["sha256"]:
                done[(sh["games"][0], sh["games"][1])] = sh
    ranges = _ranges(games, shard_size)
    shards = {}
    todo = []
    for n, (a, b) in enumerate(ranges):
        if (a, b) in done:
            shards[n] = done[(a, b)]
        else:
            todo.append((n, a, b))
    manifest = dict(settings, games=games, shards=[])

    def write_manifest():
        manifest["shards"] = [shards[n] for n in sorted(shards)]
        manifest["decisions"] = sum(sh["decisions"] for sh in manifest["shards"])
        manifest["complete"] = len(shards) == len(ranges)
        _write_atomic(os.path.join(out_dir, MANIFEST),
                      (json.dumps(manifest, indent=1) + "\n").encode("utf-8"))

    write_manifest()
    bar = _Progress(sum(b - a for _, a, b in todo), "games", progress)
    futures = {}
    for n, a, b in todo:
        f = client.submit(selfplay_range, spec, players, seed, a, b, radius, _core.__version__, pure=False,
                          key=f"carc-selfplay-{seed}-{a}-{b}-{time.time_ns()}")
        futures[f.key] = (f, n, a, b)
    try:
        for fut in _as_completed([v[0] for v in futures.values()]):
            data, decisions = fut.result()
            _, n, a, b = futures.pop(fut.key)
            fut.release()
            name = f"shard_{n:06d}.npz"
            _write_atomic(os.path.join(out_dir, name), data)
            shards[n] = {"file": name, "games": [a, b], "decisions": decisions,
                         "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            write_manifest()
            bar.add(b - a)
    except BaseException:
        client.cancel([v[0] for v in futures.values()])
        raise
    finally:
        bar.close()
    return dict(manifest, played=len(todo), kept=len(ranges) - len(todo))


# ---------------------------------------------------------------------------------------------
# Command line

def _connect(args):
    """(client, cluster or None): the scheduler at --scheduler, or a local cluster."""
    from distributed import Client, LocalCluster

    if args.scheduler:
        return Client(args.scheduler, timeout=args.timeout), None
    import dask

    # CPU-bound tasks on every core: less idle bookkeeping (profiler, event-loop ticks; docs/performance.md).
    dask.config.set({"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
                     "distributed.admin.system-monitor.interval": "2s"})
    cluster = LocalCluster(n_workers=args.workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=40)
    return Client(cluster), cluster


def _text_summary(s, out):
    names = [p["name"] for p in s["players"]]
    w = max(len(n) for n in names)
    out.write(f"tournament {s['rules']}: {s['games']} games, seats rotating, seed {s['seed']}, "
              f"{s['seconds']:.1f} s\n")
    for p in s["players"]:
        line = (f"  {p['name']:<{w}}  wins {100 * p['win_rate']:5.1f}%  (95% CI {100 * p['ci95'][0]:.1f}-"
                f"{100 * p['ci95'][1]:.1f}%)  mean score {p['mean_score']:.1f} "
                f"(95% CI {p['score_ci95'][0]:.1f}-{p['score_ci95'][1]:.1f})")
        if "mean_iterations_per_search" in p:
            line += f"  {p['mean_iterations_per_search']:.0f} iterations/search"
        out.write(line + "\n")
    out.write(f"  score difference {names[0]} - {names[1]}: {s['score_diff']:+.1f} "
              f"(95% CI {s['score_diff_ci95'][0]:+.1f} to {s['score_diff_ci95'][1]:+.1f})\n")
    out.write(f"  Elo difference   {names[0]} - {names[1]}: {s['elo_diff']:+.0f} "
              f"(95% CI {s['elo_ci95'][0]:+.0f} to {s['elo_ci95'][1]:+.0f})\n")
    out.write("  (ties count half; Elo from the head-to-head score fraction)\n")


def _parser():
    ap = argparse.ArgumentParser(prog="python3 -m carcassonne.distributed",
                                 description="Carcassonne tournaments and self-play on a Dask cluster.")
    sub = ap.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("--scheduler", metavar="ADDRESS",
                       help="Dask scheduler address (tcp://host:8786); default: a local cluster")
        p.add_argument("--workers", type=int, default=0,
                       help="local cluster: worker processes (1 thread each; default: one per core)")
        p.add_argument("--timeout", type=float, default=30, help="seconds to wait for the scheduler")
        p.add_argument("--players", required=True,
                       help="comma-separated player specs, one per seat (mcts:iterations=500,greedy)")
        p.add_argument("-n", "--games", type=int, default=100, help="number of games")
        p.add_argument("--seed", type=int, default=1, help="seed of the run (as carcassonne tournament)")
        # The names come from the engine's module table (src/engine/expansions/registry.h).
        p.add_argument("--tileset", default="base", help=" or ".join(_core.tile_sets()))
        p.add_argument("--expansions", default="", help="comma-separated: " + ",".join(_core.expansion_names()))
        p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="progress bar on stderr (default: when stderr is a terminal)")

    t = sub.add_parser("tournament", help="AI players against each other: win rates, scores, Elo difference")
    common(t)
    t.add_argument("--chunk", type=int, default=None, help="games per task (default: see docs/performance.md)")
    t.add_argument("--json", action="store_true", help="print one JSON object (the fields of carcassonne "
                   "tournament --json)")
    s = sub.add_parser("selfplay", help="self-play data: compressed shards of every decision plus a manifest")
    common(s)
    s.add_argument("--out", required=True, help="directory of the shards and manifest.json (resumes a run)")
    s.add_argument("--shard-size", type=int, default=100, help="games per shard (= per task)")
    s.add_argument("--radius", type=int, default=20, help="observation/action window radius")
    return ap


def main(argv=None):
    """Command-line entry point; returns the exit code (0 ok, 2 bad input, 1 run failure)."""
    args = _parser().parse_args(argv)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    expansions = [e for e in args.expansions.split(",") if e]
    try:
        players = _check_players(args.players)
        if args.workers < 0:
            raise ValueError(f"--workers must be >= 0, got {args.workers}")
        spec = rules_spec(None, len(players), args.tileset, expansions)
        _check_count("--games", args.games)
        _check_seed(args.seed)
        if getattr(args, "chunk", None) is not None:
            _check_count("--chunk", args.chunk)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        client, cluster = _connect(args)
    except (OSError, TimeoutError) as e:
        print(f"error: cannot reach the scheduler {args.scheduler}: {e}", file=sys.stderr)
        return 1
    try:
        if args.command == "tournament":
            text = tournament_json(client, players, args.games, seed=args.seed, rules=spec, chunk=args.chunk,
                                   progress=progress)
            if args.json:
                print(text)
            else:
                _text_summary(json.loads(text), sys.stdout)
        else:
            m = selfplay(client, players, args.games, args.out, seed=args.seed, rules=spec,
                         shard_size=args.shard_size, radius=args.radius, progress=progress)
            print(f"selfplay {m['rules_name']}: {m['games']} games in {len(m['shards'])} shards "
                  f"({m['played']} played, {m['kept']} kept), {m['decisions']} decisions, in {args.out}")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted (a self-play run resumes where it stopped)", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - a failed task or a lost scheduler: say what, exit 1
        print(f"error: the run failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
