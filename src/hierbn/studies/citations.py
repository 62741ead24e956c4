"""Paper values with their locators. Every number or phrase of a paper that a study prints or
judges is registered in the study's ``paper.py`` through :class:`PaperValues`, with where it
stands in the paper (table, figure or section) and the paper's own words around it, as they
read in ``shared/papers/<paper>-*.txt``. ``tests/test_paper_values.py`` reads the paper texts
and checks, with :func:`problems`, that every quote is in its paper and every value in its
quote, so a mistyped constant fails CI.

Matching is on normalised text (:func:`normalise`): Unicode dashes and minus signs read as
``-``, digit groups lose their thousands separators, LaTeX dollars, markdown emphasis and HTML
bold tags go, runs of white space become one space, and case is ignored. A quote may skip text
with ``…``. A value is matched leaf by leaf (:func:`leaves`; a mapping's keys are our labels and
are not matched): every number must be one of the quote's numbers (each number of the quote
used once; ``1.499%`` also reads as 0.01499), every string must be in the quote, and the
numbers must come in the quote's order unless the citation says ``ordered=False``."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

T = TypeVar("T")

DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"
MARKUP = re.compile(r"\*\*|</?b>|</?i>|</?strong>|</?em>|\$")
THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
DIGIT_DASH = re.compile(r"(?<=\d)-\s+(?=\d)")
NUMBER = re.compile(r"(?<![\w.])-?(?:\d+(?:\.\d+)?|\.\d+)(?:e[-+]?\d+)?%?")
ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.)\s*")


@dataclass(frozen=True)
class Quote:
    """A passage of a paper: ``paper`` (a study id: the text is ``<paper>-*.txt``), its
    ``locator`` ("Table 2, row TAN", "Section 6.3") and the paper's own ``text``."""

    paper: str
    locator: str
    text: str

    def record(self) -> dict[str, str]:
        """The quote as a claims.json field."""
        return {"paper": self.paper, "locator": self.locator, "text": self.text}


@dataclass(frozen=True)
class Citation:
    """A paper value and the quote it is read from."""

    name: str
    value: Any
    quote: Quote
    ordered: bool = True


class PaperValues:
    """A study's registry of paper values and statements: ``paper.py`` makes one
    (``PAPER = PaperValues("petitjean2018")``) and wraps every constant in :meth:`value` and
    every quoted claim sentence in :meth:`statement`; both return what they were given, so the
    constants stay plain values."""

    def __init__(self, paper: str) -> None:
        self.paper = paper
        self.citations: list[Citation] = []

    def value(
        self,
        name: str,
        value: T,
        locator: str,
        text: str,
        *,
        paper: str | None = None,
        ordered: bool = True,
    ) -> T:
        """Register ``value`` as read from ``text`` at ``locator`` and return it unchanged. Its
        numbers must come in the quote's order unless ``ordered`` is False (a table whose
        layout our keys transpose); keep quotes short (a row, a sentence) so that a wrong
        number cannot match another one of the quote."""
        quote = Quote(paper or self.paper, locator, text)
        self._add(Citation(name, value, quote, ordered))
        return value

    def statement(self, name: str, locator: str, text: str, *, paper: str | None = None) -> Quote:
        """Register a sentence of the paper (a claim's statement) and return its quote."""
        quote = Quote(paper or self.paper, locator, text)
        self._add(Citation(name, None, quote))
        return quote

    def _add(self, citation: Citation) -> None:
        if any(c.name == citation.name for c in self.citations):
            raise ValueError(f"paper value {citation.name!r} of {self.paper} is registered twice")
        if not citation.quote.locator.strip() or not citation.quote.text.strip():
            raise ValueError(
                f"paper value {citation.name!r} of {self.paper}: locator and text needed"
            )
        self.citations.append(citation)


# --------------------------------------------------------------------- checking
def normalise(text: str) -> str:
    """The text as matched: see the module docstring."""
    text = unicodedata.normalize("NFKC", text)
    text = text.translate({ord(d): "-" for d in DASHES})
    text = MARKUP.sub("", text).replace("\\%", "%")
    text = THOUSANDS.sub("", text)
    text = " ".join(text.split())
    return DIGIT_DASH.sub("-", text).casefold()


def numbers_in(text: str) -> list[float]:
    """The numbers of a normalised text, in order; a hyphen between digits separates (41-4-23
    reads 41, 4, 23), a percentage reads as itself, a leading point is a number (.071); digits
    after a letter or an underscore are an index (X1, X_3), not a number."""
    return [float(m.group(0).rstrip("%")) for m in NUMBER.finditer(text)]


def _percent_numbers(text: str) -> set[int]:
    """Positions (in :func:`numbers_in` order) of the numbers written with a percent sign."""
    return {i for i, m in enumerate(NUMBER.finditer(text)) if m.group(0).endswith("%")}


def leaves(value: Any) -> list[float | str]:
    """The numbers and strings of a value, depth first; mapping keys, None and booleans are
    left out."""
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [float(value)]
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [leaf for v in value.values() for leaf in leaves(v)]
    if isinstance(value, list | tuple):
        return [leaf for v in value for leaf in leaves(v)]
    if isinstance(value, set | frozenset):
        return [leaf for v in sorted(value, key=str) for leaf in leaves(v)]
    raise TypeError(f"a paper value holds a {type(value).__name__}: {value!r}")


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@lru_cache(maxsize=8)
def _normalised_paper(paper_text: str) -> str:
    return normalise(paper_text)


def quote_found(quote: str, paper_text: str) -> bool:
    """Whether the quote's parts (split at ``…``) stand in the paper in order."""
    paper = _normalised_paper(paper_text)
    start = 0
    for part in ELLIPSIS.split(normalise(quote)):
        if not part:
            continue
        at = paper.find(part, start)
        if at < 0:
            return False
        start = at + len(part)
    return True


def problems(citation: Citation, paper_text: str) -> list[str]:
    """What does not match: the quote missing from the paper, or leaves of the value missing
    from the quote (empty when the citation holds)."""
    where = f"{citation.name} ({citation.quote.paper}, {citation.quote.locator})"
    if not quote_found(citation.quote.text, paper_text):
        return [f"{where}: the quote is not in the paper: {citation.quote.text[:120]!r}"]
    text = normalise(citation.quote.text)
    found = numbers_in(text)
    percent = _percent_numbers(text)
    candidates = [
        (x, x / 100 if i in percent else None) for i, x in enumerate(found)
    ]  # (as written, as a fraction)
    used = [False] * len(candidates)
    out, cursor = [], 0
    for leaf in leaves(citation.value):
        if isinstance(leaf, str):
            if normalise(leaf) not in text:
                out.append(f"{where}: {leaf!r} is not in the quote")
            continue
        hit = next(
            (
                i
                for i in range(cursor if citation.ordered else 0, len(candidates))
                if not used[i]
                and (_same(candidates[i][0], leaf) or _same(candidates[i][1] or math.nan, leaf))
            ),
            None,
        )
        if hit is None:
            out.append(f"{where}: {leaf:g} is not in the quote (numbers there: {found})")
            continue
        used[hit] = True
        cursor = hit + 1
    return out
