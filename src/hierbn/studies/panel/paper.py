"""Every paper number and phrase the panel prints or judges, each read from the paper it comes
from (the panel has no paper of its own: each citation names its paper), with its locator and
the paper's own words as they read in ``shared/papers/<paper>-*.txt``. The claims of
:mod:`hierbn.studies.panel.claims` read their statements and paper values only from here; the
panel never imports another study, so it cites petitjean2018's Table 2 itself.

P1–P3 quote each paper's headline sentence; P4 and P5 are the panel's own hypotheses and quote
the sentence they generalise (their ``deviation`` says so). All five carry a sentence to the
panel's own protocol, so they are checks of ours, not a paper's claims.

The panel's scale (:data:`SCALE`) is the papers' settings it adopts: petitjean2018's HDP chains
and its 5x2 cross-validation, dombowsky2025's HiDDeN chains (config/paper.yaml's panel
section)."""

from __future__ import annotations

from hierbn.studies.citations import PaperValues
from hierbn.studies.scale import Dimension

PAPER = PaperValues("panel")

# ------------------------------------------------------------------ P1: azzimonti2019
P1 = PAPER.statement(
    "P1",
    "Section 4.1, on Figures 7 and 8",
    "As shown in Figure 7 and 8, the hierarchical model improves both accuracy and ROC AUC of "
    "the TAN classifier on the large majority of the 57 data sets.",
    paper="azzimonti2019",
)
AZZIMONTI_DATASETS = PAPER.value(
    "AZZIMONTI_DATASETS",
    57,
    "Section 4.1, on Figures 7 and 8",
    "on the large majority of the 57 data sets",
    paper="azzimonti2019",
)
AZZIMONTI_SIZES = PAPER.value(
    "AZZIMONTI_SIZES",
    (20, 40, 80, 160, 320, 640),
    "Section 4.1, protocol",
    "for each data set and for each $n \\in \\{20, 40, 80, 160, 320, 640\\}$",
    paper="azzimonti2019",
)

# ------------------------------------------------------------------ P2: petitjean2018
P2 = PAPER.statement(
    "P2",
    "Section 6.3, on Table 2",
    "It is clear from this table that our HDP estimates are far superior to m-estimates.",
    paper="petitjean2018",
)
PETITJEAN_DATASETS = PAPER.value(
    "PETITJEAN_DATASETS",
    68,
    "Section 6.1, Design",
    "All experiments are carried out on a total of 68 datasets from the UCI archive",
    paper="petitjean2018",
)
PETITJEAN_ALPHA = PAPER.value(
    "PETITJEAN_ALPHA",
    0.05,
    "Section 6.1, Design",
    "A two-tail binomial sign test is used to determine the significance of the results, "
    "using $p \\leq 0.05$",
    paper="petitjean2018",
)
# Table 2: win-draw-loss of HDP vs m-estimate, columns 0/1-loss then RMSE; the rows of the
# structures the panel runs (kDB-4 and kDB-5 are not panel structures)
_TABLE2_LOCATOR = "Table 2, row {}"
TABLE2: dict[str, dict[str, str]] = {
    structure: PAPER.value(
        f"TABLE2_{structure.upper()}",
        {"zero_one": zero_one, "rmse": rmse},
        _TABLE2_LOCATOR.format(row),
        f"{row}\t{zero_one}\t{rmse}",
        paper="petitjean2018",
    )
    for structure, row, zero_one, rmse in (
        ("nb", "Naive Bayes", "41-4-23", "40-0-28"),
        ("tan", "TAN", "45-4-19", "52-1-15"),
        ("kdb1", "kDB-1", "45-4-19", "50-1-17"),
        ("kdb2", "kDB-2", "54-2-12", "54-0-14"),
        ("kdb3", "kDB-3", "52-4-12", "53-2-13"),
        ("skdb", "SkDB", "45-4-19", "54-0-14"),
    )
}

# ------------------------------------------------------------------ P3: dombowsky2025
P3 = PAPER.statement(
    "P3",
    "Section 5.1, on Table 1",
    "HiDDeN always returns the lowest average RMSE to … and the difference in average RMSE "
    "between HiDDeN and competitors steadily increases with",
    paper="dombowsky2025",
)

# ------------------------------------------------ P4, P5: the panel's own hypotheses
P4 = PAPER.statement(
    "P4",
    "Abstract",
    "The proposed hierarchical model yields a major performance improvement in classification "
    "with Bayesian networks compared to traditional models.",
    paper="azzimonti2019",
)
P5 = PAPER.statement(
    "P5",
    "Section 6.3, on Figure 7 (learning curves)",
    "Globally, we can see that our HDP estimates seem to 'learn' faster, i.e. overfit less.",
    paper="petitjean2018",
)

# ------------------------------------------------ the paper scale the panel adopts
SCALE_HDP_ITERATIONS = PAPER.value(
    "SCALE_HDP_ITERATIONS",
    50000,
    "Section 6.2, Number of iterations",
    "Unless specified otherwise, we thus run the sampler for 50,000 iterations.",
    paper="petitjean2018",
)
SCALE_HIDDEN_ITERATIONS = PAPER.value(
    "SCALE_HIDDEN_ITERATIONS",
    10000,
    "Section 5.2, LUCAS",
    "with the number of iterations equal to 10,00010,000, 200200 of which are discarded as burn-in",
    paper="dombowsky2025",
)
SCALE_CV_ROUNDS = PAPER.value(
    "SCALE_CV_ROUNDS",
    5,
    "Section 6.1, Design",
    "Each algorithm is tested on each dataset using 2-fold cross validation repeated 5 times.",
    paper="petitjean2018",
)
SCALE = (
    Dimension(
        "hdp_iterations",
        SCALE_HDP_ITERATIONS,
        "HDP chains of {ours} of petitjean2018's {paper} iterations",
    ),
    Dimension(
        "hidden_iterations",
        SCALE_HIDDEN_ITERATIONS,
        "HiDDeN chains of {ours} of dombowsky2025's {paper} iterations",
    ),
    Dimension(
        "cv_rounds", SCALE_CV_ROUNDS, "{ours} of petitjean2018's {paper} rounds of 2-fold CV"
    ),
)
