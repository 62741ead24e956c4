"""Headline claims H1–H12 of beal2006 (decisions §7), one function per claim, each judging the
paper's sentence (quoted in ``paper.py``) on the result tables.

Scale: the paper's numbers come from all 20 data set sizes, AIS with K = 16,384 steps and 106
parameter draws. A claim that holds "at every n" fails on a counterexample at any size that ran
but passes only when every size it is about ran; a claim about a fraction of the sizes is
judged only on all of them; an AIS claim is judged only on runs with the paper's K. Otherwise
the claim is "not covered" and says what it needs (our values are still shown)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from hierbn.studies.beal2006 import paper as P
from hierbn.studies.beal2006.tables import (
    CORRECTED,
    ais_steps,
    experiment_b,
    kl_to_ais,
    rank_table,
    table3,
    true_ranks,
)
from hierbn.studies.claims import (
    DOES_NOT_HOLD,
    FAIL,
    NOT_COVERED,
    OUR_DECISION,
    PASS,
    REDUCED_SCALE,
    claim,
    evaluate,
    not_covered,
    num,
    reported,
)
from hierbn.studies.readings import (
    ALMOST_ALL,
    EVERY,
    MOST,
    MOST_SHARE,
    ORDER,
    PRINTED,
    TREND,
    UNJUDGED,
    Verdict,
    compare,
    noise,
    printed_precision,
    quantified,
    share_holds,
    trend,
    within_printed,
)
from hierbn.studies.scale import run_scale_of

# Each criterion reads the paper's words through hierbn.studies.readings (docs/readings.md);
# the study defines no majority, tolerance or noise constant of its own. Which dimensions of
# the paper's scale (paper.SCALE) each verdict depends on:
SCALE_KEYS: dict[str, tuple[str, ...]] = {
    "H1": ("sizes",),
    "H2": ("sizes", "ais_sizes", "ais_runs", "ais_steps"),
    "H3": ("sizes", "ais_sizes", "ais_runs", "ais_steps"),
    "H4": ("sizes", "ais_sizes", "ais_runs", "ais_steps"),
    "H5": ("sizes", "draws"),
    "H6": ("ais_sizes", "ais_runs", "ais_steps"),
    "H7": ("ais_sizes", "ais_runs", "ais_steps"),
    "H8": ("traces",),
    "H9": ("ais_steps",),
    "H10": ("sizes",),
    "H11": ("sizes", "draws"),
    "H12": ("sizes", "draws"),
}


@dataclass(frozen=True)
class Results:
    """What the claims read: the wide score table (with AIS columns when AIS ran), the AIS runs,
    the schedule study and the cost summary (None when not run)."""

    wide: pd.DataFrame
    ais: pd.DataFrame | None = None
    schedule: pd.DataFrame | None = None
    timing: dict[str, float] | None = None

    @cached_property
    def ranks(self) -> pd.DataFrame:
        return rank_table(self.wide)

    @cached_property
    def table3(self) -> pd.DataFrame:
        return table3(self.wide, self.ais) if self.has_ais else pd.DataFrame()

    @property
    def instance0(self) -> pd.DataFrame:
        return self.wide[self.wide.rep == 0]

    @property
    def sizes(self) -> list[int]:
        return sorted(int(n) for n in self.instance0["n"].unique())

    @property
    def has_ais(self) -> bool:
        return self.ais is not None and not self.ais.empty

    @cached_property
    def ais_steps(self) -> int | None:
        return ais_steps(self.ais)

    @property
    def ais_sizes(self) -> list[int]:
        return sorted(int(n) for n in self.ais["n"].unique()) if self.has_ais else []


# ----------------------------------------------------------------------------- helpers
def _sizes_text(sizes: Iterable[int]) -> str:
    return ", ".join(num(int(n)) for n in sorted(sizes))


def _missing(have: Iterable[int], need: Iterable[int], what: str = "scores") -> str:
    """'' when every size of ``need`` is in ``have``, else what the claim still needs."""
    lacking = sorted(set(need) - set(have))
    return (
        f"not covered at this scale: needs {what} at n = {_sizes_text(lacking)}" if lacking else ""
    )


def _ais_missing(r: Results, need: Iterable[int]) -> str:
    """What an AIS claim still needs: the paper's schedule length and the sizes ``need``."""
    if not r.has_ais:
        return f"not covered at this scale: needs AIS (K = {num(P.AIS_STEPS)}) at n = " + (
            _sizes_text(need)
        )
    if r.ais_steps != P.AIS_STEPS:
        return (
            f"not covered at this scale: needs AIS with the paper's K = {num(P.AIS_STEPS)} "
            f"steps (the run used {num(r.ais_steps)})"
        )
    return _missing(r.ais_sizes, need, f"AIS (K = {num(P.AIS_STEPS)})")


def _verdict(ok: bool, why: str) -> str:
    """A universal statement ("at every n"): a counterexample fails at any scale; a pass needs
    every size the statement covers (``why`` says what is missing)."""
    if not ok:
        return FAIL
    return NOT_COVERED if why else PASS


def _fraction_verdict(ok: bool, why: str) -> str:
    """A statement about a fraction of the sizes: judged only on all of them."""
    if why:
        return NOT_COVERED
    return PASS if ok else FAIL


def _miss(status: str, why: str) -> dict[str, str]:
    """The cause of a claim the run's sizes or schedule leave not covered (reduced scale, the
    evidence what it lacks); nothing for a judged claim (a fail's cause is evaluate()'s)."""
    if status != NOT_COVERED:
        return {}
    return {"cause": REDUCED_SCALE, "evidence": why.replace("not covered at this scale: ", "")}


def _note(status: str, why: str, failed: Iterable[str] = ()) -> str:
    """The claim's note: the parts that failed, then what the run lacks."""
    failed = list(failed)
    parts = [f"fails: {', '.join(failed)}"] if status == FAIL and failed else []
    if why:
        parts.append(why.replace("not covered at this scale: ", "also not run: ") if parts else why)
    return "; ".join(parts)


def paper_ranks() -> pd.DataFrame:
    """The paper's Table 2 as a rank table (index n, one column per method)."""
    return pd.DataFrame.from_dict(P.TABLE2, orient="index", columns=list(P.TABLE2_METHODS))


def vb_not_worse(ranks: pd.DataFrame) -> dict[str, float]:
    """Fraction of sizes at which VB ranks the true structure at least as high as BIC, BICp
    and CS (corrected scores)."""
    return {b: float((ranks["VB"] <= ranks[b]).mean()) for b in ("BIC", "BICp", "CS")}


def alias_changes(corrected: pd.DataFrame, uncorrected: pd.DataFrame) -> dict[str, dict]:
    """Per score: sizes at which the alias correction improves / degrades the rank of T."""
    out = {}
    for m in CORRECTED:
        c, u = corrected[m], uncorrected[f"{m}*"]
        out[m] = {"improved": int((c < u).sum()), "degraded": int((c > u).sum())}
    return out


# ----------------------------------------------------------------------------- claims
def h1_verdicts(ranks: pd.DataFrame) -> dict[str, Verdict]:
    """H1 per score: VB ranks the true structure at least as high (a tie is not worse) at
    "almost all" of the sizes (the reading's share)."""
    return {
        b: quantified(list(ranks["VB"] <= ranks[b]), ALMOST_ALL, "sizes")
        for b in ("BIC", "BICp", "CS")
    }


def claim_h1(r: Results) -> dict[str, Any]:
    paper = vb_not_worse(paper_ranks())
    paper_verdicts = h1_verdicts(paper_ranks())
    ranks = r.ranks
    frac = vb_not_worse(ranks)
    verdicts = h1_verdicts(ranks)
    why = _missing(ranks.index, P.SIZES)
    status = _fraction_verdict(all(verdicts.values()), why)
    paper_fails = [b for b, v in paper_verdicts.items() if not v]
    return claim(
        "H1",
        "VB ranks the true structure at least as high as BIC, BICp and CS at almost all n "
        "(Table 2)",
        paper,
        {"fraction_vb_rank_le": frac, "sizes": [int(n) for n in ranks.index]},
        f"VB rank <= each of BIC's, BICp's and CS's at {ALMOST_ALL.named('almost all')}, of "
        f"the {len(P.SIZES)} sizes; a tie counts as VB not worse",
        status,
        why,
        statement=P.STATEMENTS["H1"],
        deviation="the reading seems too strict for this sentence: the paper's own Table 2 "
        "does not meet it ("
        + ", ".join(f"VB ≤ {b} at {paper_verdicts[b].text}" for b in paper_fails)
        + "); the reading is kept, not changed for one claim",
        paper_text="VB rank ≤ "
        + ", ".join(f"{b}'s at {v * len(P.SIZES):.0f}/{len(P.SIZES)}" for b, v in paper.items())
        + " sizes",
        ours_text="VB rank ≤ " + ", ".join(f"{b}'s at {v.text}" for b, v in verdicts.items()),
        **(
            {
                "cause": DOES_NOT_HOLD,
                "evidence": "VB ≤ "
                + ", ".join(f"{b} at {v.text}" for b, v in verdicts.items() if not v)
                + "; the paper's own Table 2 misses it too",
            }
            if status == FAIL
            else _miss(status, why)
        ),
    )


H2_METHODS = ("BICp", "CS", "VB", "AIS")


def claim_h2(r: Results) -> dict[str, Any]:
    n = P.LARGEST_N
    text = f"At n = {num(n)}, BICp, CS, VB and AIS all rank the true structure first"
    paper_row = dict(zip(P.TABLE2_METHODS, P.TABLE2[n], strict=True))
    paper = {m: paper_row[m] for m in (*H2_METHODS, "BIC")}
    crit = f"rank 1 for each of {', '.join(H2_METHODS)} at n = {num(n)}: {EVERY.named('all')}"
    why = _missing(r.sizes, [n]) or _ais_missing(r, [n])
    paper_text = f"ranks at n = {num(n)}: " + ", ".join(f"{m} {v}" for m, v in paper.items())
    if n not in r.ranks.index:
        return not_covered(
            "H2",
            text,
            paper,
            crit,
            why,
            statement=P.STATEMENTS["H2"],
            paper_text=paper_text,
            **_miss(NOT_COVERED, why),
        )
    row = r.ranks.loc[n]  # AIS may lack this size: its rank is NaN, not judged
    top = {m: int(row[m]) for m in (*H2_METHODS, "BIC") if m in row and pd.notna(row[m])}
    judged = [m for m in H2_METHODS if m != "AIS" or not _ais_missing(r, [n])]
    ok = all(top.get(m, 1) == 1 for m in judged)
    return claim(
        "H2",
        text,
        paper,
        {"n": n, "ranks": top},
        crit,
        status := _verdict(ok, why),
        _note(status, why, [m for m in judged if top.get(m, 1) != 1]),
        statement=P.STATEMENTS["H2"],
        **_miss(status, why),
        paper_text=paper_text,
        ours_text=f"ranks at n = {num(n)}: " + ", ".join(f"{m} {v}" for m, v in top.items()),
    )


H3_FACTOR = 2  # decision §7: "by a long way", words the readings have no row for


def h3_verdict(kl: pd.DataFrame) -> Verdict:
    """H3 on KL(P_AIS || P_method) per size (index n, a column per method): VB's KL the
    lowest, the next-lowest at least H3_FACTOR times VB's, at "most" of the sizes."""
    others = kl[["BIC", "BICp", "CS"]].min(axis=1)
    return quantified(list(others >= H3_FACTOR * kl["VB"]), MOST, "sizes")


def claim_h3(r: Results) -> dict[str, Any]:
    text = "VB's posterior over structures is closest to AIS's, by a long way (Fig. 3(c))"
    crit = (
        f"KL(P_AIS || P_VB) lowest of BIC, BICp, CS, VB and the next-lowest at least "
        f"{H3_FACTOR}× VB's, at {MOST.named('most')}, of the {len(P.SIZES)} sizes"
    )
    paper = "lowest by a long way over a wide range of sizes"
    deviation = (
        "'over a wide range of data set sizes' has no row in the readings and is read as "
        f"'most' of the {len(P.SIZES)} sizes; 'by a long way' has none either and is our "
        f"decision (§7): the next-lowest KL at least {H3_FACTOR} times VB's at that size; "
        "KL(P_AIS || P_method), decision A14"
    )
    why = _ais_missing(r, P.SIZES)
    if "AIS" not in r.wide:
        return not_covered("H3", text, paper, crit, why, statement=P.STATEMENTS["H3"],
                           deviation=deviation, **_miss(NOT_COVERED, why))  # fmt: skip
    kl = kl_to_ais(r.wide, list(CORRECTED)).pivot(index="n", columns="method", values="kl")
    others = kl[["BIC", "BICp", "CS"]].min(axis=1)
    best = float((kl["VB"] < others).mean())
    margin = float((others / kl["VB"]).median())
    verdict = h3_verdict(kl)
    status = _fraction_verdict(bool(verdict), why)
    evidence = f"lowest by {H3_FACTOR}× at {verdict.text}; VB lowest at {best:.0%} of the sizes"
    return claim(
        "H3",
        text,
        paper,
        {"fraction_sizes_vb_lowest_kl": best, "median_margin": margin, "kl": kl.to_dict()},
        crit,
        status,
        why,
        statement=P.STATEMENTS["H3"],
        deviation=deviation,
        ours_text=f"VB lowest by {H3_FACTOR}× at {verdict.text}; VB lowest at {best:.0%}; "
        f"next-lowest / VB {num(margin, 2)}× (median); median KL "
        + ", ".join(f"{m} {num(kl[m].median(), 2)}" for m in kl.columns),
        **(
            {"cause": OUR_DECISION if best > MOST_SHARE else DOES_NOT_HOLD, "evidence": evidence}
            if status == FAIL
            else _miss(status, why)
        ),
    )


H4_METHODS = ("MAP", "BIC", "BICp", "CS", "VB", "AIS")


def fig2_trends(d: pd.Series, score: pd.Series) -> dict[str, Any]:
    """One Fig. 2 plot (one score at one n) read as a trend over the 136 structures: the
    means of the four quarters of the structures ordered by d(m), their rank correlation with
    the quarter, the first and last quarter ordered beyond 2 SE of their difference (the
    structures' scatter in a quarter); also Spearman's rho over the structures and its SE."""
    order = np.argsort(d.to_numpy(), kind="stable")
    quarters = np.array_split(score.to_numpy()[order], 4)
    means = [float(q.mean()) for q in quarters]
    first, last = quarters[0], quarters[-1]
    se = float(np.sqrt(first.var(ddof=1) / len(first) + last.var(ddof=1) / len(last)))
    positions = [1, 2, 3, 4]
    up, down = (trend(positions, means, sign, noise(se)) for sign in (1, -1))
    rho = float(spearmanr(d, score).statistic)
    return {"rho": rho, "rho_se": float(np.sqrt(max(1 - rho**2, 0) / (len(d) - 2))),
            "up": bool(up), "down": bool(down)}  # fmt: skip


def h4_holds(rows: Mapping[int, Mapping[str, Mapping[str, Any]]]) -> dict[str, bool]:
    """H4's parts over the Fig. 2 rows (n -> method -> :func:`fig2_trends`): a score shows a
    trend in the figure when it trends so at "most" of the rows: MAP up; BIC, BICp and CS
    down; VB and AIS neither; CS's rho rising towards 0 with n (a trend) and CS down at the
    largest n."""
    sizes = sorted(rows)

    def most(m: str, way: str) -> bool:
        flags = [rows[n][m][way] for n in sizes if m in rows[n]]
        return share_holds(sum(flags), len(flags), MOST)

    flat = [m for m in ("VB", "AIS") if any(m in rows[n] for n in sizes)]
    cs = [rows[n]["CS"] for n in sizes]
    ends = noise(float(np.hypot(cs[0]["rho_se"], cs[-1]["rho_se"])))
    weakens = len(sizes) > 1 and bool(trend(sizes, [c["rho"] for c in cs], 1, ends))
    return {
        "MAP up": most("MAP", "up"),
        "BIC, BICp down": most("BIC", "down") and most("BICp", "down"),
        "CS down": most("CS", "down"),
        "CS weakens": weakens,
        "CS still down at the largest n": cs[-1]["down"],
        "VB, AIS flat": all(not most(m, "up") and not most(m, "down") for m in flat),
    }


def claim_h4(r: Results) -> dict[str, Any]:
    rows: dict[int, dict[str, dict[str, Any]]] = {}
    for n, g in r.instance0.groupby("n"):
        if int(n) in P.FIG2_SIZES:
            rows[int(n)] = {
                m: fig2_trends(g["d"], g[m])
                for m in H4_METHODS
                if m in g and g[m].notna().all() and (m != "AIS" or r.ais_steps == P.AIS_STEPS)
            }
    parts = h4_holds(rows) if rows else {}
    why = _missing(rows, P.FIG2_SIZES) or _ais_missing(r, P.FIG2_SIZES)
    status = _verdict(bool(parts) and all(parts.values()), why)
    counts = {
        m: f"{sum(v[m]['up'] for v in rows.values() if m in v)}↑/"
        f"{sum(v[m]['down'] for v in rows.values() if m in v)}↓"
        for m in H4_METHODS
        if any(m in v for v in rows.values())
    }
    return claim(
        "H4",
        "Complexity bias (Fig. 2): MAP trends up with d; BIC, BICp and CS down (CS weakening "
        "with n); VB and AIS show no trend",
        "MAP up; BIC, BICp, CS down (CS weaker at large n, still present at "
        f"{num(P.LARGEST_N)}); VB, AIS flat",
        {"rows": rows, "parts": parts},
        f"at each Fig. 2 row n = {_sizes_text(P.FIG2_SIZES)}, a score against d(m) is "
        f"{TREND.named('a trend')}, over the four quarters of the 136 structures by d; a "
        f"score trends in the figure at {MOST.named('generally')}, of the rows: MAP up; BIC, "
        "BICp, CS down; VB, AIS neither; CS's Spearman rho rising with n (a trend, ends "
        "beyond 2 SE) and CS down at the largest n",
        status,
        _note(status, why, [k for k, v in parts.items() if not v]),
        statement=P.STATEMENTS["H4"],
        deviation="the sentence reads Fig. 2 as a whole ('the general upward trend'), and the "
        "paper itself sets apart the 'horizontal banding of the scores into three levels' at "
        "large n (Section 4.1): a trend in the figure is read as one at most of its rows; "
        "'no trend apparent' as neither an upward nor a downward one at most rows",
        ours_text="rows trending up↑/down↓ of "
        + f"{len(rows)}: "
        + ", ".join(f"{m} {c}" for m, c in counts.items())
        + "; CS rho "
        + ", ".join(f"{num(v['CS']['rho'], 2)} (n={num(n)})" for n, v in rows.items()),
        **(
            {
                "cause": DOES_NOT_HOLD,
                "evidence": "instance 0's scores fail (no draws or AIS "
                "runs involved): " + ", ".join(k for k, v in parts.items() if not v),
            }
            if status == FAIL and any(not v for k, v in parts.items() if k != "VB, AIS flat")
            else _miss(status, why)
        ),
    )


def h5_verdict(below: int, cells: int) -> Verdict:
    """H5's rate: VB* < CS* in ``below`` of ``cells`` against the printed 'about 0.06%',
    within its printed precision plus 2 binomial SE of ours (in percent)."""
    rate = 100 * below / cells
    se = 100 * float(np.sqrt(rate / 100 * (1 - rate / 100) / cells))
    paper = P.VB_BELOW_CS["percent"]
    return within_printed(rate, paper, printed_precision(str(paper)), se)


def claim_h5(r: Results) -> dict[str, Any]:
    wide = r.wide
    below = int((wide["VB*"] < wide["CS*"] - 1e-9).sum())  # 1e-9: floating-point rounding
    viol_cs = int((wide["VBfromCS*"] < wide["CS*"] - 1e-9).sum()) if "VBfromCS*" in wide else None
    exact_ok = None
    if "exact" in wide and wide["exact"].notna().any():
        sub = wide[wide["exact"].notna()]
        exact_ok = bool(
            (sub["CS*"] <= sub["exact"] + 1e-9).all() and (sub["VB*"] <= sub["exact"] + 1e-9).all()
        )
    rate = h5_verdict(below, len(wide))
    ok = bool(rate) and viol_cs == 0
    why = "" if viol_cs is not None else "not covered: VB from the CS construction was not run"
    status = _verdict(bool(rate), why) if viol_cs is None else (PASS if ok else FAIL)
    paper = P.VB_BELOW_CS
    exact_text = "not checked" if exact_ok is None else num(exact_ok)
    return claim(
        "H5",
        "VB below CS is rare with independent EM and VBEM, and never with the Section 6 "
        "construction",
        paper,
        {
            "vb_lt_cs_fraction_independent": below / len(wide),
            "vb_from_cs_violations": viol_cs,
            "bounds_hold_vs_exact": exact_ok,
            "cells": len(wide),
        },
        f"VB* < CS* in {paper['percent']}% of the cells (independent starts): "
        f"{PRINTED.named()}; VB from the CS construction >= CS* in every cell "
        f"({EVERY.named('never')})",
        status,
        why,
        statement=P.STATEMENTS["H5"],
        deviation=f"the paper's rate is over {num(paper['total'])} Experiment B cells, ours over "
        "the cells that ran; CS*, VB* <= the exact marginal where enumerated is shown, not judged "
        "(not in the sentence)",
        paper_text=f"VB < CS in {num(paper['count'])} of {num(paper['total'])} scores "
        f"({paper['percent']}%); zero with the construction",
        ours_text=f"VB < CS in {100 * below / len(wide):.2f}% of {num(len(wide))} cells "
        f"(independent starts; {rate.text} in points), {num(viol_cs)} from the CS "
        f"construction; CS*, VB* ≤ exact: {exact_text}",
        **(
            {
                "cause": DOES_NOT_HOLD,
                "evidence": f"{100 * below / len(wide):.2f}% of "
                f"{num(len(wide))} cells against the paper's {paper['percent']}% ({rate.text}); "
                "a cell's rate does not depend on the number of draws",
            }
            if status == FAIL and not rate
            else _miss(status, why)
        ),
    )


H6_ROW = "% AIS(1) < VB*"


def ais_below_vb(r: Results, n: int) -> tuple[int, int]:
    """Single AIS runs below VB* at size n: (count, cells over the 136 structures x runs)."""
    logz = r.ais[(r.ais.metric == "log_z") & (r.ais.n == n)]
    inst0 = r.instance0[r.instance0.n == n].set_index("structure")["VB*"]
    below = logz["value"].to_numpy() < inst0.loc[logz["structure"]].to_numpy()
    return int(below.sum()), len(below)


def h6_holds(counts: Mapping[int, tuple[int, int]]) -> dict[int, bool]:
    """Per size (n -> (count, cells)): n <= 560, the printed '≤ 5.7' % (ours at most the
    printed bound plus its precision and 2 binomial SE); n = 10,240, 'more than half' of the
    cells (the 'most' reading)."""
    small_text = "5.7"
    out = {}
    for n, (count, cells) in counts.items():
        if n <= P.SMALL_N_MAX:
            pct = 100 * count / cells
            se = 100 * float(np.sqrt(pct / 100 * (1 - pct / 100) / cells))
            small = float(small_text)
            out[n] = bool(within_printed(max(pct, small), small, printed_precision(small_text), se))
        elif n == P.LARGEST_N:
            out[n] = share_holds(count, cells, MOST)
    return out


def claim_h6(r: Results) -> dict[str, Any]:
    small, large = P.TABLE3[H6_ROW][0], P.TABLE3[H6_ROW][-1]
    text = (
        f"A single AIS run falls below VB* for few structures at n ≤ {P.SMALL_N_MAX} and for "
        f"most at n = {num(P.LARGEST_N)} (Table 3)"
    )
    paper = {f"n<={P.SMALL_N_MAX}": small, str(P.LARGEST_N): large}
    paper_text = (
        f"AIS(1) < VB*: ≤ {small}% for n ≤ {P.SMALL_N_MAX}, {large}% at n = {num(P.LARGEST_N)}"
    )
    crit = (
        f"%AIS(1) < VB* at every n <= {P.SMALL_N_MAX} at most the printed ≤ {small} "
        f"({PRINTED.named()}; SE binomial over the structure x run cells), and at "
        f"n = {num(P.LARGEST_N)} for {MOST.named('most')}, of the cells"
    )
    deviation = (
        "Table 3 prints a maximum over n ≤ 560, read one-sided; the text's 'at and beyond "
        "n = 560 … more than half' contradicts Table 3 (erratum 11) and is not judged"
    )
    need = [n for n in P.SIZES if n <= P.SMALL_N_MAX] + [P.LARGEST_N]
    why = _ais_missing(r, need)
    if not r.has_ais or r.ais_steps != P.AIS_STEPS:
        return not_covered("H6", text, paper, crit, why, statement=P.STATEMENTS["H6"],
                           deviation=deviation, paper_text=paper_text,
                           **_miss(NOT_COVERED, why))  # fmt: skip
    levels = dict(zip(r.table3["n"].astype(int), r.table3[H6_ROW], strict=True))
    ok = h6_holds({n: ais_below_vb(r, n) for n in levels})
    status = _verdict(all(ok.values()), why)
    failed = [f"n = {num(n)}" for n, v in ok.items() if not v]
    return claim(
        "H6",
        text,
        paper,
        {"levels": levels, "within_tolerance": ok},
        crit,
        status,
        _note(status, why, failed),
        statement=P.STATEMENTS["H6"],
        deviation=deviation,
        paper_text=paper_text,
        ours_text="AIS(1) < VB*: "
        + ", ".join(f"{num(v, 2)}% (n={num(n)})" for n, v in levels.items()),
        **(
            {
                "cause": DOES_NOT_HOLD,
                "evidence": "beyond the printed level plus 2 SE at "
                + ", ".join(failed)
                + "; fewer runs only widen the SE",
            }
            if status == FAIL
            else _miss(status, why)
        ),
    )


def acceptance_quarters(ais: pd.DataFrame) -> pd.DataFrame:
    """Per size: the mean acceptance in each quarter of the schedule (q1..q4) and the SE of
    the mean fall q1 - q4 over the structure x run cells (the paper's Fig. 6(c) error bars)."""
    q = ais[ais.metric.str.startswith("acceptance_q")].pivot_table(
        index=["n", "structure", "run"], columns="metric", values="value"
    )
    fall = q.iloc[:, 0] - q.iloc[:, -1]
    out = q.groupby("n").mean()
    out["fall"] = fall.groupby("n").mean()
    out["se"] = fall.groupby("n").std(ddof=1) / np.sqrt(fall.groupby("n").size())
    return out.fillna({"se": 0.0}).sort_index()


def h7_holds(quarters: pd.DataFrame) -> dict[str, Verdict]:
    """H7's parts (``quarters`` from :func:`acceptance_quarters`): the acceptance falls along
    the schedule (a trend over the four quarters, first and last beyond 2 SE) at "most" sizes
    ('tends to'); the fall grows with n (a trend over the sizes, ends beyond 2 SE)."""
    cols = [c for c in quarters.columns if c.startswith("acceptance_q")]
    flags = [
        bool(trend([1, 2, 3, 4], list(row[cols]), -1, noise(row["se"])))
        for _, row in quarters.iterrows()
    ]
    ends = noise(float(np.hypot(quarters["se"].iloc[0], quarters["se"].iloc[-1])))
    return {
        "acceptance falls along the schedule": quantified(flags, MOST, "sizes"),
        "the fall grows with n": trend(list(quarters.index), list(quarters["fall"]), 1, ends),
    }


def claim_h7(r: Results) -> dict[str, Any]:
    text = "MH rejection grows along the schedule, more so at large n (Fig. 6(c))"
    rej_row = P.TABLE3["% MH rejection"]
    paper = {f"<={P.SMALL_N_MAX}": rej_row[0], str(P.LARGEST_N): rej_row[-1]}
    paper_text = (
        f"MH rejection < {rej_row[0]}% for n ≤ {P.SMALL_N_MAX}, {rej_row[-1]}% at "
        f"n = {num(P.LARGEST_N)}; falling acceptance per quarter, steeper at large n"
    )
    crit = (
        f"the acceptance falls from the first quarter of the schedule to the last as "
        f"{TREND.named('falls')}, at {MOST.named('tends to')}, of the sizes; the fall q1 − q4 "
        f"grows with n ({TREND.named('grows')}); SE over the structure x run cells"
    )
    why = _missing(r.ais_sizes, P.SIZES, "AIS")
    if len(r.ais_sizes) < 2:
        return not_covered("H7", text, paper, crit, why, statement=P.STATEMENTS["H7"],
                           paper_text=paper_text, **_miss(NOT_COVERED, why))  # fmt: skip
    rej = r.table3.set_index("n")["% MH rejection"]
    quarters = acceptance_quarters(r.ais)
    parts = h7_holds(quarters)
    status = _fraction_verdict(all(parts.values()), why)
    return claim(
        "H7",
        text,
        paper,
        {
            "rejection_by_n": rej.to_dict(),
            "quarter_drop_by_n": quarters["fall"].to_dict(),
            "parts": {k: bool(v) for k, v in parts.items()},
        },
        crit,
        status,
        _note(status, why, [f"{k} ({v.text})" for k, v in parts.items() if not v]),
        statement=P.STATEMENTS["H7"],
        deviation=f"the rejection of one schedule of K = {num(r.ais_steps)} steps (the "
        "paper's acceptance is a per-step rate); Table 3's rejection by n is shown, not judged "
        "(the sentence is about the schedule)",
        paper_text=paper_text,
        ours_text="acceptance falls along the schedule at "
        f"{parts['acceptance falls along the schedule'].text}; fall q1→q4 "
        + ", ".join(f"{num(v, 2)} (n={num(int(n))})" for n, v in quarters["fall"].items())
        + "; MH rejection "
        + ", ".join(f"{num(v, 2)}% (n={num(int(n))})" for n, v in rej.items()),
        **_miss(status, why),
    )


def crossing(medians: pd.Series, reference: float) -> int | None:
    """The first schedule length K at which the median ln AIS estimate reaches ``reference``."""
    return next((int(k) for k, v in medians.sort_index().items() if v >= reference), None)


def about_precision(k: int) -> float:
    """The precision of 'about 1000' / 'about 5000': printed to one significant figure."""
    digits = str(int(k))
    return printed_precision(digits[0]) * 10.0 ** (len(digits) - 1)


def h8_verdict(traces: pd.DataFrame, reference: float, k_paper: int) -> Verdict | None:
    """Whether the median over the traces (``traces``: index K, a column per trace) crosses
    ``reference`` at about ``k_paper``: the grid interval (previous K, K] of the crossing
    comes within the printed precision plus 2 SE of the traces' own crossings; None when the
    schedules run stop before the paper's K could be told."""
    grid = sorted(int(k) for k in traces.index)
    found = crossing(traces.median(axis=1), reference)
    precision = about_precision(k_paper)
    if found is None:
        if grid[-1] < k_paper + precision:
            return None
        return Verdict(False, f"never reached up to K = {num(grid[-1])}")
    lo = max((k for k in grid if k < found), default=0)
    own = [c for c in (crossing(traces[t], reference) for t in traces) if c is not None]
    se = float(np.std(own, ddof=1) / np.sqrt(len(own))) if len(own) > 1 else 0.0
    return within_printed(min(max(k_paper, lo), found), k_paper, precision, se)


def claim_h8(r: Results) -> dict[str, Any]:
    text = (
        f"AIS needs long schedules (Fig. 6(a)): it passes BIC at K ≈ {num(P.CROSSINGS['BIC'])} "
        f"and the VB bound at K ≈ {num(P.CROSSINGS['VB'])}"
    )
    paper = {f"crosses_{k}_at_K": v for k, v in P.CROSSINGS.items()}
    paper_text = f"BIC at K ≈ {num(P.CROSSINGS['BIC'])}, VB at K ≈ {num(P.CROSSINGS['VB'])}"
    crit = (
        f"the first K at which the median over prior-started traces reaches BIC* (VB*), as the "
        f"grid interval (previous K, K], is {num(P.CROSSINGS['BIC'])} "
        f"({num(P.CROSSINGS['VB'])}) read as {PRINTED.named()}, 'about' as one significant "
        f"figure (± {num(about_precision(P.CROSSINGS['BIC']))}), the SE that of the traces' "
        f"own crossings, n = {P.SCHEDULE_N}"
    )
    deviation = (
        "'about' read as the printed number to one significant figure; the reference lines are "
        f"the true structure's uncorrected BIC* and VB* (the bound proper) at n = {P.SCHEDULE_N}"
    )
    schedule = r.schedule
    args = {"statement": P.STATEMENTS["H8"], "deviation": deviation, "paper_text": paper_text}
    n = None if schedule is None or schedule.empty else int(schedule["n"].iloc[0])
    g = r.instance0[(r.instance0.n == n) & r.instance0.is_true]
    if n != P.SCHEDULE_N or g.empty:
        why = (
            f"not covered at this scale: needs the schedule study and scores at n = {P.SCHEDULE_N}"
        )
        return not_covered("H8", text, paper, crit, why, **args, **_miss(NOT_COVERED, why))
    prior = schedule[schedule.start == "prior"]
    traces = prior.pivot_table(index="steps", columns="rep", values="value")
    medians = traces.median(axis=1)
    refs = {"BIC": float(g["BIC*"].iloc[0]), "VB": float(g["VB*"].iloc[0])}
    parts = {k: h8_verdict(traces, v, P.CROSSINGS[k]) for k, v in refs.items()}
    found = {k: crossing(medians, v) for k, v in refs.items()}
    longest = int(traces.index.max())
    why = (
        f"not covered at this scale: needs schedules beyond K = {num(max(P.CROSSINGS.values()))} "
        f"(longest run {num(longest)})"
        if None in parts.values()
        else ""
    )
    status = _verdict(all(v is None or bool(v) for v in parts.values()), why)
    return claim(
        "H8",
        text,
        paper,
        {"median_log_z_by_K": medians.to_dict(), "references": refs, "first_K_reaching": found},
        crit,
        status,
        _note(
            status,
            why,
            [f"crossing {k} ({v.text})" for k, v in parts.items() if v is not None and not v],
        ),
        ours_text=f"median ln Z first reaches BIC* at K = {num(found['BIC'])}, VB* at K = "
        f"{num(found['VB'])} (K run: {num(int(traces.index.min()))} … {num(longest)}); "
        + "; ".join(f"{k} {v.text}" for k, v in parts.items() if v is not None),
        **args,
        **_miss(status, why),
    )


def claim_h9(r: Results) -> dict[str, Any]:
    text = f"Cost at n = {P.TIMING_N}: VBEM ~{P.VB_EM_RATIO:.1f}x EM; one AIS run ~" + (
        f"{P.AIS_VB_RATIO:.0f}x VBEM"
    )
    paper = {"vb_em": P.VB_EM_RATIO, "ais_vb": P.AIS_VB_RATIO, **P.SECONDS_N480}
    paper_text = (
        f"EM {P.SECONDS_N480['em']} s, VBEM {P.SECONDS_N480['vb']} s, one AIS run "
        f"{num(P.SECONDS_N480['ais_one_run'])} s: VBEM/EM {P.VB_EM_RATIO:.1f}×, AIS/VBEM "
        f"{P.AIS_VB_RATIO:.0f}×"
    )
    why = (
        UNJUDGED.named("seconds on the authors' machine") + ": wall-clock times of two "
        "implementations on different machines; the ratios are shown beside the paper's"
    )
    timing = r.timing
    if not timing:
        return not_covered(
            "H9",
            text,
            paper,
            f"reported, not judged: {why}",
            "not covered at this scale: no timings were recorded",
            statement=P.STATEMENTS["H9"],
            paper_text=paper_text,
            cause=REDUCED_SCALE,
            evidence="no timings were recorded",
        )
    ratio_vb_em = timing["vb_seconds"] / timing["em_seconds"]
    ratio_ais = timing["ais_seconds"] / timing["vb_seconds"] if "ais_seconds" in timing else None
    return reported(
        "H9",
        text,
        paper,
        {"vb_em": ratio_vb_em, "ais_vb": ratio_ais, "ais_steps": r.ais_steps, **timing},
        why,
        statement=P.STATEMENTS["H9"],
        note=f"AIS/VBEM uses the configured K = {num(r.ais_steps)} (paper {num(P.AIS_STEPS)})",
        paper_text=paper_text,
        ours_text=f"VBEM/EM {num(ratio_vb_em, 2)}×; AIS/VBEM {num(ratio_ais, 2)}× "
        f"(n = {num(timing['n'])}, K = {num(r.ais_steps)})",
        timing=True,
    )


def h10_holds(changes: Mapping[str, Mapping[str, int]], sizes: int) -> dict[str, bool]:
    """H10's judged parts (sizes at which the correction improves each score's rank of the
    true structure): 'very slightly for CS', CS improved at one size at least but not at
    "most" of the sizes and at fewer than VB; 'especially so for VB', VB improved at more
    sizes than any other score (and at one at least)."""
    vb, cs = changes["VB"]["improved"], changes["CS"]["improved"]
    return {
        "very slightly for CS": 0 < cs < vb and not share_holds(cs, sizes, MOST),
        "especially so for VB": vb > 0
        and all(vb > c["improved"] for m, c in changes.items() if m != "VB"),
    }


def claim_h10(r: Results) -> dict[str, Any]:
    paper_changes = alias_changes(paper_ranks(), paper_ranks())
    inst0 = r.instance0
    unc = true_ranks(inst0, [f"{m}*" for m in CORRECTED]).pivot(
        index="n", columns="method", values="rank"
    )
    changes = alias_changes(r.ranks, unc)
    r1_cols = [f"{m}_R1" for m in CORRECTED]
    degraded_r1 = None
    if all(c in inst0 for c in r1_cols):
        r1 = true_ranks(inst0, r1_cols).pivot(index="n", columns="method", values="rank")
        degraded_r1 = int(sum((r1[f"{m}_R1"] > unc[f"{m}*"]).sum() for m in CORRECTED))
    why = _missing(r.ranks.index, P.SIZES)
    parts = h10_holds(changes, len(r.ranks))
    status = _fraction_verdict(all(parts.values()), why)
    return claim(
        "H10",
        "The alias correction improves the rank of the true structure very slightly for CS and "
        "most for VB (Table 2)",
        {"improved_sizes": {m: c["improved"] for m, c in paper_changes.items()}, "degraded": 0},
        {"changes_R1prime": changes, "degraded_cells_R1": degraded_r1},
        f"under rule R1', over the {len(P.SIZES)} sizes: the correction improves VB's rank at "
        "more sizes than any other score's (and at one at least); CS's at one at least, at "
        f"fewer than VB's and not at {MOST.named('most')}",
        status,
        _note(status, why, [k for k, v in parts.items() if not v]),
        statement=P.STATEMENTS["H10"],
        deviation="the paper's alias rule is unknown (decision A2); under the primary rule R1' "
        "the true structure has the largest alias count, so 'nowhere degrades' holds by "
        "construction and is not judged (the degradations under the sensitivity rule R1 are "
        "shown); 'very slightly for CS' has no row in the readings and is read as at one size "
        "at least, fewer than VB's and not at most sizes; 'especially so for VB' is judged",
        paper_text="improved: "
        + ", ".join(f"{m} {c['improved']}" for m, c in paper_changes.items())
        + f" of {len(P.SIZES)} sizes; degraded nowhere",
        ours_text="improved (R1'): "
        + ", ".join(f"{m} {c['improved']}" for m, c in changes.items())
        + f" of {len(r.ranks)} sizes; rank cells degraded under R1: {num(degraded_r1)}",
        **_miss(status, why),
    )


def h11_holds(gap: pd.Series, se: pd.Series) -> dict[str, Verdict | bool]:
    """Eq. (61) over the sizes run (``gap`` the median VB–MAP parameter gap per n, ``se`` its
    SE): the gap shrinks with n (a trend, ends beyond 2 SE) and no size has a gap below the
    largest n's beyond 2 SE of the difference (an order, ties never break it)."""
    gap, se = gap.sort_index(), se.reindex(gap.sort_index().index).fillna(0.0)
    ends = noise(float(np.hypot(se.iloc[0], se.iloc[-1])))
    last = float(gap.iloc[-1])
    smallest = all(
        compare(float(g), last, noise(float(np.hypot(s, se.iloc[-1])))) >= 0
        for g, s in zip(gap, se, strict=True)
    )
    return {
        "shrinks": trend(list(gap.index), list(gap), -1, ends),
        "smallest at the largest n": smallest,
    }


def claim_h11(r: Results) -> dict[str, Any]:
    text = "VB recovers the MAP parameter estimate as n grows (eq. 61)"
    crit = (
        "count-weighted mean |ln θ̃ − ln θ̂_MAP| of the true structure (median over parameter "
        f"draws) over the sizes run: {TREND.named('shrinks')}, and smallest at the largest n "
        f"({ORDER.named()}); SE of a median over the draws 1.2533 sd/sqrt(draws)"
    )
    deviation = (
        "eq. (61) measured on the fits: ln θ̃ = ψ(α) − ψ(α0) of the best VB restart against "
        "the softmax-basis MAP estimate of the best EM restart (best over hidden-state "
        "relabellings), averaged over the parameters with weights N̂ (a parameter no datum "
        "uses weighs nothing); 'in the limit … recovers' read as the gap shrinking to its "
        "smallest at the largest n run (no absolute level is judged)"
    )
    truth = r.wide[r.wide.is_true]
    if "vb_map_gap" not in truth or truth["vb_map_gap"].isna().all() or truth.n.nunique() < 3:
        why = (
            "not covered at this scale: needs the vb_map_gap diagnostic (scores run with this "
            "code) at 3 or more sizes"
        )
        return not_covered("H11", text, "gap → 0", crit, why, statement=P.STATEMENTS["H11"],
                           deviation=deviation, **_miss(NOT_COVERED, why))  # fmt: skip
    by_n = truth.groupby("n")["vb_map_gap"]
    gap = by_n.median()
    se = (1.2533 * by_n.std(ddof=1) / np.sqrt(by_n.size())).fillna(0.0)
    parts = h11_holds(gap, se)
    return claim(
        "H11",
        text,
        "gap → 0",
        {str(int(k)): v for k, v in gap.items()},
        crit,
        PASS if all(bool(v) for v in parts.values()) else FAIL,
        "; ".join(f"{k}: {v.text if isinstance(v, Verdict) else num(v)}" for k, v in parts.items()),
        statement=P.STATEMENTS["H11"],
        deviation=deviation,
        ours_text="gap "
        + ", ".join(f"{num(v, 2)} (n={num(int(n))})" for n, v in gap.items())
        + " nats",
    )


def claim_h12(r: Results) -> dict[str, Any]:
    text = "Experiment B: VB's median rank beats BIC, BICp and CS for the most part (Fig. 4(a))"
    paper = "VB best for the most part; a region where CS is better"
    crit = (
        f"VB median rank <= min(BIC, BICp, CS) at {MOST.named('most')}, of the "
        f"{len(P.SIZES)} sizes, over {P.INSTANCES_B} parameter draws"
    )
    deviation = "'for the most part' read as 'most' (the readings have no row of its own)"
    wide = r.wide
    draws = int(wide.loc[wide.rep >= 1, "rep"].nunique())
    why = _missing(wide.loc[wide.rep >= 1, "n"].unique(), P.SIZES) or (
        f"not covered at this scale: needs {P.INSTANCES_B} parameter draws (ran {draws})"
        if draws < P.INSTANCES_B
        else ""
    )
    if draws == 0:
        return not_covered("H12", text, paper, crit, why, statement=P.STATEMENTS["H12"],
                           deviation=deviation, **_miss(NOT_COVERED, why))  # fmt: skip
    b = experiment_b(wide)
    med = b.pivot(index="n", columns="method", values="median_rank")
    flags = list(med["VB"] <= med[["BIC", "BICp", "CS"]].min(axis=1))
    frac_vb = float(np.mean(flags))
    status = _fraction_verdict(bool(quantified(flags, MOST, "sizes")), why)
    capped = float(wide[wide.rep >= 1]["vb_capped"].mean()) if "vb_capped" in wide else None
    return claim(
        "H12",
        text,
        paper,
        {
            "fraction_n_vb_best": frac_vb,
            "median_rank": med.to_dict(),
            "vb_capped_fraction": capped,
            "instances": draws,
        },
        crit,
        status,
        why,
        statement=P.STATEMENTS["H12"],
        deviation=deviation,
        **_miss(status, why),
        ours_text=f"VB median rank ≤ min(BIC, BICp, CS) at {frac_vb:.0%} of {len(med)} sizes "
        f"({draws} parameter draws)",
    )


CLAIMS = (
    claim_h1, claim_h2, claim_h3, claim_h4, claim_h5, claim_h6, claim_h7, claim_h8, claim_h9,
    claim_h10, claim_h11, claim_h12,
)  # fmt: skip


def evaluate_claims(
    results: Results, run: Mapping[str, float] | None = None
) -> list[dict[str, Any]]:
    """Every headline claim of decisions §7 with the paper's value, ours, the criterion and
    status, each with the scale it was judged at (``run``: workflow.run_scale of the run's
    config; None: the paper's)."""
    scale = None if run is None else run_scale_of(P.SCALE, run, SCALE_KEYS)
    return evaluate(CLAIMS, results, scale)
