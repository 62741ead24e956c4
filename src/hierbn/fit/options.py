"""The choices and limits of ``hierbn fit`` that its command line shows (kept apart from the
fit's modules, so that ``hierbn fit --help`` imports none of them)."""

from __future__ import annotations

LEARNERS = ("hc", "tabu")  # bnlearn's score-based searches, on BIC
MAX_PARENT_CONFIGURATIONS = 100_000  # a family with more parent configurations is refused
