"""The claims table of the reports and the scoreboard: the claim with the paper's quoted
statement and its locator, paper and ours as short texts, the criterion, the deviation of the
criterion from the paper's sentence and the status as a coloured badge; the full values stay in
``claims.json``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from hierbn.studies.claims import (
    FAIL,
    NOT_COVERED,
    OUR_ORIGIN,
    PASS,
    REPORTED,
    STATUSES,
    brief,
)
from hierbn.studies.scale import FULL_SCALE

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
table.claims .scale { color: #57606a; font-size: 11px; margin-top: 3px; }
table.claims .scale.reduced { color: #9a6700; }
table.claims .cause { font-size: 11px; margin-top: 3px; color: #3d444d; }
span.ours { border: 1px solid #8c959f; border-radius: 8px; padding: 0 5px; font-size: 10px;
  font-weight: 400; color: #57606a; }
span.status { color: #fff; border-radius: 10px; padding: 1px 8px; white-space: nowrap;
  font-size: 12px; font-weight: 600; }
</style>
"""


TALLIES = ("paper scale", "reduced scale", "ours")
UNSCALED = "scale not recorded"  # a record made before verdicts carried their scale


def status_counts(claims: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Number of claims per status, every status present (zero when none)."""
    counts = Counter(c["status"] for c in claims)
    return {s: counts.get(s, 0) for s in STATUSES}


def tally_of(claim: Mapping[str, Any]) -> str:
    """Which count a claim goes to: the paper's claims judged at the paper's scale, those
    judged at a reduced scale, or our own checks (never in a paper's tally); a claim of a
    record made before scales were written goes to :data:`UNSCALED`."""
    if claim.get("origin") == OUR_ORIGIN:
        return "ours"
    if claim.get("scale") is None:
        return UNSCALED
    return "paper scale" if claim["scale"] == FULL_SCALE else "reduced scale"


def tallies(claims: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """:func:`status_counts` of each of :data:`TALLIES` (and of :data:`UNSCALED` when a claim
    has no scale)."""
    claims = list(claims)
    names = TALLIES + ((UNSCALED,) if any(tally_of(c) == UNSCALED for c in claims) else ())
    return {t: status_counts(c for c in claims if tally_of(c) == t) for t in names}


def counts_text(counts: Mapping[str, int]) -> str:
    """'12 pass, 3 fail, 3 not covered'."""
    return ", ".join(f"{counts[s]} {s}" for s in STATUSES)


def tallies_text(claims: Iterable[Mapping[str, Any]]) -> str:
    """The claims' :func:`tallies` that are not empty: 'paper scale: 9 pass, …; ours: …'."""
    return "; ".join(
        f"{tally}: {counts_text(counts)}"
        for tally, counts in tallies(claims).items()
        if sum(counts.values())
    )


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


def scale_html(scale: str | None) -> str:
    """The scale a verdict was judged at: 'paper scale', or the reductions."""
    if scale is None:
        return '<div class="scale reduced">scale not recorded</div>'
    if scale == FULL_SCALE:
        return '<div class="scale">paper scale</div>'
    return f'<div class="scale reduced">reduced: {escape(scale)}</div>'


def cause_html(entry: Mapping[str, Any]) -> str:
    """A miss's cause and its evidence (nothing for a pass or a claim without one)."""
    if not entry.get("cause"):
        return ""
    return (
        f'<div class="cause"><b>cause:</b> {escape(entry["cause"])}. '
        f"{escape(entry.get('evidence') or '')}</div>"
    )


def verdict_html(entry: Mapping[str, Any]) -> str:
    """A verdict's cell: its badge, the scale it was judged at and a miss's cause."""
    return f"<td>{badge(entry['status'])}{scale_html(entry.get('scale'))}{cause_html(entry)}</td>"


def recorded_html(claim: Mapping[str, Any]) -> str:
    """The recorded verdict's cell: its badge, our number in the record, the scale it was
    judged at, a miss's cause and the record's date; or why there is none."""
    record = claim.get("recorded")
    if not record:
        return '<td class="criterion">no record</td>'
    if record["status"] is None:
        return '<td class="criterion">not in the record</td>'
    ours = record.get("ours_text")
    ours_line = f'<div class="note">ours: {escape(ours)}</div>' if ours else ""
    return (
        f"<td>{badge(record['status'])}{ours_line}{scale_html(record.get('claim_scale'))}"
        f'{cause_html(record)}<div class="note">{escape(record["scale"])} run, '
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
        mark = ' <span class="ours" title="a check of ours, not a paper\'s sentence">ours</span>'
        cells += [
            f'<td class="id">{escape(c["id"])}{mark if c.get("origin") == OUR_ORIGIN else ""}</td>',
            f'<td class="claim">{escape(c["claim"])}{statement_html(c.get("statement"))}{note}</td>',
            f'<td class="paper">{escape(_text(c, "paper"))}</td>',
            f'<td class="ours">{escape(_text(c, "ours"))}</td>',
            f'<td class="criterion">{escape(c["criterion"])}</td>',
            deviation_html(c.get("deviation")),
            verdict_html(c),
        ]
        cells += [recorded_html(c)] * recorded
        rows.append("<tr>" + "".join(cells) + "</tr>")
    header = "".join(f"<th>{h}</th>" for h in head)
    return f'<table class="claims"><thead><tr>{header}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
