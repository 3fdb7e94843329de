"""Trains the value network of ``mcts:eval=net`` (src/ai/value_net.h) from self-play shards.

    python3 -m carcassonne.train_value --shards DIR [DIR ...] --out data/nets/value.txt

The shards are those of ``python3 -m carcassonne.distributed selfplay`` (one machine or a Dask cluster):
each decision carries ``value_features`` (the network's inputs for every seat, computed by the engine's
C++ code, the same that MCTS calls in play) and each game its final scores. The target of seat p at a
decision is p's final margin (own final score minus the best other seat's), in units of 50 points.

Training is reproducible: games are split into training and validation sets by a seeded permutation,
torch is seeded, and it runs on the CPU with one thread unless told otherwise. It prints a progress bar,
the loss curves (training and validation mean squared error per epoch, beside the heuristic's own
error: the identity network), and writes the weights in the text format value_net.h reads, with a
header saying how they were made. ``scripts/train-value-net.sh`` runs the whole pipeline.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

from . import _core

FORMAT = "carcassonne-value-net/1"


def load_examples(dirs):
    """(features (N, F) float32, targets (N,) float32, game ids (N,) int64) from every shard in `dirs`."""
    from .distributed import read_manifest, read_shard

    xs, ys, gids = [], [], []
    next_gid = 0
    for d in dirs:
        m = read_manifest(d)
        if m is None:
            raise ValueError(f"{d}: no manifest.json (run python3 -m carcassonne.distributed selfplay --out {d})")
        for sh in m["shards"]:
            z = read_shard(os.path.join(d, sh["file"]))
            if "value_features" not in z:
                raise ValueError(f"{d}/{sh['file']}: no value_features (a shard from before the value network; "
                                 "play it again with this version)")
            vf, off, scores = z["value_features"], z["game_offsets"], z["returns"]
            k = scores.shape[1]
            for g in range(len(off) - 1):
                a, b = int(off[g]), int(off[g + 1])
                final = scores[g]
                for p in range(k):
                    others = [final[q] for q in range(k) if q != p]
                    margin = (final[p] - max(others)) / 50.0
                    xs.append(vf[a:b, p, :])
                    ys.append(np.full(b - a, margin, np.float32))
                    gids.append(np.full(b - a, next_gid, np.int64))
                next_gid += 1
    if not xs:
        raise ValueError("no decisions in the shards")
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gids)


def forward(w, x):
    """The network of a weights dict on features x (N, F) in numpy: value_net.cc's predict, in points."""
    x = np.asarray(x, np.float64)
    h = np.tanh(x @ np.asarray(w["w1"], np.float64).T + np.asarray(w["b1"], np.float64))
    return 50.0 * (h @ np.asarray(w["wout"], np.float64) + float(w["bout"]) + x @ np.asarray(w["skip"], np.float64))


def _bar(done, total, width=30):
    n = int(width * done / max(1, total))
    return "[" + "#" * n + "." * (width - n) + f"] {done}/{total}"


def train(x, y, gid, hidden=16, epochs=30, lr=3e-3, batch=512, seed=1, val_share=0.2, threads=1, log=sys.stderr):
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(max(1, threads))
    rng = np.random.default_rng(seed)
    games = np.unique(gid)
    rng.shuffle(games)
    val_games = set(games[: max(1, int(len(games) * val_share))].tolist())
    is_val = np.fromiter((g in val_games for g in gid), bool, len(gid))
    xt, yt = torch.from_numpy(x[~is_val]), torch.from_numpy(y[~is_val])
    xv, yv = torch.from_numpy(x[is_val]), torch.from_numpy(y[is_val])
    F = x.shape[1]

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.l1 = torch.nn.Linear(F, hidden)
            self.out = torch.nn.Linear(hidden, 1)
            self.skip = torch.nn.Linear(F, 1, bias=False)
            with torch.no_grad():  # start at the identity: the heuristic's margin (feature 0)
                self.out.weight.mul_(0.1)
                self.out.bias.zero_()
                self.skip.weight.zero_()
                self.skip.weight[0, 0] = 1.0

        def forward(self, v):
            return (self.out(torch.tanh(self.l1(v))) + self.skip(v)).squeeze(-1)

    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    mse = torch.nn.MSELoss()
    base_t = float(((xt[:, 0] - yt) ** 2).mean())
    base_v = float(((xv[:, 0] - yv) ** 2).mean())
    print(f"examples: {len(xt)} training, {len(xv)} validation ({len(games)} games x seats); "
          f"the heuristic alone: MSE {base_t:.4f} / {base_v:.4f} (RMSE {50 * math.sqrt(base_v):.1f} points)", file=log)
    curve = []
    n = len(xt)
    g = torch.Generator().manual_seed(seed)
    for epoch in range(1, epochs + 1):
        perm = torch.randperm(n, generator=g)
        t0 = time.time()
        total = 0.0
        steps = (n + batch - 1) // batch
        for i in range(steps):
            idx = perm[i * batch:(i + 1) * batch]
            opt.zero_grad()
            loss = mse(net(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
            total += float(loss) * len(idx)
            if log.isatty() and (i % 50 == 0 or i == steps - 1):
                print(f"\repoch {epoch:3d} {_bar(i + 1, steps)}", end="", file=log, flush=True)
        with torch.no_grad():
            v = float(mse(net(xv), yv))
        curve.append((epoch, total / n, v))
        end = "\r" if log.isatty() else ""
        print(f"{end}epoch {epoch:3d}  train MSE {total / n:.4f}  validation MSE {v:.4f} "
              f"(RMSE {50 * math.sqrt(v):.1f} points)  {time.time() - t0:.1f}s", file=log, flush=True)
    w1 = net.l1.weight.detach().numpy()
    b1 = net.l1.bias.detach().numpy()
    wout = net.out.weight.detach().numpy()[0]
    bout = float(net.out.bias.detach().numpy()[0])
    skip = net.skip.weight.detach().numpy()[0]
    return {"w1": w1, "b1": b1, "wout": wout, "bout": bout, "skip": skip, "curve": curve,
            "baseline": (base_t, base_v), "examples": (len(xt), len(xv))}


def weights_text(w, header_lines):
    f = len(w["skip"])
    h = len(w["b1"])
    num = lambda a: " ".join(f"{float(v):.7g}" for v in np.ravel(a))  # noqa: E731
    lines = [f"# {line}" for line in header_lines]
    lines += [FORMAT, f"features {f} hidden {h}"]
    lines += [num(row) for row in w["w1"]]
    lines += [num(w["b1"]), num(w["wout"]), num([w["bout"]]), num(w["skip"])]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m carcassonne.train_value", description=__doc__.split("\n\n")[0])
    ap.add_argument("--shards", nargs="+", required=True, help="self-play directories (manifest.json + shards)")
    ap.add_argument("--out", required=True, help="the weights file to write (data/nets/value.txt is the built-in one)")
    ap.add_argument("--hidden", type=int, default=16, help="hidden units (default 16; at most 256)")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    ap.add_argument("--curve", help="also write the loss curve as JSON here")
    a = ap.parse_args(argv)
    if not 1 <= a.hidden <= 256:
        ap.error("--hidden must be 1..256")
    if a.epochs < 1 or a.batch < 1 or not a.lr > 0:
        ap.error("--epochs and --batch must be >= 1, --lr > 0")
    try:
        import torch  # noqa: F401
    except ImportError:
        ap.exit(2, "train_value: PyTorch is not importable (Debian: apt install python3-torch; "
                   "scripts/train-value-net.sh installs it)\n")
    x, y, gid = load_examples(a.shards)
    w = train(x, y, gid, hidden=a.hidden, epochs=a.epochs, lr=a.lr, batch=a.batch, seed=a.seed, threads=a.threads)
    manifests = [json.load(open(os.path.join(d, "manifest.json"))) for d in a.shards]
    header = [f"Trained by python3 -m carcassonne.train_value (carcassonne {_core.__version__}) on "
              f"{w['examples'][0] + w['examples'][1]} decisions x seats of {len(np.unique(gid))} games: "
              + ", ".join(f"{','.join(m.get('players', []))} ({m.get('rules_name')}, seed {m.get('seed')}, "
                          f"{sum(sh['games'][1] - sh['games'][0] for sh in m['shards'])} games)"
                          for m in manifests) + ".",
              f"hidden {a.hidden}, epochs {a.epochs}, lr {a.lr}, batch {a.batch}, seed {a.seed}. Final validation MSE "
              f"{w['curve'][-1][2]:.4f} against the heuristic's {w['baseline'][1]:.4f} (units of 50 points).",
              "Features: " + ", ".join(_core.value_feature_names) + "."]
    text = weights_text(w, header)
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, a.out)
    if a.curve:
        with open(a.curve, "w") as f:
            json.dump({"epochs": [c[0] for c in w["curve"]], "train_mse": [c[1] for c in w["curve"]],
                       "validation_mse": [c[2] for c in w["curve"]], "heuristic_mse": list(w["baseline"])}, f)
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
