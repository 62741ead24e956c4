"""The user's own data set of the panel's tiny config (``panel.datasets``), written by the test
harness into the work folder: 120 rows, a numeric column, a nominal one, the class in between;
one missing value in each attribute (an empty field and a ``?``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

USER_CSV = "user/mine.csv"


def write_inputs(work: Path) -> None:
    rng = np.random.default_rng(15)
    size = rng.normal(size=120).round(3)
    colour = rng.choice(["red", "green", "blue"], size=120)
    noise = rng.normal(scale=0.5, size=120)
    label = np.where(size + (colour == "red") + noise > 0.5, "yes", "no")
    lines = ["size,label,colour"] + [
        f"{s},{y},{c}" for s, y, c in zip(size, label, colour, strict=True)
    ]
    lines[4] = f",{label[3]},{colour[3]}"  # missing size
    lines[9] = f"{size[8]},{label[8]},?"  # missing colour
    path = work / USER_CSV
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
