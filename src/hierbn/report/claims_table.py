"""The claims table of the reports and the scoreboard: the claim with the paper's quoted
statement and its locator, paper and ours as short texts, the criterion, the deviation of the
criterion from the paper's sentence and the status as a coloured badge; the full values stay in
``claims.json``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from hierbn.studies.claims import FAIL, NOT_COVERED, PASS, REPORTED, STATUSES, brief

STATUS_COLOURS = {PASS: "#1a7f37", FAIL: "#cf222e", NOT_COVERED: "#6e7781", REPORTED: "#8250df"}
CSS = """
<style>
table.claims { border-collapse: collapse; font: 13px/1.35 system-ui, sans-serif; width: 100%;
  table-layout: auto; }  /* JupyterLab's CSS fixes the layout: equal columns in the reports */
table.claims th, table.claims td { border-bottom: 1px solid #d0d7de; padding: 5px 8px;
  text-align: left !important; vertical-align: top; }
table.claims th { background: #f6f8fa; position: sticky; top: 0; white-space: nowrap; }
table.claims td { overflow-wrap: anywhere; }  /* long tokens wrap: the table fits the window */
table.claims td.id { white-space: nowrap; font-weight: 600; }
table.claims td.study { white-space: nowrap; }
table.claims td.criterion, table.claims .note { color: #57606a; font-size: 12px; }
table.claims blockquote { margin: 4px 0 2px; padding: 2px 8px; border-left: 3px solid #d0d7de;
  color: #3d444d; font-size: 12px; font-style: italic; }
table.claims .source { color: #57606a; font-size: 11px; font-style: normal; }
table.claims td.claim { min-width: 16em; }
table.claims td.paper, table.claims td.ours { min-width: 9em; }
table.claims td.criterion { min-width: 13em; max-width: 22em; }
table.claims td.deviation { font-size: 12px; color: #7d4e00; background: #fff8c5; min-width: 15em;
  max-width: 22em; }
table.claims td.deviation.none { background: none; color: #8c959f; }
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


def statement_html(statement: Mapping[str, str] | None) -> str:
    """The paper's sentence as a quote with its locator (nothing for older claims.json files)."""
    if not statement:
        return ""
    source = f"{statement['paper']}, {statement['locator']}"
    return (
        f"<blockquote>“{escape(statement['text'])}”"
        f'<div class="source">— {escape(source)}</div></blockquote>'
    )


def deviation_html(deviation: str | None) -> str:
    """The deviation cell: the text, or 'none' when the criterion is the paper's sentence."""
    if not deviation:
        return '<td class="deviation none">none</td>'
    return f'<td class="deviation">{escape(deviation)}</td>'


def recorded_html(claim: Mapping[str, Any]) -> str:
    """The recorded verdict's cell: its badge and scale, or why there is none."""
    record = claim.get("recorded")
    if not record:
        return '<td class="criterion">no record</td>'
    if record["status"] is None:
        return '<td class="criterion">not in the record</td>'
    return (
        f'<td>{badge(record["status"])}<div class="note">{escape(record["scale"])}, '
        f"{escape(record['date'])}{' (stale)' if record['stale'] else ''}</div></td>"
    )


def claims_html(
    claims: Iterable[Mapping[str, Any]], study: bool = False, recorded: bool = False
) -> str:
    """An HTML table of claims: [study,] id, claim (the paper's statement, the note), paper,
    ours, criterion, deviation from the paper's sentence, status [and the recorded status:
    a claim's ``recorded`` entry, see :func:`hierbn.report.record.with_recorded`]."""
    head = ["study"] * study + ["id", "claim", "paper", "ours", "criterion", "deviation", "status"]
    head += ["recorded"] * recorded
    rows = []
    for c in claims:
        note = f'<div class="note">{escape(c["note"])}</div>' if c.get("note") else ""
        cells = [f'<td class="study">{escape(c["study"])}</td>'] if study else []
        cells += [
            f'<td class="id">{escape(c["id"])}</td>',
            f'<td class="claim">{escape(c["claim"])}{statement_html(c.get("statement"))}{note}</td>',
            f'<td class="paper">{escape(_text(c, "paper"))}</td>',
            f'<td class="ours">{escape(_text(c, "ours"))}</td>',
            f'<td class="criterion">{escape(c["criterion"])}</td>',
            deviation_html(c.get("deviation")),
            f"<td>{badge(c['status'])}</td>",
        ]
        cells += [recorded_html(c)] * recorded
        rows.append("<tr>" + "".join(cells) + "</tr>")
    header = "".join(f"<th>{h}</th>" for h in head)
    return f'<table class="claims"><thead><tr>{header}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
