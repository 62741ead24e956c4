"""The record every study writes to ``results/<study>/claims.json``: one headline claim with
the paper's value, ours, the criterion and a computed status."""

from __future__ import annotations

from typing import Any

PASS, FAIL, NOT_COVERED = "pass", "fail", "not covered"


def claim(
    cid: str, text: str, paper: Any, ours: Any, criterion: str, status: str, note: str = ""
) -> dict[str, Any]:
    """A claims.json entry; ``status`` is pass, fail or not covered."""
    if status not in (PASS, FAIL, NOT_COVERED):
        raise ValueError(f"claim {cid}: unknown status {status!r}")
    return {"id": cid, "claim": text, "paper": paper, "ours": ours, "criterion": criterion,
            "status": status, "note": note}  # fmt: skip


def status(ok: bool) -> str:
    """pass if ``ok`` else fail."""
    return PASS if ok else FAIL
