"""The record every study writes to ``results/<study>/claims.json``: one headline claim with
the paper's statement (quoted, with its locator), the paper's value, ours, the criterion that
tests the statement, a computed status and the ``deviation`` of the criterion from the
paper's sentence (a tolerance, substitute data, a decision; empty when the criterion is the
sentence as it stands), plus short human-readable texts of both values for the reports and the
scoreboard (the full values stay in the JSON).

A study's claims are one small function per claim, each taking the study's loaded results
and returning :func:`claim` (its status from :func:`status`), :func:`not_covered` (the run did
not make the data, sizes or structures the claim needs; the note says what it needs) or
:func:`reported` (a number shown beside the paper's that no criterion can judge: reported, not
judged, and not counted as a pass).

Every record also says at which ``scale`` it was judged (filled in by :func:`evaluate` from the
run's :class:`~hierbn.studies.scale.RunScale`: "paper" or the reductions the claim depends on),
whether it is one of the paper's claims or one of ``ours`` (``origin``), and, when it fails or
is not covered, its ``cause`` (one of :data:`CAUSES`) with one line of ``evidence``. A miss
judged below the paper's scale is put down to the reduced scale unless its claim function shows,
for every reduction its verdict depends on, that no outcome of what the run left out could turn
it (``robust_to``): then it is the paper's claim not holding."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from hierbn.studies.citations import Quote
from hierbn.studies.scale import FULL_SCALE, RunScale

PASS, FAIL, NOT_COVERED, REPORTED = "pass", "fail", "not covered", "reported, not judged"
STATUSES = (PASS, FAIL, NOT_COVERED, REPORTED)
MISSES = (FAIL, NOT_COVERED)
MAX_TEXT = 240

DOES_NOT_HOLD = "the paper's claim does not hold on our faithful run"
ERRATUM = "the paper's erratum"
REDUCED_SCALE = "reduced scale"
SUBSTITUTE = "substitute data or a substitute baseline"
OUR_DECISION = "our own decision"
CAUSES = (DOES_NOT_HOLD, ERRATUM, REDUCED_SCALE, SUBSTITUTE, OUR_DECISION)
PAPER_ORIGIN, OUR_ORIGIN = "paper", "ours"

R = TypeVar("R")


def claim(
    cid: str,
    text: str,
    paper: Any,
    ours: Any,
    criterion: str,
    status: str,
    note: str = "",
    *,
    statement: Quote | None = None,
    deviation: str = "",
    paper_text: str | None = None,
    ours_text: str | None = None,
    timing: bool = False,
    cause: str | None = None,
    evidence: str = "",
    ours_check: bool = False,
    robust_to: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A claims.json entry; ``status`` is one of :data:`STATUSES`. ``statement`` is the
    paper's sentence the claim tests (from the study's ``paper.py``), ``deviation`` what the
    criterion changes in it. ``paper_text`` and ``ours_text`` default to :func:`brief` of the
    values. ``timing`` marks a claim whose value (and so possibly its status) depends on
    wall-clock times: two identical runs agree on every other claim field for field, not on
    these. ``cause`` (one of :data:`CAUSES`) and ``evidence`` explain a miss (:func:`evaluate`
    gives a miss without one the default of :func:`default_cause`); ``ours_check`` marks a
    check of ours that is not a paper's sentence (counted apart from the paper's claims).
    ``robust_to`` maps a scale dimension's key to the evidence that no outcome of what the
    run's reduction of it left out could turn the miss (read by :func:`finished`, not
    written)."""
    if status not in STATUSES:
        raise ValueError(f"claim {cid}: unknown status {status!r}; expected one of {STATUSES}")
    if cause is not None and cause not in CAUSES:
        raise ValueError(f"claim {cid}: unknown cause {cause!r}; expected one of {CAUSES}")
    return {
        "id": cid,
        "claim": text,
        "statement": None if statement is None else statement.record(),
        "deviation": deviation,
        "paper": paper,
        "ours": ours,
        "criterion": criterion,
        "status": status,
        "note": note,
        "paper_text": brief(paper) if paper_text is None else paper_text,
        "ours_text": brief(ours) if ours_text is None else ours_text,
        "timing": timing,
        "origin": OUR_ORIGIN if ours_check else PAPER_ORIGIN,
        "scale": None,
        "cause": cause,
        "evidence": evidence,
        "robust_to": dict(robust_to or {}),
    }


def status(ok: bool) -> str:
    """pass if ``ok`` else fail."""
    return PASS if ok else FAIL


def not_covered(
    cid: str,
    text: str,
    paper: Any,
    criterion: str,
    why: str,
    *,
    statement: Quote | None = None,
    deviation: str = "",
    paper_text: str | None = None,
    ours: Any = None,
    ours_text: str | None = None,
    cause: str | None = None,
    evidence: str = "",
    ours_check: bool = False,
) -> dict[str, Any]:
    """A claim the run cannot evaluate at its scale; ``why`` says what it needs (data sets,
    sizes, structures) and is the note. ``ours`` is our number where the run has one that the
    claim's sentence is not about (a shorter chain's, say), shown beside the paper's."""
    return claim(
        cid,
        text,
        paper,
        ours,
        criterion,
        NOT_COVERED,
        why,
        statement=statement,
        deviation=deviation,
        paper_text=paper_text,
        ours_text=ours_text,
        cause=cause,
        evidence=evidence,
        ours_check=ours_check,
    )


def registry_deviation(registry: Sequence[str], paper_count: int, unmirrored: Sequence[str]) -> str:
    """The deviation of a claim over a paper's data sets judged on the ``registry``'s (those
    of the paper the data mirror holds): how many of the paper's ``paper_count``, and the
    ``unmirrored`` ones (the data mirror's MISSING.tsv) named when they make up the gap."""
    gap = paper_count - len(registry)
    absent = [d for d in unmirrored if d not in registry]
    named = f": {', '.join(absent)}" if gap and len(absent) == gap else ""
    rest = ""
    if gap > 0:
        verb = "is" if gap == 1 else "are"
        rest = f" (the other {gap} {verb} not in the data mirror{named})"
    return f"judged on the registry's {len(registry)} of the paper's {paper_count} data sets{rest}"


def reported(
    cid: str,
    text: str,
    paper: Any,
    ours: Any,
    why: str,
    *,
    statement: Quote | None = None,
    deviation: str = "",
    note: str = "",
    paper_text: str | None = None,
    ours_text: str | None = None,
    timing: bool = False,
    ours_check: bool = False,
) -> dict[str, Any]:
    """A number shown beside the paper's without a verdict (its own status, never a pass):
    ``why`` says why no criterion can judge it and becomes the criterion's text."""
    return claim(
        cid,
        text,
        paper,
        ours,
        f"reported, not judged: {why}",
        REPORTED,
        note,
        statement=statement,
        deviation=deviation,
        paper_text=paper_text,
        ours_text=ours_text,
        timing=timing,
        ours_check=ours_check,
    )


def default_cause(entry: Mapping[str, Any]) -> tuple[str, str]:
    """The cause of a miss whose claim function gave none: reduced scale when the claim was
    judged below the paper's scale (the evidence names the reductions), else the paper's claim
    not holding on our run (the evidence: ours against the paper's)."""
    if entry["scale"] != FULL_SCALE:
        return REDUCED_SCALE, f"judged on {entry['scale']}"
    return DOES_NOT_HOLD, f"ours {entry['ours_text']} against the paper's {entry['paper_text']}"


def robust_cause(entry: Mapping[str, Any], reduced: Sequence[str]) -> tuple[str, str] | None:
    """The cause of a miss judged below the paper's scale that no outcome of what the run left
    out could turn: the paper's claim not holding, when every reduced dimension of the claim
    (``reduced``) is one its claim function showed the miss ``robust_to``; else None."""
    robust = entry.get("robust_to") or {}
    if not reduced or any(k not in robust for k in reduced):
        return None
    return DOES_NOT_HOLD, "; ".join(robust[k] for k in reduced)


def finished(entry: dict[str, Any], scale: str, reduced: Sequence[str] = ()) -> dict[str, Any]:
    """The claim with its ``scale`` and, for a miss, its cause and evidence (the claim
    function's, else :func:`robust_cause` of the claim's ``reduced`` dimension keys, else
    :func:`default_cause`); a cause on a claim that does not miss is dropped."""
    out = {k: v for k, v in entry.items() if k != "robust_to"} | {"scale": scale}
    if out["status"] not in MISSES:
        return {**out, "cause": None, "evidence": ""}
    if out["cause"] is None:
        out["cause"], out["evidence"] = robust_cause(entry, reduced) or default_cause(out)
    if not out["evidence"]:
        raise ValueError(f"claim {out['id']}: a {out['status']} claim needs its cause's evidence")
    return out


def without_timing(claims: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The claims with what wall-clock time decides removed: the values, texts and status of
    ``timing`` claims (what two identical runs must agree on exactly)."""
    varying = ("ours", "ours_text", "status")
    return [{k: v for k, v in c.items() if not (c.get("timing") and k in varying)} for c in claims]


def evaluate(
    functions: Iterable[Callable[[R], dict[str, Any]]], results: R, scale: RunScale | None = None
) -> list[dict[str, Any]]:
    """Every claim function applied to the study's results, in order, each claim finished with
    its scale from ``scale`` (None: the run was at the paper's scale) and the cause of a miss
    (:func:`finished`); ids must be unique."""
    claims = [function(results) for function in functions]
    ids = [c["id"] for c in claims]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise ValueError(f"claim ids {duplicated} are returned by more than one claim function")
    scale = scale or RunScale()
    return [finished(c, scale.of(c["id"]), reduced_keys(scale, c["id"])) for c in claims]


def reduced_keys(scale: RunScale, cid: str) -> list[str]:
    """The keys of the claim's dimensions the run made less of than the paper (those
    :meth:`RunScale.of` writes). Here, not in :mod:`hierbn.studies.scale`: every paper.py
    imports that module, so it is part of every cached job's code key."""
    return [k for k in scale.keys.get(cid, tuple(scale.reduced)) if k in scale.reduced]


# --------------------------------------------------------------------- short texts
def num(value: Any, digits: int = 3) -> str:
    """A number with ``digits`` significant digits and thousands separators: 8,900; 0.0123;
    1.2e-05. Booleans read yes/no; None and NaN read as an em dash."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    x = float(value)
    if not math.isfinite(x):
        return "—" if math.isnan(x) else ("∞" if x > 0 else "−∞")
    if x == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(x)))
    if magnitude >= digits - 1:
        return f"{round(x, digits - 1 - magnitude):,.0f}"
    if magnitude < -3:
        return f"{x:.{digits}g}"
    decimals = max(digits - 1 - magnitude, 0)
    return f"{x:,.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{x:,.0f}"


def wdl(record: Mapping[str, Any]) -> str:
    """A win/draw/loss record as W-D-L, with the sign-test p when there is one."""
    text = f"{record['wins']}-{record['draws']}-{record['losses']}"
    return f"{text} (p = {num(record['p_value'], 2)})" if "p_value" in record else text


def brief(value: Any, limit: int = MAX_TEXT) -> str:
    """A compact one-line text of a claim value: numbers rounded, dicts as 'key: value; …'."""
    text = _brief(value)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _brief(value: Any) -> str:
    if isinstance(value, Mapping | list | tuple) and not value:
        return "—"
    if value is None or isinstance(value, bool | int | float):
        return num(value)
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return "; ".join(f"{k}: {_nested(v)}" for k, v in value.items())
    if isinstance(value, Sequence):
        return ", ".join(_nested(v) for v in value)
    return str(value)


def _nested(value: Any) -> str:
    text = _brief(value)
    return f"({text})" if isinstance(value, Mapping | list | tuple) and len(value) > 1 else text


def series(values: Mapping[Any, Any], label: str = "", digits: int = 3) -> str:
    """'label k1 v1 … label kn vn' shortened to the first and last entries: '8,900× (|X|=2) …
    38,000× (|X|=8)' style texts are built from this."""
    items = [f"{num(v, digits)} ({label}{k})" for k, v in values.items()]
    if not items:
        return "—"
    return items[0] if len(items) == 1 else f"{items[0]} … {items[-1]}"
