"""The reproduction record (``reproduction/<study>.json``, committed): one study's claims as a
finished run judged them, with what the run was (scale, config files, the study's config hash,
commit, date, cores, CPU, job count, core-hours) and digests of what the verdicts depend on
(the study's code, its rule file, its section of each config file), so that a later scoreboard
can show the record beside its own run and say when the record is stale and why."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path
from typing import Any

import yaml

from hierbn.machine import cpu_model
from hierbn.report.claims_table import status_counts, tallies, tallies_text

RECORD_VERSION = 2  # 2: each claim's scale, origin, cause and evidence (issue 41)
READABLE_VERSIONS = (1, 2)  # a version-1 record is shown without them until it is remade
CLAIM_FIELDS = ("id", "claim", "origin", "status", "scale", "cause", "evidence", "criterion",
                "deviation", "note", "paper_text", "ours_text")  # fmt: skip
RECORDED_FIELDS = ("status", "scale", "cause", "evidence", "ours_text")  # shown beside a run
SCALES = {"config/config.yaml": "default", "config/paper.yaml": "paper"}


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def study_sources(study: str, root: Path) -> dict[str, str]:
    """Digest of each file the study's verdicts come from: its package's Python modules and
    its rule file (paths relative to ``root``; the README, which holds the record's own
    explanations, is not one of them)."""
    package = root / "src" / "hierbn" / "studies" / study
    if not package.is_dir():
        raise ValueError(f"{package}: no such study package under {root}")
    files = [*sorted(package.rglob("*.py")), root / "workflow" / "rules" / f"{study}.smk"]
    return {
        str(path.relative_to(root)): _digest(path.read_bytes()) for path in files if path.is_file()
    }


def config_sections(study: str, config_files: list[str], root: Path) -> dict[str, str]:
    """Digest of the study's section of each config file of the checkout (``absent`` when the
    file has none); ``--config`` overrides and files outside the checkout (a scratch overlay
    that only disables the other studies, say) are not tracked."""
    sections = {}
    for name in config_files:
        path = root / name
        if name.startswith("--config") or not path.resolve().is_relative_to(root.resolve()):
            continue
        if not path.is_file():
            sections[name] = "file not found"
            continue
        section = (yaml.safe_load(path.read_text()) or {}).get(study)
        text = json.dumps(section, sort_keys=True, default=str).encode()
        sections[name] = "absent" if section is None else _digest(text)
    return sections


CACHE_CONFIGS = ("cache.yaml", "cache-store.yaml")  # reproduction/: the result cache on


def scale_name(config_files: list[str]) -> str:
    """'default', 'paper', or the overlays' names ('medium.yaml', 'paper + --config ...');
    ``reproduction/only-<study>.yaml`` only selects the study, and ``reproduction/cache.yaml``
    and ``cache-store.yaml`` only say where the expensive jobs' outputs come from (the result
    cache): they name no scale."""
    names = [SCALES.get(f, Path(f).name) for f in config_files if not _names_no_scale(f)]
    if len(names) > 1 and names[0] == "default":  # overlays name the scale
        names = names[1:]
    return " + ".join(names)


def _names_no_scale(name: str) -> bool:
    path = Path(name)
    return path.parent.name == "reproduction" and (
        path.name.startswith("only-") or path.name in CACHE_CONFIGS
    )


def make_record(
    study: str,
    scoreboard: dict[str, Any],
    root: Path,
    cores: int,
    scale: str | None = None,
    wall_seconds: float | None = None,
    date: str | None = None,
) -> dict[str, Any]:
    """The record of ``study`` from a finished run's ``scoreboard.json`` content. Core-hours
    are the summed seconds of the study's jobs from their benchmark files (each job on one
    core) / 3600; ``wall_seconds`` is the run's own wall time when the user measured it."""
    rows = [r for r in scoreboard["studies"] if r["study"] == study]
    if not rows:
        enabled = [r["study"] for r in scoreboard["studies"]]
        raise ValueError(f"the run has no study {study!r}; it ran {enabled}")
    row = rows[0]
    claims = [
        {k: c.get(k) for k in CLAIM_FIELDS} for c in scoreboard["claims"] if c["study"] == study
    ]
    files = row["config_files"]
    return {
        "version": RECORD_VERSION,
        "study": study,
        "scale": scale or scale_name(files),
        "config_files": files,
        "config_hash": row["config_hash"],
        "commit": row["commit"],
        "date": date or dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
        "cores": cores,
        "cpu": cpu_model(),
        "jobs": row["jobs"],
        "job_seconds": row["wall_seconds"],
        "core_hours": round(row["wall_seconds"] / 3600, 2),
        "wall_seconds": wall_seconds,
        "counts": status_counts(claims),
        "tallies": tallies(claims),
        "claims": claims,
        "sources": study_sources(study, root),
        "config_sections": config_sections(study, files, root),
    }


def staleness(record: dict[str, Any], root: Path) -> list[str]:
    """What changed since the record was made: each study file or rule file edited, added or
    removed, and each config file whose study section changed (empty: the record is current)."""
    study = record["study"]
    then, now = record["sources"], study_sources(study, root)
    changes = [
        f"{path} changed" for path in sorted(then) if path in now and now[path] != then[path]
    ]
    changes += [f"{path} removed" for path in sorted(set(then) - set(now))]
    changes += [f"{path} added" for path in sorted(set(now) - set(then))]
    current = config_sections(study, list(record["config_sections"]), root)
    changes += [
        f"{study} section of {name} changed"
        for name, digest in record["config_sections"].items()
        if current[name] != digest
    ]
    return changes


def restamp(record: dict[str, Any], root: Path, commit: str, reason: str, date: str) -> dict:
    """``record`` marked current again after a change that cannot move its verdicts (say, its
    rules now run the same commands through the result cache): the sources and config
    digests of the checkout at ``root``, with the change, the commit and the ``reason`` kept in
    ``restamps`` for every page to show. Refused when nothing changed or without a reason."""
    changes = staleness(record, root)
    if not changes:
        raise ValueError(f"the {record['study']} record is current: nothing to restamp")
    if not reason.strip():
        raise ValueError("a restamp needs the reason the change cannot move the verdicts")
    study = record["study"]
    stamp = {"commit": commit, "date": date, "reason": reason.strip(), "changes": changes}
    return {
        **record,
        "sources": study_sources(study, root),
        "config_sections": config_sections(study, list(record["config_sections"]), root),
        "restamps": [*record.get("restamps", []), stamp],
    }


def read_record(path: Path, study: str) -> dict[str, Any]:
    """A record file, checked to be ``study``'s and of a version this code reads."""
    record = json.loads(path.read_text())
    if record.get("study") != study or record.get("version") not in READABLE_VERSIONS:
        raise ValueError(
            f"{path}: expected a record of {study!r} of version {READABLE_VERSIONS}, got study "
            f"{record.get('study')!r} version {record.get('version')!r}"
        )
    return record


def record_path(root: Path, study: str) -> Path:
    """Where ``study``'s record lives in a checkout."""
    return root / "reproduction" / f"{study}.json"


def record_summary(path: Path, study: str) -> dict[str, Any]:
    """What a page shows of a record at ``<root>/reproduction/<study>.json``: scale, date,
    commit, counts, cost, and what changed since (``stale``, against the checkout at
    ``<root>``), with each claim's recorded status (``statuses``)."""
    record = read_record(path, study)
    return {
        **{k: record[k] for k in ("scale", "date", "commit", "counts", "cores", "core_hours")},
        "tallies": tallies(record["claims"]),
        "tallies_text": tallies_text(record["claims"]),
        "config_files": record["config_files"],
        "stale": staleness(record, path.resolve().parents[1]),
        "restamps": record.get("restamps", []),
        "statuses": {c["id"]: c["status"] for c in record["claims"]},
        "claims": {c["id"]: {k: c.get(k) for k in RECORDED_FIELDS} for c in record["claims"]},
    }


def with_recorded(claims: list[dict[str, Any]], summary: dict[str, Any] | None) -> list[dict]:
    """``claims`` each with its ``recorded`` entry for the claims table (the record's status,
    our number, the scale the claim was judged at as ``claim_scale``, a miss's cause and
    evidence; the record's run scale, date and staleness), or None when the study has no
    record."""
    if summary is None:
        return [{**c, "recorded": None} for c in claims]
    shown = {k: summary[k] for k in ("scale", "date")} | {"stale": bool(summary["stale"])}
    out = []
    for c in claims:
        entry = summary["claims"].get(c["id"], {"status": None})
        claim_fields = {k: entry.get(k) for k in RECORDED_FIELDS if k != "scale"}
        out.append({**c, "recorded": {**shown, **claim_fields, "claim_scale": entry.get("scale")}})
    return out
