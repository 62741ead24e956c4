"""A study's wall time, summed from the Snakemake benchmark files of its jobs."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd


def summarise_benchmarks(paths: Iterable[str | Path]) -> dict[str, Any]:
    """Jobs, total wall seconds (mean over a job's repeats) and the largest max RSS (MB). A job
    whose outputs came from the result cache counts with the computing run's seconds and memory
    (its receipt, :func:`hierbn.result_cache.receipt_of`); ``restored_jobs`` counts them."""
    from hierbn.result_cache import receipt_of

    seconds, rss, jobs, restored = 0.0, 0.0, 0, 0
    for path in paths:
        table = pd.read_csv(path, sep="\t")
        if "s" not in table.columns:
            raise ValueError(f"{path}: not a Snakemake benchmark file (no 's' column)")
        receipt = receipt_of(path)
        if receipt.is_file():
            cost = json.loads(receipt.read_text())
            seconds += float(cost["seconds"])
            rss = max(rss, float(cost.get("max_rss_mb") or 0.0))
            restored += 1
        else:
            seconds += float(pd.to_numeric(table["s"], errors="coerce").mean())
            job_rss = pd.to_numeric(table.get("max_rss", pd.Series(dtype=float)), errors="coerce")
            if job_rss.notna().any():
                rss = max(rss, float(job_rss.max()))
        jobs += 1
    return {
        "jobs": jobs,
        "seconds": round(seconds, 2),
        "max_rss_mb": round(rss, 1),
        "restored_jobs": restored,
    }


def hms(seconds: float) -> str:
    """'1 h 02 min', '3 min 05 s' or '42 s'."""
    total = round(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"
