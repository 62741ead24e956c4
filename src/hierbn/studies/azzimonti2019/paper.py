"""Every number and phrase of azzimonti2019 that the study prints or judges, each registered
with its locator and the paper's own words (``hierbn.studies.citations``; checked against
``shared/papers/azzimonti2019-*.txt`` by ``tests/test_paper_values.py``). The paper has no
numeric result tables: its numbers are in the text of Secs. 3.2, 4.1 and 5.1. Claims, tables,
report and notebook read paper values from here only.

The paper's words are read through ``hierbn.studies.readings`` (docs/readings.md); the few
numbers a phrase states in words ("two orders of magnitude": k = 2) stand next to the phrase,
unregistered, with the reading in a comment. ``SCALE`` is the paper's own scale (its grids,
repetitions, data sets and users), which a run's config is compared with
(``hierbn.studies.scale``)."""

from __future__ import annotations

from hierbn.studies.citations import PaperValues
from hierbn.studies.scale import Dimension

PAPER = PaperValues("azzimonti2019")

# --------------------------------------------------------------- the experimental grids
E1_N_X = PAPER.value(
    "E1_N_X",
    (2, 4, 6, 8),
    "Section 3.2, simulation grid",
    "with $|\\mathcal{X}| \\in \\{2,4,6,8\\}$ and",
)
E1_N_Y = PAPER.value(
    "E1_N_Y",
    (2, 4, 6, 8),
    "Section 3.2, simulation grid",
    "and $|\\mathcal{Y}| \\in \\{2,4,6,8\\}$.",
)
E1_N_TEXT = PAPER.value(
    "E1_N_TEXT",
    "20,40,80,160,320,640",
    "Section 3.2, simulation grid (a string: the test's thousands rule would join these numbers)",
    "we generate data sets with size $n \\in \\{20,40,80,160,320,640\\}$.",
)
E1_N = tuple(int(v) for v in E1_N_TEXT.split(","))
E1_REPS = PAPER.value(
    "E1_REPS",
    10,
    "Section 3.2",
    "We repeat the data sampling and the estimation procedure 10 times",
)
E1_EXACT_N = PAPER.value(
    "E1_EXACT_N",
    (20, 40, 80, 160),
    "Section 3.2, comparison with the exact posterior",
    "For small values of n (20, 40, 80, 160), we compare the parameter estimates",
)
E2_DATASETS = PAPER.value(
    "E2_DATASETS", 57, "Section 4.1", "We consider 57 data sets from UCI Machine Learning"
)
E2_N = PAPER.value(
    "E2_N",
    (20, 40, 80, 160, 320, 640),
    "Section 4.1 (E2; E3 adopts the same procedure, Sec. 4.1.1)",
    "for each $n \\in \\{20, 40, 80, 160, 320, 640\\}$, we repeat 10 times the procedure",
)
E2_REPS = PAPER.value(
    "E2_REPS",
    10,
    "Section 4.1 (E2; E3 adopts the same procedure, Sec. 4.1.1)",
    "640\\}$, we repeat 10 times the procedure",
)
E5_N = PAPER.value(
    "E5_N",
    (100, 250, 500),
    "Section 5.1",
    "For each of the K users and for each $n \\in \\{100, 250, 500\\}$",
)
E5_K = PAPER.value("E5_K", (100, 69, 6), "Section 5.1", "i.e., $K \\in \\{100, 69, 6\\}$.")
E5_SCENARIOS = tuple(zip(E5_N, E5_K, strict=True))  # (n, K): the paper pairs them in order
E5_PER_USER = PAPER.value(
    "E5_PER_USER",
    {"n_users": 100, "n": 100},
    "Section 5.1, Figs. 13-14",
    "for each of the K=100 users, when n=100.",
)

# ------------------------------------------------------------------ Lemma 1 (H1)
H1 = PAPER.statement(
    "H1",
    "Appendix A.1, proof of Lemma 1 (eq. (6) in the main text prints s/(s+s_0+1): decision A1)",
    "= \\frac{s+1}{s+s_0+1}.",
)
LEMMA1_FORMULA = "(s+1)/(s+s0+1)"  # the appendix's result above, as printed in the claim

# ------------------------------------------------------------- E1: VI vs MCMC (H2-H7)
H2 = PAPER.statement(
    "H2",
    "Section 3.2, on Figure 3",
    "Figure 3 shows that the MSE, KL and H obtained by means of VI and MCMC are equivalent in "
    "every setting.",
)
H3 = PAPER.statement(
    "H3",
    "Section 3.2, on Figure 4",
    "The computational times decrease of about two orders of magnitude with respect to MCMC, "
    "as shown in Figure 4. … The dimension of the conditioning set $|\\mathcal{Y}|$ does not "
    "affect the computational times.",
)
H3_ORDERS = PAPER.value(
    "H3_ORDERS",
    "two orders of magnitude",
    "Section 3.2",
    "The computational times decrease of about two orders of magnitude with respect to MCMC",
)
H3_K = 2  # "two orders of magnitude": k = 2, read as a ratio >= 10**k (docs/readings.md)
H3_MCMC_SECONDS = PAPER.value(
    "H3_MCMC_SECONDS",
    {"2": 10, "8": 60},
    "Section 3.2, on Figure 4 (mean seconds per CPT for |X| = 2 and 8)",
    "the average time required by MCMC is between 10 and 60 seconds",
)
H3_VI_SECONDS = PAPER.value(
    "H3_VI_SECONDS",
    {"2": 0.04, "8": 0.5},
    "Section 3.2, on Figure 4 (mean seconds per CPT for |X| = 2 and 8)",
    "it drops respectively to 0.04 and 0.5 seconds for VI.",
)
H4 = PAPER.statement(
    "H4",
    "Section 3.2",
    "The VI algorithm converges in tens of iterations in all the performed simulations: the "
    "estimated lower bound reaches a plateau in few iterations (less than 5) and only minor "
    "adjustments are performed in the following iterations.",
)
H4_PLATEAU = PAPER.value(
    "H4_PLATEAU", 5, "Section 3.2", "reaches a plateau in few iterations (less than 5)"
)
TENS_K = 2  # "in tens of iterations": fewer than 10**2, the next order of magnitude
H5 = PAPER.statement(
    "H5",
    "Section 3.2, on Figure 3",
    "As expected, for both algorithms MSE, KL and H decrease with the number of observations "
    "and increases with $|\\mathcal{Y}|$.",
)
H6 = PAPER.statement(
    "H6",
    "Section 3.2",
    "For small values of n (20, 40, 80, 160), we compare the parameter estimates obtained by "
    "means of VI also with respect to the posterior expectation computed by means of "
    "polynomial integration, as described in Appendix A.3. The obtained mean squared errors "
    "are on average equal to $10^{-5}$ .",
)
H6_MSE_TEXT = PAPER.value(
    "H6_MSE_TEXT",
    "10^{-5}",
    "Section 3.2",
    "The obtained mean squared errors are on average equal to $10^{-5}$",
)
H6_MSE_EXPONENT = -5  # the "10^{-5}" above: printed as a power of ten, its last place the exponent
H6_MSE = 10.0**H6_MSE_EXPONENT
H7 = PAPER.statement(
    "H7",
    "Section 3.2",
    "Comparing to the automatic variational inference (Kucukelbir et al., 2017) implemented in "
    "Stan, we obtain on average a relative improvement of about 35% in terms of MSE",
)
H7_IMPROVEMENT = PAPER.value(
    "H7_IMPROVEMENT",
    {"mse_vs_exact": 0.35, "kl_vs_exact": 0.20, "hellinger_vs_exact": 0.08, "seconds": 0.30},
    "Section 3.2, VI vs Stan ADVI",
    "relative improvement of about 35% in terms of MSE (corresponding to an absolute "
    "improvement of $3 \\cdot 10^{-6}$), 20% in terms of KL, 8% in terms of H and 30% in terms "
    "of computing time.",
)

# ------------------------------------------------------ E2: TAN classification (H8-H11)
H8 = PAPER.statement(
    "H8",
    "Section 4.1, on Figures 7 and 8",
    "As shown in Figure 7 and 8, the hierarchical model improves both accuracy and ROC AUC of "
    "the TAN classifier on the large majority of the 57 data sets.",
)
H9 = H8  # one sentence for both metrics (H8 accuracy, H9 ROC AUC)
H10 = PAPER.statement(
    "H10",
    "Section 4.1, on Figures 7 and 8",
    "The improvements are huge when the training sets are small, i.e, n=20, n=40, (the maximum "
    "achievable value of both indicators is 1). However, consistent improvements, albeit "
    "smaller, are observed also on the largest sample sizes.",
)
H10_SMALL_N = PAPER.value("H10_SMALL_N", (20, 40), "Section 4.1", "small, i.e, n=20, n=40,")
H11 = PAPER.statement(
    "H11",
    "Section 4.1",
    "These considerations remain valid regardless whether traditional estimation is carried "
    "out using iss=1 or iss=10, although in general the latter setting performs better.",
)

# --------------------------------------------------------------- E3: Adult MSE (H12-H13)
H12 = PAPER.statement(
    "H12",
    "Section 4.1.1, on Figure 9 (global MSE)",
    "The hierarchical model achieves lower MSE for each sample size then the traditional "
    "parameter estimation … As expected, the difference between the hierarchical estimators "
    "and the traditional estimator decreases with n; yet even for n=640, the difference in MSE "
    "is positive in favor of the hierarchical model in all the simulations.",
)
H12_N = PAPER.value("H12_N", 640, "Section 4.1.1", "yet even for n=640, the difference in MSE")
H13 = PAPER.statement(
    "H13",
    "Section 4.1.1, on Figure 9 (per CPT)",
    "The larger advantages are obtained for the features whose parents have a large number of "
    "joint states, namely: X_3 , X_4 , X_5 , X_8 , X_{10} , X_{12} .",
)
FIG9_N = PAPER.value(
    "FIG9_N",
    160,
    "Section 4.1.1, on Figure 9",
    "for a given sample size (n=160)",
)
H13_NODE_NAMES = PAPER.value(
    "H13_NODE_NAMES",
    ("X_3", "X_4", "X_5", "X_8", "X_{10}", "X_{12}"),
    "Section 4.1.1, on Figure 9",
    "namely: X_3 , X_4 , X_5 , X_8 , X_{10} , X_{12} .",
)
H13_PARENT_STATES = PAPER.value(
    "H13_PARENT_STATES",
    (28, 28, 10, 82, 14, 28),
    "Section 4.1.1, on Figure 9",
    "Indeed, the number of the joint states of their parents is respectively 28, 28, 10, 82, "
    "14 and 28.",
)
# X_i read as the 0-based column index i of Adult (X0 = age): node -> joint parent states
H13_NODES = {
    int(name.strip("X_{}")): states
    for name, states in zip(H13_NODE_NAMES, H13_PARENT_STATES, strict=True)
}

# ---------------------------------------------------------------- E4: Adult timing (H14-H15)
H14 = PAPER.statement(
    "H14",
    "Section 4.1.2",
    "Using MCMC sampling, the time required for estimating the parameters of a single CPT on "
    "the *Adult* data set ranges between 6 seconds and 1 hour. Using VI, such a time is "
    "comprised between 0.01 and 18 seconds when our VI algorithm is used.",
)
H14_MCMC_CPT_S = PAPER.value(
    "H14_MCMC_CPT_S",
    (6, "1 hour"),
    "Section 4.1.2",
    "ranges between 6 seconds and 1 hour",
)
H14_VI_CPT_S = PAPER.value(
    "H14_VI_CPT_S", (0.01, 18), "Section 4.1.2", "comprised between 0.01 and 18 seconds"
)
H14_VI_TAN_S = PAPER.value(
    "H14_VI_TAN_S",
    20,
    "Section 4.1.2",
    "requires on average 20 seconds using the proposed VI algorithm",
)
H14_MCMC_TAN = PAPER.value(
    "H14_MCMC_TAN",
    "about one hour and ten minutes",
    "Section 4.1.2",
    "the computational time required on average by MCMC is instead about one hour and ten minutes",
)
H14_MCMC_CPT_MAX_S = 3600  # the "1 hour" above in seconds
H21 = PAPER.statement(
    "H21",
    "Section 4.1.2",
    "Learning the parameters of the whole TAN model on the *Adult* data set requires on average "
    "20 seconds using the proposed VI algorithm; the computational time required on average by "
    "MCMC is instead about one hour and ten minutes.",
)
H15 = PAPER.statement(
    "H15",
    "Section 4.1.2",
    "Another practical advantage of our variational inference implementation is that it always "
    "converged successfully in all the experiments, while we experienced a significant number "
    "of crashes (around 10% of the CPTs to be estimated in the *Adult* data set) with Stan "
    "automatic variational inference, especially when dealing with the largest examples.",
)
H15_ADVI_CRASHES = PAPER.value(
    "H15_ADVI_CRASHES",
    0.10,
    "Section 4.1.2",
    "around 10% of the CPTs to be estimated in the *Adult* data set",
)
H15_ADVI_CRASHES_MD = PAPER.value(
    "H15_ADVI_CRASHES_MD",
    0.20,
    "Section 5.1",
    "Stan automatic variational inference experienced crashes in about 20% of the cases, when "
    "borrowing strength among 100 users.",
)

# ------------------------------------------- Adult at n = 2,500: vs HDP and RF (H19, H20)
H19 = PAPER.statement(
    "H19",
    "Section 4.1.2",
    "Compared to HDP, the proposed method provides faster inference (one order of magnitude "
    "faster, i.e., 4 seconds against 86 seconds reported in Petitjean et al. (2018))",
)
ADULT_RF_N = PAPER.value(
    "ADULT_RF_N",
    2500,
    "Section 4.1.2",
    "for a comparison on the *Adult* data set with 2500 training samples.",
)
H19_SECONDS = PAPER.value(
    "H19_SECONDS",
    {"vi": 4, "hdp": 86},
    "Section 4.1.2",
    "4 seconds against 86 seconds reported in Petitjean et al. (2018)",
)
H19_ORDERS = PAPER.value(
    "H19_ORDERS", "one order of magnitude faster", "Section 4.1.2", "one order of magnitude faster"
)
H19_K = 1  # "one order of magnitude": k = 1, read as a ratio >= 10**k (docs/readings.md)
H20 = PAPER.statement(
    "H20",
    "Section 4.1.2",
    "with similar accuracy (10% higher accuracy with respect to random forests, against which "
    "Petitjean et al. (2018) compare the performance of HDP).",
)
H20_GAIN = PAPER.value(
    "H20_GAIN", 0.10, "Section 4.1.2", "10% higher accuracy with respect to random forests"
)

# ------------------------------------------------------- E5: multi-domain (H16-H18)
H16 = PAPER.statement(
    "H16",
    "Section 5.1, on Figures 13 and 14 (K = 100 users, n = 100)",
    "Notice that the hierarchical approach provides a gain in accuracy and ROC AUC with "
    "respect to both BDeu for approximately the 95% of users.",
)
H16_USERS = PAPER.value(
    "H16_USERS", 0.95, "Section 5.1", "with respect to both BDeu for approximately the 95% of users"
)
H17 = PAPER.statement(
    "H17",
    "Section 5.1, on Figures 12-14",
    "The comparison with respect to RF is instead more balanced. There is not a clear "
    "difference between the two methods.",
)
H18 = PAPER.statement(
    "H18",
    "Section 5.1",
    "Indeed, the computational time of VI for parameter estimation in a single CPT with 100 "
    "users ranges between 2 seconds and 7 minutes.",
)
H18_K100_S = PAPER.value(
    "H18_K100_S",
    (2, "7 minutes"),
    "Section 5.1",
    "in a single CPT with 100 users ranges between 2 seconds and 7 minutes.",
)
H18_K6_S = PAPER.value(
    "H18_K6_S",
    (0.6, 12),
    "Section 5.1",
    "With 6 users, the computational time of VI ranges between 0.6 and 12 seconds",
)
H18_K100_MAX_S = 7 * 60  # the "7 minutes" above in seconds

# ------------------------------------------------------------- the paper's own scale
SCALE = (
    Dimension(
        "e1_reps",
        E1_REPS,
        "E1 with {ours} of the paper's {paper} repetitions per (|X|, |Y|, n)",
    ),
    Dimension(
        "e1_x_max",
        PAPER.value(
            "SCALE_E1_X_MAX",
            8,
            "Section 3.2, simulation grid (its largest |X|)",
            "with $|\\mathcal{X}| \\in \\{2,4,6,8\\}$ and",
        ),
        "E1 up to |X| = {ours} of the paper's {paper}",
    ),
    Dimension(
        "e1_y_max",
        PAPER.value(
            "SCALE_E1_Y_MAX",
            8,
            "Section 3.2, simulation grid (its largest |Y|)",
            "and $|\\mathcal{Y}| \\in \\{2,4,6,8\\}$.",
        ),
        "E1 up to |Y| = {ours} of the paper's {paper}",
    ),
    Dimension(
        "e1_n_max",
        max(E1_N),
        "E1 up to n = {ours} of the paper's {paper}",
    ),
    Dimension(
        "e2_datasets",
        E2_DATASETS,
        "E2 on {ours} of the paper's {paper} data sets (Table B.1)",
    ),
    Dimension("e2_reps", E2_REPS, "E2 with {ours} of the paper's {paper} repetitions per n"),
    Dimension("e2_n_max", max(E2_N), "E2 up to n = {ours} of the paper's {paper}"),
    Dimension(
        "e3_reps",
        PAPER.value(
            "SCALE_E3_REPS",
            10,
            "Section 4.1 (E3 adopts 'the same simulation procedures', Sec. 4.1.1)",
            "640\\}$, we repeat 10 times the procedure",
        ),
        "Adult E3 with {ours} of the paper's {paper} repetitions per n",
    ),
    Dimension(
        "e3_n_max",
        PAPER.value(
            "SCALE_E3_N_MAX",
            640,
            "Section 4.1.1, on Figure 9 (its largest n)",
            "yet even for n=640, the difference in MSE",
        ),
        "Adult E3 up to n = {ours} of the paper's {paper}",
    ),
    Dimension(
        "adult_rf_n",
        ADULT_RF_N,
        "the Adult check vs random forests at n = {ours} of the paper's {paper} (0: not run)",
    ),
    Dimension(
        "e5_users",
        PAPER.value(
            "SCALE_E5_USERS", 100, "Section 5.1", "We select from the data set 100 users with more"
        ),
        "E5 with {ours} of the paper's {paper} users",
    ),
    Dimension(
        "e5_reps",
        PAPER.value(
            "SCALE_E5_REPS",
            10,
            "Section 5.1",
            "we repeat 10 times the procedure of 1) sampling n observations",
        ),
        "E5 with {ours} of the paper's {paper} repetitions",
    ),
    Dimension("e5_n_max", max(E5_N), "E5 up to n = {ours} of the paper's {paper} per user"),
)
