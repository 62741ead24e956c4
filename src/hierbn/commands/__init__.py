"""The commands every study's rules share (data, set-up, job sizes, records, the result cache),
apart from :mod:`hierbn.cli`: the command line a study job starts from, and so part of every
cached job's code key (:mod:`hierbn.code_key`), changes only when the dispatch does."""

from __future__ import annotations

import argparse

from hierbn.commands import cache, data, records, setup, sizes


def register(sub: argparse._SubParsersAction) -> None:
    """Add every shared command."""
    for module in (data, setup, sizes, records, cache):
        module.register(sub)
