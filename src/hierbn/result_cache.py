"""The result cache: the outputs of expensive jobs kept under a key of everything that made them,
so that a paper-scale run regenerates its tables, figures and verdicts without recomputing.

Why not Snakemake's between-workflow cache (``cache:``, ``--cache``): Snakemake 9 refuses it
on a rule with ``benchmark:`` (every rule here has one, and the scoreboard's cost and the
records' core-hours are read from them), and its provenance hash covers a rule's command
template and params, not its wildcards nor the Python package the command imports. This cache
is keyed the same way, by what made the output, with those gaps closed:

- the job's command line (its step, config, seed, wildcards and paths; the thread count
  aside, since a job gives the same numbers at any ``--threads``);
- the code key of the job (:mod:`hierbn.code_key`: every ``hierbn`` file the step can run and
  the declared dependencies), passed by the rule as a param;
- the content of each input: a table's columns, types and values (not its parquet bytes, which
  carry the writer's version), a JSON file without its machine-specific values (absolute
  paths, seconds), any other file's bytes. Upstream changes (a converter, the registry, a
  prepare step) change the inputs and so the key.

An entry is a folder ``<cache>/<step>/<key>/`` (the step: ``petitjean2018-cv`` for
``hierbn petitjean2018 cv …``) with the outputs under their run paths and
``job.json`` (the key's ingredients, the command, its seconds and memory, when and where it ran).
On a hit the outputs are copied into place and a receipt beside the job's benchmark file keeps
the computing run's cost, which the study's runtime reports instead of the copy's.

An entry's parquet tables are stored compactly (:func:`copy_compact`): the same columns, types,
values and pandas metadata, written with zstd and the byte-stream-split encoding of floating
columns (a third smaller than the jobs' snappy files on draws and scores, which keeps the
committed cache under its 100 MB). Only the bytes differ, and nothing downstream reads bytes:
readers read values, and an input enters a key by its values. The writing does not enter any
job's code key (this module is in no step's import closure), so entries stored before keep
their keys; ``hierbn cache compact`` re-encodes them in place.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import random
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from hierbn.machine import cpu_model, numeric_platform

FOLDER_VARIABLE = "HIERBN_RESULT_CACHE"  # the cache folder; unset or empty: no cache
STORE_VARIABLE = "HIERBN_RESULT_CACHE_STORE"  # "1": store what is computed on a miss
ENTRY_FILE = "job.json"
RECEIPT_SUFFIX = ".restored.json"
THREAD_OPTIONS = ("--threads",)
MAX_METRICS_NAMED = 5  # a failed comparison names at most this many metrics of its rows


TIMING_LABELS = ("metric", "method")  # the columns naming what a tidy table's row measures


def is_timing(name: str) -> bool:
    """A column or metric that measures time (``seconds``, ``fit_seconds``): it differs between
    two runs of the same job and is left out of every comparison."""
    return name == "seconds" or name.endswith("_seconds")


# ------------------------------------------------------------------------------------- the key
def normalised_command(command: Sequence[str]) -> list[str]:
    """``command`` without its thread count (``--threads N`` or ``--threads=N``)."""
    kept: list[str] = []
    skip = False
    for word in command:
        if skip:
            skip = False
            continue
        if word in THREAD_OPTIONS:
            skip = True
            continue
        if word.split("=", 1)[0] in THREAD_OPTIONS:
            continue
        kept.append(word)
    return kept


def _pruned(value: Any, drop: Callable[[str, Any], bool]) -> Any:
    """A JSON value without the entries ``drop(key, value)`` selects, at every depth."""
    if isinstance(value, dict):
        return {k: _pruned(v, drop) for k, v in value.items() if not drop(k, v)}
    if isinstance(value, list):
        return [_pruned(v, drop) for v in value]
    return value


def _machine_specific(key: str, value: Any) -> bool:
    """Seconds and absolute paths (a compiled model's file, its compile time), which differ
    between machines for the same model."""
    return is_timing(key) or (isinstance(value, str) and os.path.isabs(value))


def input_digest(path: Path) -> str:
    """sha256 of what ``path`` holds (see the module docstring): a parquet table by its
    columns, types and values; JSON without machine-specific values; else its bytes."""
    digest = hashlib.sha256()
    if path.suffix == ".parquet":
        import pandas as pd

        frame = pd.read_parquet(path)
        digest.update(json.dumps([[c, str(t)] for c, t in frame.dtypes.items()]).encode())
        digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    elif path.suffix == ".json":
        value = _pruned(json.loads(path.read_text()), _machine_specific)
        digest.update(json.dumps(value, sort_keys=True).encode())
    else:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def step_name(command: Sequence[str]) -> str:
    """The folder of a command's entries: its program's first two words after the program
    (``hierbn petitjean2018 cv …`` is ``petitjean2018-cv``), else the program's name."""
    words = [Path(command[0]).name, *command[1:3]]
    if words[0] == "hierbn" and len(words) == 3 and not any(w.startswith("-") for w in words):
        return f"{words[1]}-{words[2]}"
    return words[0]


def key_ingredients(
    code: str, command: Sequence[str], inputs: Iterable[str | os.PathLike[str]]
) -> dict[str, Any]:
    """What the key is made of (kept in the entry, so a miss can be explained)."""
    return {
        "step": step_name(command),
        "code": code,
        "command": normalised_command(command),
        "inputs": {str(p): input_digest(Path(p)) for p in sorted(map(str, inputs))},
    }


def job_key(ingredients: dict[str, Any]) -> str:
    """sha256 (hex, 32 characters) of the ingredients."""
    text = json.dumps(ingredients, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def entry_folder(cache: Path, ingredients: dict[str, Any]) -> Path:
    """Where the entry of a job with these key ingredients lives."""
    return cache / ingredients["step"] / job_key(ingredients)


def is_cached(shell: str) -> bool:
    """Whether a rule's shell command runs its job through the result cache."""
    return shell.startswith("hierbn cached ") and " -- " in shell


def uncached(shell: str) -> str:
    """A rule's shell command without its ``hierbn cached … --`` prefix: the job's own command
    (how job sizes match a planned job with one measured before the cache existed)."""
    return shell.split(" -- ", 1)[1] if is_cached(shell) else shell


def receipt_of(benchmark: str | os.PathLike[str]) -> Path:
    """Where a restored job's receipt sits: beside its benchmark file."""
    return Path(f"{benchmark}{RECEIPT_SUFFIX}")


# ------------------------------------------------------------------------------ store, restore
COMPACT_CODEC = "ZSTD"
COMPACT_LEVEL = 19  # zstd's slowest level: 5 % smaller than level 9, about 6 MB/s, once per job


def _is_flat(table: pa.Table) -> bool:
    return not any(pa.types.is_nested(field.type) for field in table.schema)


def _write_compact(table: pa.Table, target: Path) -> None:
    """``table`` as parquet with zstd; floating columns byte-stream split (their bytes grouped by
    significance, which zstd compresses far better than whole doubles), no dictionary for them."""
    floats = [f.name for f in table.schema if pa.types.is_floating(f.type)]
    pq.write_table(
        table,
        target,
        compression="zstd",
        compression_level=COMPACT_LEVEL,
        use_byte_stream_split=floats or False,
        use_dictionary=[name for name in table.column_names if name not in floats],
    )


def is_compact(path: Path) -> bool:
    """Every column chunk of the parquet file ``path`` is zstd-compressed."""
    meta = pq.ParquetFile(path).metadata
    return all(
        meta.row_group(g).column(c).compression == COMPACT_CODEC
        for g in range(meta.num_row_groups)
        for c in range(meta.num_columns)
    )


def copy_compact(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target``: a flat parquet table re-encoded by :func:`_write_compact`
    and read back equal (schema with its metadata, values bit for bit), any other file as is."""
    if source.suffix != ".parquet":
        shutil.copyfile(source, target)
        return
    table = pq.read_table(source)
    if not _is_flat(table):
        shutil.copyfile(source, target)
        return
    _write_compact(table, target)
    if not pq.read_table(target).equals(table, check_metadata=True):
        raise ValueError(f"{source}: its compact copy {target} does not read back equal")


def compact_entry(folder: Path) -> tuple[int, int]:
    """Re-encode an entry's parquet outputs stored as the job wrote them (each replaced
    atomically); its bytes before and after."""
    from hierbn.io import atomic_path

    entry = json.loads((folder / ENTRY_FILE).read_text())
    before = after = 0
    for output in entry["outputs"]:
        path = folder / output
        before += path.stat().st_size
        try:
            if path.suffix == ".parquet" and not is_compact(path):
                with atomic_path(path) as tmp:
                    copy_compact(path, tmp)
        except pa.ArrowException as error:  # a damaged table: name it, leave it as it was
            raise ValueError(f"{path}: not a readable parquet table ({error})") from None
        after += path.stat().st_size
    return before, after


def _copy_atomic(source: Path, target: Path) -> None:
    from hierbn.io import atomic_path

    with atomic_path(target) as tmp:
        shutil.copyfile(source, tmp)


def store(
    cache: Path,
    ingredients: dict[str, Any],
    outputs: Sequence[str],
    cost: dict[str, Any],
) -> Path:
    """Put ``outputs`` (run paths) under their key; the folder appears whole or not at all."""
    folder = entry_folder(cache, ingredients)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        for output in outputs:
            (staging / output).parent.mkdir(parents=True, exist_ok=True)
            copy_compact(Path(output), staging / output)
        entry = {"key": folder.name, **ingredients, "outputs": list(outputs), **cost}
        (staging / ENTRY_FILE).write_text(json.dumps(entry, indent=1, sort_keys=True) + "\n")
        os.chmod(staging, 0o755)
        if folder.exists():  # the same job stored meanwhile (identical by its key)
            shutil.rmtree(staging)
        else:
            os.replace(staging, folder)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return folder


def restore(folder: Path, outputs: Sequence[str]) -> dict[str, Any]:
    """Copy an entry's outputs into place (each atomically); its ``job.json``."""
    entry = json.loads((folder / ENTRY_FILE).read_text())
    if sorted(entry["outputs"]) != sorted(outputs):
        raise ValueError(
            f"{folder}: holds outputs {entry['outputs']}, the job writes {list(outputs)}"
        )
    for output in outputs:
        _copy_atomic(folder / output, Path(output))
    return entry


def run_measured(command: Sequence[str]) -> tuple[int, dict[str, Any]]:
    """Run ``command``; its exit code and cost (wall seconds, peak memory of the process)."""
    start = time.perf_counter()
    code = subprocess.run(list(command), check=False).returncode
    seconds = time.perf_counter() - start
    rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return code, {
        "seconds": round(seconds, 3),
        "max_rss_mb": round(rss_kb / 1024, 1),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "cpu": cpu_model(),
        "numerics": numeric_platform(),
    }


def cached_run(
    code: str,
    command: Sequence[str],
    inputs: Sequence[str],
    outputs: Sequence[str],
    benchmark: str,
    environ: dict[str, str] | None = None,
) -> int:
    """Run one job through the cache named by the environment: restore its outputs on a hit;
    on a miss run it, and store its outputs when storing is on. Without a cache, just run it."""
    environ = os.environ if environ is None else environ
    receipt = receipt_of(benchmark)
    receipt.unlink(missing_ok=True)
    folder_name = environ.get(FOLDER_VARIABLE, "")
    if not folder_name:
        return run_measured(command)[0]
    cache = Path(folder_name)
    ingredients = key_ingredients(code, command, inputs)
    folder = entry_folder(cache, ingredients)
    if (folder / ENTRY_FILE).is_file():
        entry = restore(folder, outputs)
        cost = {k: entry.get(k) for k in ("seconds", "max_rss_mb", "date", "cpu")}
        receipt.parent.mkdir(parents=True, exist_ok=True)
        entry_name = f"{folder.parent.name}/{folder.name}"
        receipt.write_text(json.dumps({"entry": entry_name, **cost}) + "\n")
        print(f"restored {', '.join(outputs)} from {folder} (computed in {cost['seconds']} s "
              f"on {cost['date']})", flush=True)  # fmt: skip
        return 0
    print(f"result cache {cache}: no entry {folder.parent.name}/{folder.name}; computing",
          flush=True)  # fmt: skip
    exit_code, cost = run_measured(command)
    if exit_code == 0 and environ.get(STORE_VARIABLE) == "1":
        stored = store(cache, ingredients, outputs, cost)
        print(f"stored {', '.join(outputs)} as {stored}", flush=True)
    return exit_code


# ------------------------------------------------------------------------------------- verify
def entries(cache: Path) -> list[Path]:
    """Every entry folder of the cache, sorted."""
    return sorted(p.parent for p in cache.glob(f"*/*/{ENTRY_FILE}"))


def sample_entries(cache: Path, k: int, seed: int, steps: Sequence[str] = ()) -> list[Path]:
    """``k`` entries drawn at random (without replacement), from ``steps`` when given."""
    pool = [e for e in entries(cache) if not steps or e.parent.name in steps]
    if not pool:
        raise ValueError(f"{cache}: no entries" + (f" of steps {list(steps)}" if steps else ""))
    return sorted(random.Random(seed).sample(pool, min(k, len(pool))))


def _column_difference(name: str, stored: Any, fresh: Any, metric: Any = None) -> str:
    """How two columns differ: the rows (and, in a tidy table, the metrics of those rows), and
    for numbers the largest relative difference (so rounding, 1e-15, can be told from a
    different result)."""
    differs = ~(stored == fresh) & ~(stored.isna() & fresh.isna())
    text = f"column {name!r} differs in {int(differs.sum())} rows"
    if metric is not None and name != "metric":
        names = sorted(set(metric[differs].astype(str)))
        shown = ", ".join(names[:MAX_METRICS_NAMED])
        more = (
            f" and {len(names) - MAX_METRICS_NAMED} more" if len(names) > MAX_METRICS_NAMED else ""
        )
        text += f" of metric {shown}{more}"
    if stored.dtype.kind in "fiu" and fresh.dtype.kind in "fiu":
        a, b = stored[differs].astype(float), fresh[differs].astype(float)
        relative = ((a - b).abs() / a.abs().where(a != 0, 1.0)).max()
        text += f" (largest relative difference {relative:.1e})"
    return text


def compare_outputs(stored: Path, fresh: Path) -> list[str]:
    """How a recomputed output differs from the stored one, timing aside (empty: identical).
    Tables are compared value by value (NaN equals NaN); JSON without timing keys; other
    files byte for byte."""
    if stored.suffix == ".parquet":
        import pandas as pd

        a, b = pd.read_parquet(stored), pd.read_parquet(fresh)
        if list(a.columns) != list(b.columns) or len(a) != len(b):
            return [f"shape or columns differ: {a.shape} {list(a.columns)} vs {b.shape}"]
        keep = pd.Series(True, index=a.index)
        for label in TIMING_LABELS:  # a tidy table's timing rows: metric or method "…_seconds"
            if label in a.columns:
                keep &= ~a[label].astype(str).map(is_timing)
        columns = [c for c in a.columns if not is_timing(str(c))]
        a, b = a.loc[keep, columns], b.loc[keep, columns]
        metric = a["metric"] if "metric" in a.columns else None
        return [_column_difference(c, a[c], b[c], metric) for c in columns if not a[c].equals(b[c])]
    if stored.suffix == ".json":
        a, b = (
            _pruned(json.loads(p.read_text()), lambda k, _: is_timing(k)) for p in (stored, fresh)
        )
        return [] if a == b else ["JSON values differ"]
    return [] if stored.read_bytes() == fresh.read_bytes() else ["bytes differ"]


def verify_entry(folder: Path, scratch: Path) -> list[str]:
    """Recompute one entry's job here (its inputs must be this checkout's, by content) into
    ``scratch`` and compare every output with the stored one; the differences (empty: equal)."""
    entry = json.loads((folder / ENTRY_FILE).read_text())
    for path, digest in entry["inputs"].items():
        if not Path(path).is_file():
            return [f"input {path} is missing here: run the workflow's data steps first"]
        if input_digest(Path(path)) != digest:
            return [f"input {path} differs from the entry's: not the same job here"]
    command = list(entry["command"])
    fresh = {}
    for output in entry["outputs"]:
        if output not in command:
            return [f"output {output} is not a word of the command: cannot redirect it"]
        fresh[output] = scratch / output
        command[command.index(output)] = str(fresh[output])
    for path in fresh.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(command, check=False, capture_output=True, text=True)
    if result.returncode != 0:
        return [f"the command failed ({result.returncode}): {result.stderr.strip()[-500:]}"]
    return [
        f"{output}: {problem}"
        for output, path in fresh.items()
        for problem in compare_outputs(folder / output, path)
    ]
