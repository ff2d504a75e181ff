"""One picture of a bench run: per kernel, each contender's time over hand C's, as
grouped bars on a log scale (1 = as fast as hand C, below 1 = faster), labelled with
the ratio; the whiskers are the min-max spread of the repetitions."""
from __future__ import annotations

from pathlib import Path

COLOURS = {"cl2c": "#1f77b4", "PoCL": "#ff7f0e", "Intel": "#2ca02c", "hand C": "#7f7f7f"}


def draw(results: dict, labels: list, path: Path) -> str | None:
    """Write the PNG; None, or why there is no plot."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install '.[bench]')"
    rows = [r for r in results["rows"] if "median_ms" in r["results"].get("hand C", {})]
    if not rows:
        return "no kernel has a hand C time to compare with"
    names = [r["kernel"] + ("" if r["local"] == "None" else f"\nlocal {r['local']}")
             for r in rows]
    width = 0.8 / len(labels)
    fig, ax = plt.subplots(figsize=(max(10, 1.25 * len(rows)), 6.5))
    bars = []                                    # (x, ratio) of every bar, for the labels
    for k, label in enumerate(labels):
        xs, ys, lo, hi = [], [], [], []
        for i, r in enumerate(rows):
            res, hand = r["results"].get(label, {}), r["results"]["hand C"]["median_ms"]
            if "median_ms" not in res:
                continue
            y = res["median_ms"] / hand
            xs.append(i + (k - (len(labels) - 1) / 2) * width)
            ys.append(y)
            lo.append(y - res["min_ms"] / hand)
            hi.append(res["max_ms"] / hand - y)
        ax.bar(xs, ys, width, label=label, color=COLOURS.get(label), yerr=[lo, hi],
               capsize=2, error_kw={"elinewidth": 0.7, "alpha": 0.6})
        bars += zip(xs, ys)
    # The ratios are written at the foot of the bars, clear of the whiskers.
    bottom = min(y for _, y in bars) / 4
    ax.set_ylim(bottom=bottom)
    for x, y in bars:
        ax.text(x, bottom * 1.15, f"{y:.2g}", ha="center", va="bottom", fontsize=7,
                rotation=90, color="black")
    ax.set_yscale("log")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(names, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("time / hand C's time (log scale; lower is faster)")
    m = results["machine"]
    threads = m["env"].get("OMP_NUM_THREADS") or "default"
    others = ", ".join(label for label in labels if label != "hand C")
    commit = f", commit {results['commit']}" if results.get("commit") else ""
    ax.set_title(f"{others} against hand-written C+OpenMP: median time over hand C's\n"
                 f"{m['cpus']} CPUs, threads {threads}, load at start "
                 f"{m['loadavg_start']:.2f}; STREAM triad "
                 f"{results['stream_triad']['median_GB/s']:.1f} GB/s{commit}", fontsize=10)
    ax.legend(ncol=len(labels), fontsize=9, loc="upper left")
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None


if __name__ == "__main__":      # python bench/plot.py RESULTS.json PICTURE.png
    import json
    import sys
    data = json.loads(Path(sys.argv[1]).read_text())
    why = draw(data, list(data["contenders"]), Path(sys.argv[2]))
    if why is not None:
        sys.exit(f"plot.py: {why}")
