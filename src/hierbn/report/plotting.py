"""Shared plotting helpers: paired boxplots and saving figures as PNG + PDF."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from hierbn.io import write_with


def save_figure(fig: Figure, directory: str | Path, name: str) -> list[Path]:
    """Save ``fig`` as ``name.png`` and ``name.pdf`` under ``directory`` (each atomically)."""
    out = Path(directory)
    paths = [out / f"{name}.png", out / f"{name}.pdf"]
    for path in paths:
        write_with(
            path,
            lambda tmp, fmt=path.suffix[1:]: fig.savefig(
                tmp, format=fmt, dpi=150, bbox_inches="tight"
            ),
        )
    return paths


def grouped_boxplot(
    ax: Axes,
    frame: pd.DataFrame,
    x: str,
    group: str,
    colors: dict[str, str],
    labels: dict | None = None,
) -> None:
    """Boxes of ``value`` for each x level, one coloured box per group side by side.

    ``labels`` optionally maps x levels to tick labels (levels are sorted by value)."""
    levels = sorted(frame[x].unique())
    groups = [g for g in colors if g in set(frame[group])]
    width = 0.8 / max(len(groups), 1)
    for k, g in enumerate(groups):
        data = [
            frame[(frame[x] == lv) & (frame[group] == g)]["value"].dropna().to_numpy()
            for lv in levels
        ]
        positions = np.arange(len(levels)) + (k - (len(groups) - 1) / 2) * width
        keep = [i for i, d in enumerate(data) if d.size]
        if not keep:
            continue
        parts = ax.boxplot(
            [data[i] for i in keep],
            positions=positions[keep],
            widths=width * 0.9,
            patch_artist=True,
            showfliers=True,
            flierprops={"markersize": 2},
        )
        for patch in parts["boxes"]:
            patch.set_facecolor(colors[g])
            patch.set_alpha(0.8)
        ax.plot([], [], color=colors[g], lw=6, label=g)
    ax.set_xticks(np.arange(len(levels)))
    ax.set_xticklabels([str(labels[lv]) if labels else str(lv) for lv in levels])
    ax.set_xlabel(x)


def new_figure(
    rows: int, cols: int, width: float = 3.2, height: float = 2.6
) -> tuple[Figure, np.ndarray]:
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    return fig, axes
