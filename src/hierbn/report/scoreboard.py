"""The scoreboard (``results/index.html`` and ``results/scoreboard.json``): per enabled study
the pass / fail / not-covered / reported-not-judged counts of the paper's claims judged at the
paper's scale, of those judged at a reduced scale and of our own checks (never in a paper's
tally), the run's config files and a short hash of the study's effective config, the commit,
the wall time of its jobs and a link to its report; below, every claim of every study with
the scale of its verdict and the cause of every miss."""

from __future__ import annotations

import os
from html import escape
from pathlib import Path
from typing import Any

from hierbn.io import read_json
from hierbn.report.claims_table import (
    CSS,
    TALLIES,
    claims_html,
    counts_text,
    status_counts,
    tallies,
)
from hierbn.report.record import record_summary, with_recorded
from hierbn.report.runtime import hms
from hierbn.studies import study_module
from hierbn.studies.claims import NOT_COVERED, REPORTED

PAGE_CSS = """
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px 32px; color: #1f2328; }
h1 { margin-bottom: 4px; } .lead { color: #57606a; margin-top: 0; }
table.studies { border-collapse: collapse; margin: 12px 0 28px; }
table.studies th, table.studies td { border-bottom: 1px solid #d0d7de; padding: 6px 10px;
  text-align: left; vertical-align: top; }
table.studies th { background: #f6f8fa; } td.num { text-align: right; white-space: nowrap; }
.pass { color: #1a7f37; font-weight: 600; } .fail { color: #cf222e; font-weight: 600; }
.nc { color: #6e7781; } .rep { color: #8250df; }
.stale { color: #9a6700; font-size: 12px; } code { font-size: 12px; } .small { color: #57606a; font-size: 12px; }
</style>
"""


def build_scoreboard(
    studies: list[str],
    claims_paths: list[str],
    runtime_paths: list[str],
    report_paths: list[str],
    run: dict[str, Any],
    page: str | Path,
    record_paths: list[str] = (),
) -> dict[str, Any]:
    """The scoreboard record; ``run`` holds config_files, config_hash (per study) and commit;
    report links are relative to the ``page`` that will show them. ``record_paths`` are the
    committed records (``<checkout>/reproduction/<study>.json``) shown beside the run, each
    checked for staleness against its checkout."""
    records = {}
    for path in map(Path, record_paths):
        records[path.stem] = record_summary(path, path.stem)
    if not len(studies) == len(claims_paths) == len(runtime_paths) == len(report_paths):
        raise ValueError("scoreboard: one claims, runtime and report file per study is needed")
    rows, claims = [], []
    for study, claims_path, runtime_path, report in zip(
        studies, claims_paths, runtime_paths, report_paths, strict=True
    ):
        payload = read_json(claims_path)
        if payload.get("study") != study:
            raise ValueError(f"{claims_path}: claims of {payload.get('study')!r}, not {study!r}")
        package = study_module(study)
        runtime = read_json(runtime_path)
        rows.append(
            {
                "study": study,
                "title": package.TITLE,
                "citation": package.CITATION,
                "counts": status_counts(payload["claims"]),
                "tallies": tallies(payload["claims"]),
                "claims": len(payload["claims"]),
                "config_files": run["config_files"],
                "config_hash": run["config_hash"][study],
                "commit": run["commit"],
                "wall_seconds": runtime["seconds"],
                "jobs": runtime["jobs"],
                "restored_jobs": runtime.get("restored_jobs", 0),
                "report": os.path.relpath(report, Path(page).parent),
                "record": records.get(study),
            }
        )
        recorded = with_recorded(payload["claims"], records.get(study))
        claims += [{"study": study, **c} for c in recorded]
    return {"run": run, "studies": rows, "claims": claims}


def _counts_cell(counts: dict[str, int]) -> str:
    """pass / fail / not covered / reported, coloured; a dash when the tally is empty."""
    if not sum(counts.values()):
        return '<td class="num nc">—</td>'
    return (
        f'<td class="num"><span class="pass">{counts["pass"]}</span> / <span class="fail">'
        f'{counts["fail"]}</span> / <span class="nc">{counts[NOT_COVERED]}</span> / '
        f'<span class="rep">{counts[REPORTED]}</span></td>'
    )


def _study_row(row: dict[str, Any]) -> str:
    files = ", ".join(f"<code>{escape(f)}</code>" for f in row["config_files"])
    return (
        "<tr>"
        f'<td><a href="{escape(row["report"])}"><b>{escape(row["study"])}</b></a><br>'
        f'<span class="small">{escape(row["citation"])}: {escape(row["title"])}</span></td>'
        + "".join(_counts_cell(row["tallies"][t]) for t in TALLIES)
        + f"<td>{files}<br><span class=small>config hash <code>{escape(row['config_hash'])}"
        "</code></span></td>"
        f"<td><code>{escape(row['commit'])}</code></td>"
        f'<td class="num">{hms(row["wall_seconds"])}<br><span class="small">{row["jobs"]} jobs'
        f"{_restored_note(row.get('restored_jobs', 0))}</span></td>"
        f"{_record_cell(row.get('record'))}"
        f'<td><a href="{escape(row["report"])}">report</a></td>'
        "</tr>"
    )


def _restored_note(restored: int) -> str:
    """How many jobs came from the result cache (their seconds are the computing run's)."""
    return f", {restored} from the result cache" if restored else ""


def _record_cell(record: dict[str, Any] | None) -> str:
    """The recorded verdicts of a study: counts, scale, date, commit, cost; a stale record
    names what changed since, a restamped one why a change since could not move it."""
    if record is None:
        return '<td class="small">none yet (<code>reproduction/README.md</code>)</td>'
    stale = ""
    if record["stale"]:
        shown = "; ".join(record["stale"][:4]) + ("; ..." if len(record["stale"]) > 4 else "")
        stale = f'<br><span class="stale">stale: {escape(shown)}</span>'
    for stamp in record.get("restamps", []):
        stale += (
            f'<br><span class="small">restamped at <code>{escape(stamp["commit"])}</code>: '
            f"{escape(stamp['reason'])}</span>"
        )
    return (
        f'<td><span class="small">{escape(record["tallies_text"])}</span><br><span class="small">'
        f"{escape(record['scale'])} run, {escape(record['date'])}, <code>"
        f"{escape(record['commit'])}</code>, {record['core_hours']} core-h on "
        f"{record['cores']} cores</span>{stale}</td>"
    )


def render_html(board: dict[str, Any]) -> str:
    """The scoreboard page: its headline counts only the paper's claims judged at the paper's
    scale; reduced-scale verdicts and our own checks have counts of their own."""
    counts = tallies(board["claims"])
    columns = ("study", *(f"{t}: pass / fail / not covered / reported" for t in TALLIES),
               "config", "commit", "job time (sum)", "recorded", "")  # fmt: skip
    head = "".join(f"<th>{h}</th>" for h in columns)
    studies = "".join(_study_row(r) for r in board["studies"])
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>hierbn scoreboard</title>{PAGE_CSS}{CSS}</head><body>"
        "<h1>hierbn scoreboard</h1>"
        '<p class="lead">Which headline claims of each paper this run reproduces, over '
        f"{len(board['studies'])} studies. <b>At the paper's scale: "
        f"{counts_text(counts['paper scale'])}.</b> At a reduced scale (fewer iterations, "
        f"draws, runs, data sets or sizes than the paper; each verdict names them): "
        f"{counts_text(counts['reduced scale'])}. Our own checks, not a paper's sentence and "
        f"never in a paper's tally: {counts_text(counts['ours'])}. Each claim quotes the "
        "paper's sentence it tests; its criterion reads the paper's words through the one "
        "table of readings (<code>docs/readings.md</code>), and where it cannot (a tolerance, "
        "substitute data, a decision) the <i>deviation</i> column says how it differs. Every "
        "verdict shows the scale it was judged at; every fail or not-covered claim its cause "
        "(the paper's claim does not hold on our faithful run, the paper's erratum, reduced "
        "scale, substitute data or baseline, our own decision) with one line of evidence. "
        "<i>Not covered</i>: the run did not make the data, sizes or structures the claim "
        "needs (the note says which); <i>reported, not judged</i>: our number is shown beside "
        "the paper's but no criterion can judge it, and it never counts as a pass. Each "
        "study's report has its tables and figures next to the paper's; "
        "<code>claims.json</code> has the full values behind every short text below. "
        "<i>Recorded</i>: the verdicts of the largest run made of each study, committed in "
        "<code>reproduction/</code> with our number, its scale and cause; <i>stale</i> when "
        "the study's code, rules or config section changed since (the study README's "
        "Reproduction table explains every recorded miss). <i>Job time</i>: the wall times of "
        "the study's jobs summed (about its core time), not how long the run took; a job "
        "taken from the result cache counts with the seconds of the run that computed it.</p>"
        f'<table class="studies"><thead><tr>{head}</tr></thead><tbody>{studies}</tbody></table>'
        "<h2>Every claim</h2>"
        f"{claims_html(board['claims'], study=True, recorded=True)}</body></html>\n"
    )
