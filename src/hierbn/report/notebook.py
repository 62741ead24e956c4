"""What every report notebook does: read its declared inputs (the rule passes them as the
``inputs`` parameter, so a notebook never globs a results folder), show the claims table,
save and embed figures, and show the data-set check against the paper."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import HTML, Image, Markdown, display
from matplotlib.figure import Figure

from hierbn.io import read_json
from hierbn.report.claims_table import CSS, claims_html, tallies_text
from hierbn.report.plotting import save_figure
from hierbn.report.record import record_summary, with_recorded

DATA_REPORT_COLUMNS = [
    "paper_index",
    "paper_name",
    "id",
    "rows",
    "paper_rows",
    "attributes",
    "paper_attributes",
    "classes",
    "paper_classes",
    "missing_cells",
    "deviations",
]


class Report:
    """The declared inputs of a report (name -> path or list of paths) and its figure folder."""

    def __init__(self, inputs: dict[str, str | list[str]], figures_dir: str | Path) -> None:
        self.inputs = inputs
        self.figures = Path(figures_dir)
        # a report shows whole tables: Table 2 of beal2006 has 21 columns
        pd.set_option("display.max_columns", None)
        pd.set_option("display.max_rows", 500)
        pd.set_option("display.width", None)

    def paths(self, name: str) -> list[str]:
        if name not in self.inputs:
            raise KeyError(
                f"{name!r} is not a declared input of this report: {sorted(self.inputs)}"
            )
        value = self.inputs[name]
        return [value] if isinstance(value, str) else list(value)

    def table(self, name: str) -> pd.DataFrame:
        """The parquet table(s) of input ``name`` in one frame (empty when none were declared)."""
        frames = [pd.read_parquet(p) for p in self.paths(name)]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def claims(self) -> list[dict[str, Any]]:
        return read_json(self.paths("claims")[0])["claims"]

    def show_claims(self) -> None:
        """Status counts (the paper's claims at the paper's scale, at a reduced scale, and our
        own checks apart) and the claims table (short texts; full values in claims.json), with
        the committed record's verdicts beside this run's when the study has one."""
        claims = self.claims()
        display(Markdown(f"**{tallies_text(claims)}.**"))
        if "record" not in self.inputs:
            display(HTML(CSS + claims_html(claims)))
            return
        path = Path(self.paths("record")[0])
        record = record_summary(path, read_json(self.paths("claims")[0])["study"])
        stale = f" Stale: {'; '.join(record['stale'])}." if record["stale"] else ""
        display(
            Markdown(
                f"Recorded ({path.name}, {record['scale']} run, {record['date']}, commit "
                f"`{record['commit']}`): **{record['tallies_text']}**.{stale} The study "
                "README's Reproduction table explains every recorded miss."
            )
        )
        display(HTML(CSS + claims_html(with_recorded(claims, record), recorded=True)))

    def show(self, fig: Figure, name: str) -> None:
        """Save a figure as PNG + PDF in the figure folder and embed the PNG."""
        png, _ = save_figure(fig, self.figures, name)
        plt.close(fig)
        display(Image(filename=str(png)))

    @staticmethod
    def show_text_table(frame: pd.DataFrame) -> None:
        """A table of text, left-aligned, without the index."""
        styled = frame.style.hide(axis="index").set_properties(**{"text-align": "left"})
        display(
            HTML(
                styled.set_table_styles([{"selector": "th", "props": "text-align: left"}]).to_html()
            )
        )

    def data_report(self) -> pd.DataFrame:
        return pd.read_csv(self.paths("data_report")[0], sep="\t")

    def show_data_report(self) -> None:
        """Our data sets next to the paper's description of them."""
        with pd.option_context("display.max_rows", 200, "display.max_colwidth", 200):
            display(self.data_report()[DATA_REPORT_COLUMNS])
