"""The claims table of the reports and the scoreboard: paper and ours as short texts, the
status as a coloured badge; the full values stay in ``claims.json``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from hierbn.studies.claims import FAIL, NOT_COVERED, PASS, STATUSES, brief

STATUS_COLOURS = {PASS: "#1a7f37", FAIL: "#cf222e", NOT_COVERED: "#6e7781"}
CSS = """
<style>
table.claims { border-collapse: collapse; font: 13px/1.35 system-ui, sans-serif; width: 100%; }
table.claims th, table.claims td { border-bottom: 1px solid #d0d7de; padding: 5px 8px;
  text-align: left !important; vertical-align: top; }
table.claims th { background: #f6f8fa; position: sticky; top: 0; }
table.claims td.id { white-space: nowrap; font-weight: 600; }
table.claims td.criterion, table.claims .note { color: #57606a; font-size: 12px; }
span.status { color: #fff; border-radius: 10px; padding: 1px 8px; white-space: nowrap;
  font-size: 12px; font-weight: 600; }
</style>
"""


def status_counts(claims: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Number of claims per status, every status present (zero when none)."""
    counts = Counter(c["status"] for c in claims)
    return {s: counts.get(s, 0) for s in STATUSES}


def counts_text(counts: Mapping[str, int]) -> str:
    """'12 pass, 3 fail, 3 not covered'."""
    return ", ".join(f"{counts[s]} {s}" for s in STATUSES)


def badge(status: str) -> str:
    colour = STATUS_COLOURS.get(status, "#6e7781")
    return f'<span class="status" style="background:{colour}">{escape(status)}</span>'


def _text(entry: Mapping[str, Any], key: str) -> str:
    """The short text of paper/ours (older claims.json files without texts: brief(value))."""
    text = entry.get(f"{key}_text")
    return text if text is not None else brief(entry.get(key))


def claims_html(claims: Iterable[Mapping[str, Any]], study: bool = False) -> str:
    """An HTML table of claims: [study,] id, claim (and note), paper, ours, criterion, status."""
    head = ["study"] * study + ["id", "claim", "paper", "ours", "criterion", "status"]
    rows = []
    for c in claims:
        note = f'<div class="note">{escape(c["note"])}</div>' if c.get("note") else ""
        cells = [f"<td>{escape(c['study'])}</td>"] if study else []
        cells += [
            f'<td class="id">{escape(c["id"])}</td>',
            f"<td>{escape(c['claim'])}{note}</td>",
            f"<td>{escape(_text(c, 'paper'))}</td>",
            f"<td>{escape(_text(c, 'ours'))}</td>",
            f'<td class="criterion">{escape(c["criterion"])}</td>',
            f"<td>{badge(c['status'])}</td>",
        ]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    header = "".join(f"<th>{h}</th>" for h in head)
    return f'<table class="claims"><thead><tr>{header}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
