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
    FAIL,
    NOT_COVERED,
    PASS,
    claim,
    evaluate,
    not_covered,
    num,
    reported,
)

# Tolerances stated up front (each claim's ``deviation`` repeats the one it uses).
ALMOST_ALL = 0.75  # H1: "for almost all n" = at least 15 of the 20 sizes
LONG_WAY = 2.0  # H3: "by a long way" = the next-best KL at least twice VB's (median over n)
NO_TREND = 0.3  # H4: "no trend apparent" = |Spearman(score, d)| <= 0.3
VB_BELOW_CS_MAX = 0.01  # H5: "only about 0.06%" = at most 1% of cells
LEVEL_SMALL = 5.0  # H6: points above the paper's 5.7% allowed at n <= 560
LEVEL_LARGE = 15.0  # H6: points either side of the paper's 71.7% at n = 10,240
REJECTION_SLACK = 1.0  # H7: a fall in rejection of up to 1 point counts as noise
K_FACTOR = 4.0  # H8: a crossing within a factor of 4 of the paper's K
GAP_RECOVERED = 0.1  # H11: VB has recovered the MAP estimate when the gap is <= 0.1 nats


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
def claim_h1(r: Results) -> dict[str, Any]:
    paper = vb_not_worse(paper_ranks())
    ranks = r.ranks
    frac = vb_not_worse(ranks)
    ok = all(v >= ALMOST_ALL for v in frac.values())
    why = _missing(ranks.index, P.SIZES)
    return claim(
        "H1",
        "VB ranks the true structure at least as high as BIC, BICp and CS at almost all n "
        "(Table 2)",
        paper,
        {"fraction_vb_rank_le": frac, "sizes": [int(n) for n in ranks.index]},
        f"VB rank <= each of BIC's, BICp's and CS's at >= {ALMOST_ALL:.0%} of the "
        f"{len(P.SIZES)} sizes",
        _fraction_verdict(ok, why),
        why,
        statement=P.STATEMENTS["H1"],
        deviation=f"'almost all n' read as at least {ALMOST_ALL:.0%} of the {len(P.SIZES)} "
        "sizes, a tie counted as VB not worse (the paper's own Table 2 has VB <= CS at 16 of 20 "
        "sizes, 3 of them ties)",
        paper_text="VB rank ≤ "
        + ", ".join(f"{b}'s at {v * len(P.SIZES):.0f}/{len(P.SIZES)}" for b, v in paper.items())
        + " sizes",
        ours_text="VB rank ≤ "
        + ", ".join(f"{b}'s at {v:.0%}" for b, v in frac.items())
        + f" of {len(ranks)} sizes",
    )


H2_METHODS = ("BICp", "CS", "VB", "AIS")


def claim_h2(r: Results) -> dict[str, Any]:
    n = P.LARGEST_N
    text = f"At n = {num(n)}, BICp, CS, VB and AIS all rank the true structure first"
    paper_row = dict(zip(P.TABLE2_METHODS, P.TABLE2[n], strict=True))
    paper = {m: paper_row[m] for m in (*H2_METHODS, "BIC")}
    crit = f"rank 1 for each of {', '.join(H2_METHODS)} at n = {num(n)}"
    why = _missing(r.sizes, [n]) or _ais_missing(r, [n])
    paper_text = f"ranks at n = {num(n)}: " + ", ".join(f"{m} {v}" for m, v in paper.items())
    if n not in r.ranks.index:
        return not_covered(
            "H2", text, paper, crit, why, statement=P.STATEMENTS["H2"], paper_text=paper_text
        )
    top = {m: int(r.ranks.loc[n, m]) for m in (*H2_METHODS, "BIC") if m in r.ranks}
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
        paper_text=paper_text,
        ours_text=f"ranks at n = {num(n)}: " + ", ".join(f"{m} {v}" for m, v in top.items()),
    )


def claim_h3(r: Results) -> dict[str, Any]:
    text = "VB's posterior over structures is closest to AIS's, by a long way (Fig. 3(c))"
    crit = (
        f"KL(P_AIS || P_VB) lowest of BIC, BICp, CS, VB at >= 70% of the {len(P.SIZES)} sizes, "
        f"the next-lowest KL >= {LONG_WAY:g}x VB's (median over sizes)"
    )
    paper = "lowest by a long way over a wide range of sizes"
    deviation = (
        f"'over a wide range of data set sizes' read as at >= 70% of the {len(P.SIZES)} sizes "
        f"and 'by a long way' as the next-lowest KL at least {LONG_WAY:g} times VB's (median); "
        "KL(P_AIS || P_method), decision A14"
    )
    why = _ais_missing(r, P.SIZES)
    if "AIS" not in r.wide:
        return not_covered(
            "H3", text, paper, crit, why, statement=P.STATEMENTS["H3"], deviation=deviation
        )
    kl = kl_to_ais(r.wide, list(CORRECTED)).pivot(index="n", columns="method", values="kl")
    others = kl[["BIC", "BICp", "CS"]].min(axis=1)
    best = float((kl["VB"] < others).mean())
    margin = float((others / kl["VB"]).median())
    ok = best >= 0.7 and margin >= LONG_WAY
    return claim(
        "H3",
        text,
        paper,
        {"fraction_sizes_vb_lowest_kl": best, "median_margin": margin, "kl": kl.to_dict()},
        crit,
        _fraction_verdict(ok, why),
        why,
        statement=P.STATEMENTS["H3"],
        deviation=deviation,
        ours_text=f"VB has the lowest KL to AIS at {best:.0%} of {len(kl)} sizes; next-lowest "
        f"/ VB {num(margin, 2)}× (median); median KL "
        + ", ".join(f"{m} {num(kl[m].median(), 2)}" for m in kl.columns),
    )


H4_METHODS = ("MAP", "BIC", "BICp", "CS", "VB", "AIS")


def h4_holds(rho: Mapping[int, Mapping[str, float]]) -> dict[str, bool]:
    """The parts of H4 on Spearman(score, d) per n: MAP up; BIC, BICp, CS down at every n;
    CS's trend weaker at the largest n than at the smallest; VB and AIS flat."""
    sizes = sorted(rho)
    flat = [m for m in ("VB", "AIS") if all(m in rho[n] for n in sizes)]
    return {
        "MAP up": all(rho[n]["MAP"] > 0 for n in sizes),
        "BIC, BICp down": all(rho[n]["BIC"] < 0 and rho[n]["BICp"] < 0 for n in sizes),
        "CS down": all(rho[n]["CS"] < 0 for n in sizes),
        "CS weakens": abs(rho[sizes[-1]]["CS"]) < abs(rho[sizes[0]]["CS"]),
        "VB, AIS flat": all(abs(rho[n][m]) <= NO_TREND for n in sizes for m in flat),
    }


def claim_h4(r: Results) -> dict[str, Any]:
    rho: dict[int, dict[str, float]] = {}
    for n, g in r.instance0.groupby("n"):
        if int(n) in P.FIG2_SIZES:
            rho[int(n)] = {
                m: float(spearmanr(g["d"], g[m]).statistic)
                for m in H4_METHODS
                if m in g and g[m].notna().all() and (m != "AIS" or r.ais_steps == P.AIS_STEPS)
            }
    parts = h4_holds(rho) if rho else {}
    why = _missing(rho, P.FIG2_SIZES) or _ais_missing(r, P.FIG2_SIZES)
    ranges = {m: [v[m] for v in rho.values() if m in v] for m in H4_METHODS}
    return claim(
        "H4",
        "Complexity bias (Fig. 2): MAP trends up with d; BIC, BICp and CS down (CS weakening "
        "with n); VB and AIS show no trend",
        "MAP up; BIC, BICp, CS down (CS weaker at large n, still present at "
        f"{num(P.LARGEST_N)}); VB, AIS flat",
        {"spearman": rho, "parts": parts},
        f"Spearman(score, d) over the 136 structures at each Fig. 2 row n = "
        f"{_sizes_text(P.FIG2_SIZES)}: MAP > 0; BIC, BICp, CS < 0; |CS| smaller at the largest "
        f"n than at the smallest; |VB|, |AIS| <= {NO_TREND:g}",
        status := _verdict(bool(parts) and all(parts.values()), why),
        _note(status, why, [k for k, v in parts.items() if not v]),
        statement=P.STATEMENTS["H4"],
        deviation=f"a trend is Spearman's rank correlation of score with d(m); 'no trend "
        f"apparent' read as |rho| <= {NO_TREND:g}",
        ours_text="Spearman(score, d) over sizes: "
        + "; ".join(f"{m} {num(min(v), 2)} … {num(max(v), 2)}" for m, v in ranges.items() if v),
    )


def claim_h5(r: Results) -> dict[str, Any]:
    wide = r.wide
    viol_indep = float((wide["VB*"] < wide["CS*"] - 1e-9).mean())
    viol_cs = (
        float((wide["VBfromCS*"] < wide["CS*"] - 1e-9).mean()) if "VBfromCS*" in wide else None
    )
    exact_ok = None
    if "exact" in wide and wide["exact"].notna().any():
        sub = wide[wide["exact"].notna()]
        exact_ok = bool(
            (sub["CS*"] <= sub["exact"] + 1e-9).all() and (sub["VB*"] <= sub["exact"] + 1e-9).all()
        )
    ok = viol_cs == 0 and viol_indep <= VB_BELOW_CS_MAX and exact_ok is not False
    why = "" if viol_cs is not None else "not covered: VB from the CS construction was not run"
    exact_text = "not checked" if exact_ok is None else num(exact_ok)
    paper = P.VB_BELOW_CS
    return claim(
        "H5",
        "VB below CS is rare with independent EM and VBEM, and never with the Section 6 "
        "construction; CS* and VB* are lower bounds",
        paper,
        {
            "vb_lt_cs_fraction_independent": viol_indep,
            "vb_from_cs_violations": viol_cs,
            "bounds_hold_vs_exact": exact_ok,
            "cells": len(wide),
        },
        f"VB* < CS* in <= {VB_BELOW_CS_MAX:.0%} of cells (independent starts); VB from the CS "
        "construction >= CS* in every cell; CS*, VB* <= exact where enumerated",
        _verdict(viol_indep <= VB_BELOW_CS_MAX and exact_ok is not False, why)
        if viol_cs is None
        else (PASS if ok else FAIL),
        why,
        statement=P.STATEMENTS["H5"],
        deviation=f"'only about {paper['percent']}%' judged as at most {VB_BELOW_CS_MAX:.0%} of "
        f"the cells that ran (the paper's rate is over {num(paper['total'])} Experiment B cells)",
        paper_text=f"VB < CS in {num(paper['count'])} of {num(paper['total'])} scores "
        f"({paper['percent']}%); zero with the construction",
        ours_text=f"VB < CS in {viol_indep:.2%} of {num(len(wide))} cells (independent starts), "
        f"{num(viol_cs)} from the CS construction; CS*, VB* ≤ exact: {exact_text}",
    )


H6_ROW = "% AIS(1) < VB*"


def h6_holds(levels: Mapping[int, float]) -> dict[int, bool]:
    """Per size: %AIS(1) < VB* within the paper's level (Table 3) plus the stated tolerance:
    <= 5.7 + LEVEL_SMALL for n <= 560, within LEVEL_LARGE of 71.7 at n = 10,240."""
    small, large = P.TABLE3[H6_ROW][0], P.TABLE3[H6_ROW][-1]
    out = {}
    for n, v in levels.items():
        if n <= P.SMALL_N_MAX:
            out[n] = v <= small + LEVEL_SMALL
        elif n == P.LARGEST_N:
            out[n] = abs(v - large) <= LEVEL_LARGE
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
        f"%AIS(1) < VB* <= {small + LEVEL_SMALL:g} at every n <= {P.SMALL_N_MAX}, and within "
        f"{large - LEVEL_LARGE:g}–{large + LEVEL_LARGE:g} at n = {num(P.LARGEST_N)}"
    )
    deviation = (
        f"the paper's levels with a tolerance: up to {LEVEL_SMALL:g} points above {small}% at "
        f"n <= {P.SMALL_N_MAX}, {LEVEL_LARGE:g} points either side of {large}% at "
        f"n = {num(P.LARGEST_N)}; the text's 'at and beyond n = 560 … more than half' "
        "contradicts Table 3 (erratum 11) and is not judged"
    )
    need = [n for n in P.SIZES if n <= P.SMALL_N_MAX] + [P.LARGEST_N]
    why = _ais_missing(r, need)
    if not r.has_ais or r.ais_steps != P.AIS_STEPS:
        return not_covered(
            "H6",
            text,
            paper,
            crit,
            why,
            statement=P.STATEMENTS["H6"],
            deviation=deviation,
            paper_text=paper_text,
        )
    levels = dict(zip(r.table3["n"].astype(int), r.table3[H6_ROW], strict=True))
    ok = h6_holds(levels)
    return claim(
        "H6",
        text,
        paper,
        {"levels": levels, "within_tolerance": ok},
        crit,
        status := _verdict(all(ok.values()), why),
        _note(status, why, [f"n = {num(n)}" for n, v in ok.items() if not v]),
        statement=P.STATEMENTS["H6"],
        deviation=deviation,
        paper_text=paper_text,
        ours_text="AIS(1) < VB*: "
        + ", ".join(f"{num(v, 2)}% (n={num(n)})" for n, v in levels.items()),
    )


def h7_holds(rejection: pd.Series, quarters: pd.DataFrame) -> dict[str, bool]:
    """H7's parts: MH rejection non-decreasing in n (REJECTION_SLACK points of noise); at
    every n acceptance falls from the first quarter of the schedule to the last; the fall is
    larger at the largest n than at the smallest (``quarters``: index n, columns q1..q4)."""
    drop = quarters.iloc[:, 0] - quarters.iloc[:, -1]
    return {
        "rejection rises with n": bool(np.all(np.diff(rejection.to_numpy()) >= -REJECTION_SLACK)),
        "acceptance falls along the schedule": bool((drop >= 0).all()),
        "fall larger at large n": bool(drop.iloc[-1] > drop.iloc[0]),
    }


def claim_h7(r: Results) -> dict[str, Any]:
    text = "MH rejection grows along the schedule, more so at large n (Fig. 6(c), Table 3)"
    rej_row = P.TABLE3["% MH rejection"]
    paper = {f"<={P.SMALL_N_MAX}": rej_row[0], str(P.LARGEST_N): rej_row[-1]}
    paper_text = (
        f"MH rejection < {rej_row[0]}% for n ≤ {P.SMALL_N_MAX}, {rej_row[-1]}% at "
        f"n = {num(P.LARGEST_N)}; falling acceptance per quarter, steeper at large n"
    )
    crit = (
        f"rejection non-decreasing in n ({REJECTION_SLACK:g}-point tolerance); first-quarter "
        "acceptance >= last-quarter at every n; the fall larger at the largest n than the "
        "smallest"
    )
    why = _missing(r.ais_sizes, P.SIZES, "AIS")
    if len(r.ais_sizes) < 2:
        return not_covered(
            "H7", text, paper, crit, why, statement=P.STATEMENTS["H7"], paper_text=paper_text
        )
    rej = r.table3.set_index("n")["% MH rejection"]
    ais = r.ais
    quarters = (
        ais[ais.metric.str.startswith("acceptance_q")]
        .groupby(["n", "metric"])["value"]
        .mean()
        .unstack()
        .sort_index()
    )
    parts = h7_holds(rej, quarters)
    drop = quarters.iloc[:, 0] - quarters.iloc[:, -1]
    return claim(
        "H7",
        text,
        paper,
        {"rejection_by_n": rej.to_dict(), "quarter_drop_by_n": drop.to_dict(), "parts": parts},
        crit,
        status := _verdict(all(parts.values()), why),
        _note(status, why, [k for k, v in parts.items() if not v]),
        statement=P.STATEMENTS["H7"],
        deviation=f"the rejection rate of one schedule of K = {num(r.ais_steps)} steps (the "
        "paper's acceptance is a per-step rate, judged at any K)",
        paper_text=paper_text,
        ours_text="MH rejection "
        + ", ".join(f"{num(v, 2)}% (n={num(int(n))})" for n, v in rej.items())
        + "; acceptance fall q1→q4 "
        + ", ".join(f"{num(v, 2)} (n={num(int(n))})" for n, v in drop.items()),
    )


def crossing(medians: pd.Series, reference: float) -> int | None:
    """The first schedule length K at which the median ln AIS estimate reaches ``reference``."""
    return next((int(k) for k, v in medians.sort_index().items() if v >= reference), None)


def h8_holds(medians: pd.Series, references: Mapping[str, float]) -> dict[str, bool | None]:
    """Per reference line (BIC, VB): whether the median crosses it within a factor K_FACTOR of
    the paper's K; None when the schedules run are too short to tell."""
    out: dict[str, bool | None] = {}
    longest = int(medians.index.max())
    for name, ref in references.items():
        k_paper = P.CROSSINGS[name]
        found = crossing(medians, ref)
        if found is not None:
            out[name] = k_paper / K_FACTOR <= found <= k_paper * K_FACTOR
        else:
            out[name] = False if longest >= k_paper * K_FACTOR else None
    return out


def claim_h8(r: Results) -> dict[str, Any]:
    text = (
        f"AIS needs long schedules (Fig. 6(a)): it passes BIC at K ≈ {num(P.CROSSINGS['BIC'])} "
        f"and the VB bound at K ≈ {num(P.CROSSINGS['VB'])}"
    )
    paper = {f"crosses_{k}_at_K": v for k, v in P.CROSSINGS.items()}
    paper_text = f"BIC at K ≈ {num(P.CROSSINGS['BIC'])}, VB at K ≈ {num(P.CROSSINGS['VB'])}"
    crit = (
        f"the first K at which the median over prior-started traces reaches BIC* (VB*) lies "
        f"within a factor {K_FACTOR:g} of {num(P.CROSSINGS['BIC'])} "
        f"({num(P.CROSSINGS['VB'])}), n = {P.SCHEDULE_N}"
    )
    deviation = (
        f"'about' read as within a factor {K_FACTOR:g} in K (decisions §7 H8); the reference lines "
        "are the true structure's uncorrected BIC* and VB* (the bound proper) at n = "
        f"{P.SCHEDULE_N}"
    )
    schedule = r.schedule
    args = {"statement": P.STATEMENTS["H8"], "deviation": deviation, "paper_text": paper_text}
    if schedule is None or schedule.empty:
        why = f"not covered at this scale: needs the schedule study at n = {P.SCHEDULE_N}"
        return not_covered("H8", text, paper, crit, why, **args)
    n = int(schedule["n"].iloc[0])
    g = r.instance0[(r.instance0.n == n) & r.instance0.is_true]
    if n != P.SCHEDULE_N or g.empty:
        why = (
            f"not covered at this scale: needs the schedule study and scores at n = {P.SCHEDULE_N}"
        )
        return not_covered("H8", text, paper, crit, why, **args)
    prior = schedule[schedule.start == "prior"].groupby("steps")["value"].median()
    refs = {"BIC": float(g["BIC*"].iloc[0]), "VB": float(g["VB*"].iloc[0])}
    parts = h8_holds(prior, refs)
    found = {k: crossing(prior, v) for k, v in refs.items()}
    longest = int(prior.index.max())
    why = (
        f"not covered at this scale: needs schedules up to K = "
        f"{num(int(max(P.CROSSINGS.values()) * K_FACTOR))} (longest run {num(longest)})"
        if None in parts.values()
        else ""
    )
    ok = all(v is not False for v in parts.values())
    return claim(
        "H8",
        text,
        paper,
        {"median_log_z_by_K": prior.to_dict(), "references": refs, "first_K_reaching": found},
        crit,
        status := _verdict(ok, why),
        _note(status, why, [f"crossing {k}" for k, v in parts.items() if v is False]),
        ours_text=f"median ln Z first reaches BIC* at K = {num(found['BIC'])}, VB* at K = "
        f"{num(found['VB'])} (K run: {num(int(prior.index.min()))} … {num(longest)})",
        **args,
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
        "wall-clock times of two implementations on different machines; the ratios are shown "
        "beside the paper's"
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


def h10_holds(changes: Mapping[str, Mapping[str, int]]) -> bool:
    """H10's judged part: the correction improves the rank of the true structure for VB at
    more sizes than for any other score (and at one at least)."""
    vb = changes["VB"]["improved"]
    return vb > 0 and all(vb > c["improved"] for m, c in changes.items() if m != "VB")


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
    ok = h10_holds(changes)
    return claim(
        "H10",
        "The alias correction improves the rank of the true structure very slightly for CS and "
        "most for VB (Table 2)",
        {"improved_sizes": {m: c["improved"] for m, c in paper_changes.items()}, "degraded": 0},
        {"changes_R1prime": changes, "degraded_cells_R1": degraded_r1},
        f"under rule R1' the correction improves VB's rank at more of the {len(P.SIZES)} sizes "
        "than any other score's (and at one at least)",
        _fraction_verdict(ok, why),
        why,
        statement=P.STATEMENTS["H10"],
        deviation="the paper's alias rule is unknown (decision A2); under the primary rule R1' "
        "the true structure has the largest alias count, so 'nowhere degrades' holds by "
        "construction and is not judged (the degradations under the sensitivity rule R1 are "
        "shown); 'especially so for VB' is judged",
        paper_text="improved: "
        + ", ".join(f"{m} {c['improved']}" for m, c in paper_changes.items())
        + f" of {len(P.SIZES)} sizes; degraded nowhere",
        ours_text="improved (R1'): "
        + ", ".join(f"{m} {c['improved']}" for m, c in changes.items())
        + f" of {len(r.ranks)} sizes; rank cells degraded under R1: {num(degraded_r1)}",
    )


def h11_holds(gap: pd.Series) -> bool:
    """Eq. (61): the VB–MAP parameter gap is smallest at the largest n and within
    GAP_RECOVERED nats there."""
    gap = gap.sort_index()
    return bool(gap.iloc[-1] <= gap.min() and gap.iloc[-1] <= GAP_RECOVERED)


def claim_h11(r: Results) -> dict[str, Any]:
    text = "VB recovers the MAP parameter estimate as n grows (eq. 61)"
    crit = (
        "count-weighted mean |ln θ̃ − ln θ̂_MAP| of the true structure (median over parameter "
        f"draws) smallest at the largest n run and <= {GAP_RECOVERED:g} nats there"
    )
    deviation = (
        "eq. (61) measured on the fits: ln θ̃ = ψ(α) − ψ(α0) of the best VB restart against "
        "the softmax-basis MAP estimate of the best EM restart (best over hidden-state "
        "relabellings), averaged over the parameters with weights N̂ (a parameter no datum "
        "uses weighs nothing); the limit is "
        f"judged over the sizes run, 'recovers' as a gap <= {GAP_RECOVERED:g} nats"
    )
    truth = r.wide[r.wide.is_true]
    if "vb_map_gap" not in truth or truth["vb_map_gap"].isna().all() or truth.n.nunique() < 3:
        why = (
            "not covered at this scale: needs the vb_map_gap diagnostic (scores run with this "
            "code) at 3 or more sizes"
        )
        return not_covered(
            "H11", text, "gap → 0", crit, why, statement=P.STATEMENTS["H11"], deviation=deviation
        )
    gap = truth.groupby("n")["vb_map_gap"].median()
    return claim(
        "H11",
        text,
        "gap → 0",
        {str(int(k)): v for k, v in gap.items()},
        crit,
        PASS if h11_holds(gap) else FAIL,
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
        f"VB median rank <= min(BIC, BICp, CS) at more than half of the {len(P.SIZES)} sizes, "
        f"over {P.INSTANCES_B} parameter draws"
    )
    deviation = f"'for the most part' read as more than half of the {len(P.SIZES)} sizes"
    wide = r.wide
    draws = int(wide.loc[wide.rep >= 1, "rep"].nunique())
    why = _missing(wide.loc[wide.rep >= 1, "n"].unique(), P.SIZES) or (
        f"not covered at this scale: needs {P.INSTANCES_B} parameter draws (ran {draws})"
        if draws < P.INSTANCES_B
        else ""
    )
    if draws == 0:
        return not_covered(
            "H12", text, paper, crit, why, statement=P.STATEMENTS["H12"], deviation=deviation
        )
    b = experiment_b(wide)
    med = b.pivot(index="n", columns="method", values="median_rank")
    frac_vb = float((med["VB"] <= med[["BIC", "BICp", "CS"]].min(axis=1)).mean())
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
        _fraction_verdict(frac_vb > 0.5, why),
        why,
        statement=P.STATEMENTS["H12"],
        deviation=deviation,
        ours_text=f"VB median rank ≤ min(BIC, BICp, CS) at {frac_vb:.0%} of {len(med)} sizes "
        f"({draws} parameter draws)",
    )


CLAIMS = (
    claim_h1, claim_h2, claim_h3, claim_h4, claim_h5, claim_h6, claim_h7, claim_h8, claim_h9,
    claim_h10, claim_h11, claim_h12,
)  # fmt: skip


def evaluate_claims(results: Results) -> list[dict[str, Any]]:
    """Every headline claim of decisions §7 with the paper's value, ours, the criterion and status."""
    return evaluate(CLAIMS, results)
