"""Helpers shared by the ``hierbn`` command-line steps: thread limits, reading result tables
and the arguments every experiment step takes."""

from __future__ import annotations

import argparse
import json
from typing import Any

import pandas as pd


def limit_threads(threads: int) -> None:
    """Keep numba and BLAS within the rule's ``threads`` so --cores N never oversubscribes."""
    import numba
    from threadpoolctl import threadpool_limits

    threadpool_limits(threads)
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


def read_tables(paths: list[str]) -> pd.DataFrame | None:
    """The parquet tables at ``paths`` in one frame, or None when there are none."""
    frames = [pd.read_parquet(p) for p in paths if p]
    return pd.concat(frames, ignore_index=True) if frames else None


def config_json(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--config`` JSON of a step, with an error naming the argument when it is not JSON."""
    try:
        value = json.loads(args.config)
    except json.JSONDecodeError as error:
        raise SystemExit(f"--config is not valid JSON ({error}): {args.config[:200]!r}") from None
    if not isinstance(value, dict):
        raise SystemExit(f"--config must be a JSON object, got {type(value).__name__}")
    return value


def experiment_args(parser: argparse.ArgumentParser, threads: bool = True) -> None:
    """The arguments every experiment step takes: its config JSON, base seed, threads, output."""
    parser.add_argument("--config", required=True, help="JSON of the config values the step reads")
    parser.add_argument("--seed", type=int, default=0)
    if threads:
        parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", required=True)


def study_parser(
    subparsers: argparse._SubParsersAction, name: str, helptext: str
) -> argparse._SubParsersAction:
    """The ``hierbn <study>`` command whose sub-commands are the study's steps."""
    return subparsers.add_parser(name, help=helptext).add_subparsers(dest="step", required=True)
