"""The choices and limits of ``hierbn fit`` that its command line shows (kept apart from the
fit's modules, so that ``hierbn fit --help`` imports none of them)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

LEARNERS = ("hc", "tabu")  # bnlearn's score-based searches, on BIC
MAX_PARENT_CONFIGURATIONS = 100_000  # a family with more parent configurations is refused


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the option closest to a misspelt ``word``, else ``""``."""
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""
