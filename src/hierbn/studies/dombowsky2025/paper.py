"""Every number and phrase of Dombowsky & Dunson (2025) that the dombowsky2025 study prints or
judges, registered with :class:`~hierbn.studies.citations.PaperValues`: its locator (table,
figure, section) and the paper's own words as they read in
``shared/papers/dombowsky2025-*.txt`` (``tests/test_paper_values.py`` checks each value against
its quote). Tables, claims, the report and the notebook read the paper only from here. The
constants keep the shapes the tables use (keyed as our result tables are); where the paper's
layout differs (Table 2 is printed per target, our tables are per method), the rows are
registered as printed and the shape is built below from them."""

from __future__ import annotations

from hierbn.studies.citations import PaperValues
from hierbn.studies.scale import Dimension

PAPER = PaperValues("dombowsky2025")
value, statement = PAPER.value, PAPER.statement

# ------------------------------------------------------------------ Figure 2 (Sec. 2.3)
# the MLEs of Pr(x_j = 1 | x_{j-1}) as (successes, parent count) per parent category; n = 25
FIGURE2_COUNTS: tuple[tuple[int, int], ...] = value(
    "FIGURE2_COUNTS", ((3, 4), (1, 3), (0, 5), (3, 7), (0, 3), (3, 3)),
    "Sec. 2.3, text on Figure 2",
    "and the MLEs for … are (3/4,1/3,0/5,3/7,0/3,3/3)",
)  # fmt: skip
FIGURE2_N = value("FIGURE2_N", 25, "Sec. 2.3, text on Figure 2", "We set n=25n=25")
# the alpha grid, read as the paper prints it (a string: the list's ",100" would read as a
# thousands separator of 10 if matched as numbers)
FIGURE2_ALPHA_TEXT = value(
    "FIGURE2_ALPHAS", "{0.01,1,2,5,10,100}", "Sec. 2.3, text on Figure 2",
    "and we vary αj{0.01,1,2,5,10,100}",
)  # fmt: skip
FIGURE2_ALPHAS: tuple[float, ...] = tuple(
    float(a) for a in FIGURE2_ALPHA_TEXT.strip("{}").split(",")
)
FIGURE2_STATEMENT = statement(
    "FIGURE2", "Sec. 2.3, on Figure 2",
    "The sparse counts make αj\\alpha_{j} very influential on the fitted values.",
)  # fmt: skip

# ------------------------------------------------------------------ Table 1 (Sec. 5.1)
TABLE1_K: tuple[int, ...] = value("TABLE1_K", (2, 3, 5, 10), "Sec. 5.1", "we vary KPa(j){2,3,5,10}")
TABLE1_METHODS: tuple[str, ...] = value(
    "TABLE1_METHODS", ("HiDDeN", "Logit MLE", "Logit Bayes", "Logit GAM", "MLE", "DM"),
    "Table 1, header", "HiDDeN Logit MLE Logit Bayes Logit GAM MLE DM",
)  # fmt: skip
# mean (SD) RMSE of the K cell probabilities over 50 data sets, one row per K (the extracted
# text doubles the K: "22" is the row K = 2)
_TABLE1_ROWS = (
    value("TABLE1_K2", ((0.06, 0.034),) * 6, "Table 1, row K = 2",
          "22 .06 (.034) .06 (.034) .06 (.034) .06 (.034) .06 (.034) .06 (.034)"),
    value("TABLE1_K3", ((0.071, 0.045), (0.074, 0.045), (0.074, 0.045), (0.074, 0.045),
                        (0.074, 0.045), (0.073, 0.045)), "Table 1, row K = 3",
          "33 .071 (.045) .074 (.045) .074 (.045) .074 (.045) .074 (.045) .073 (.045)"),
    value("TABLE1_K5", ((0.1, 0.035), (0.106, 0.036), (0.109, 0.037), (0.106, 0.036),
                        (0.106, 0.036), (0.105, 0.036)), "Table 1, row K = 5",
          "55 .1 (.035) .106 (.036) .109 (.037) .106 (.036) .106 (.036) .105 (.036)"),
    value("TABLE1_K10", ((0.135, 0.035), (0.16, 0.036), (0.169, 0.037), (0.16, 0.036),
                         (0.16, 0.036), (0.158, 0.036)), "Table 1, row K = 10",
          "1010 .135 (.035) .16 (.036) .169 (.037) .16 (.036) .16 (.036) .158 (.036)"),
)  # fmt: skip
TABLE1: dict[int, dict[str, tuple[float, float]]] = {
    k: dict(zip(TABLE1_METHODS, row, strict=True))
    for k, row in zip(TABLE1_K, _TABLE1_ROWS, strict=True)
}
C1 = statement(
    "C1", "Sec. 5.1, on Table 1",
    "When … the least sparse level, all methods perform similarly. For … HiDDeN always "
    "returns the lowest average RMSE to … and the difference in average RMSE between HiDDeN "
    "and competitors steadily increases with",
)  # fmt: skip

# ------------------------------------------------------------------ Theorem 2, the sampler
C2 = statement(
    "C2", "Sec. 3, Theorem 2 and eq. (11)",
    "The function … is log-concave in … for all values of the auxiliary variables … if … and "
    "… The condition on ρj\\rho_{j} is needed to make the first term in (11) negative",
)  # fmt: skip
C3 = statement(
    "C3", "Abstract",
    "We give a novel Markov chain Monte Carlo (MCMC) algorithm utilizing parallel Langevin "
    "proposals to generate exact posterior samples",
)  # fmt: skip

# ------------------------------------------------------------------ LUCAS (Sec. 5.2, App. C.2)
TABLE2_METHODS: tuple[str, ...] = value(
    "TABLE2_METHODS", ("HiDDeN", "Group lasso", "GS", "IAMB"), "Table 2, header",
    "Variable HiDDeN Group lasso GS IAMB",
)  # fmt: skip
# Hamming distance to the true blanket per target, as printed (HiDDeN, group lasso, GS, IAMB)
_TABLE2_ROWS: dict[str, tuple[int, ...]] = {
    "Smoking": value("TABLE2_SMOKING", (2, 1, 1, 2), "Table 2, row Smoking", "Smoking 2 1 1 2"),
    "Genetics": value("TABLE2_GENETICS", (0, 2, 0, 1), "Table 2, row Genetics",
                      "Genetics 0 2 0 1"),
    "Fatigue": value("TABLE2_FATIGUE", (0, 0, 2, 0), "Table 2, row Fatigue", "Fatigue 0 0 2 0"),
    "Coughing": value("TABLE2_COUGHING", (0, 0, 0, 0), "Table 2, row Coughing",
                      "Coughing 0 0 0 0"),
    "Allergy": value("TABLE2_ALLERGY", (0, 0, 0, 1), "Table 2, row Allergy", "Allergy 0 0 0 1"),
    "Lung_cancer": value("TABLE2_LUNG_CANCER", (0, 4, 0, 0), "Table 2, row Lung Cancer",
                         "Lung Cancer 0 4 0 0"),
}  # fmt: skip
TABLE2_TOTALS: dict[str, int] = dict(
    zip(TABLE2_METHODS, value("TABLE2_TOTAL", (2, 7, 3, 4), "Table 2, row Total",
                              "Total 2 7 3 4"), strict=True)
)  # fmt: skip
# per method, keyed as our result tables are; the paper's group lasso is the lasso as [code] ran
# it (its Lung_cancer fit used Allergy as the response, hence the 4: decision A9)
METHOD_OF_TABLE2 = {"HiDDeN": "HiDDeN", "Group lasso": "Group lasso ([code])", "GS": "GS",
                    "IAMB": "IAMB"}  # fmt: skip
TABLE2: dict[str, dict[str, int]] = {
    METHOD_OF_TABLE2[m]: {t: row[i] for t, row in _TABLE2_ROWS.items()}
    for i, m in enumerate(TABLE2_METHODS)
}
C4 = statement(
    "C4", "Sec. 5.2, on Table 2",
    "The HiDDeN MAP estimate is equivalent to the true Markov blanket for all variables, with "
    "the exception of smoking; this leads to HiDDeN achieving the lowest total Hamming distance.",
)  # fmt: skip
LUCAS_FATIGUE_IN_LC = value(
    "LUCAS_FATIGUE_IN_LC", 0.646, "Sec. 5.2, on Figure 3",
    "We are uncertain about the association with fatigue, as this variable has a posterior "
    "probability of 0.646",
)  # fmt: skip

# Table 5: the true LUCAS Markov blankets (its caption says "Parent sets"; they are Markov
# blankets, decision A21), as printed, and the data's column of each printed name ("lunc cancer"
# is the paper's typo for lung cancer)
LUCAS_NAMES = {"smoking": "Smoking", "anxiety": "Anxiety", "peer pressure": "Peer_Pressure",
               "yellow fingers": "Yellow_Fingers", "lung cancer": "Lung_cancer",
               "lunc cancer": "Lung_cancer", "genetics": "Genetics",
               "attention disorder": "Attention_Disorder", "coughing": "Coughing",
               "car accident": "Car_Accident", "fatigue": "Fatigue", "allergy": "Allergy"}  # fmt: skip
_TABLE5_ROWS: dict[str, tuple[str, ...]] = {
    "Smoking": value("TABLE5_SMOKING",
                     ("anxiety", "peer pressure", "yellow fingers", "lunc cancer", "genetics"),
                     "Table 5, row smoking",
                     "smoking anxiety, peer pressure, yellow fingers, lunc cancer, genetics"),
    "Genetics": value("TABLE5_GENETICS", ("lung cancer", "attention disorder", "smoking"),
                      "Table 5, row genetics",
                      "genetics lung cancer, attention disorder, smoking"),
    "Fatigue": value("TABLE5_FATIGUE",
                     ("lung cancer", "coughing", "car accident", "attention disorder"),
                     "Table 5, row fatigue",
                     "fatigue lung cancer, coughing, car accident, attention disorder"),
    "Coughing": value("TABLE5_COUGHING", ("allergy", "lung cancer", "fatigue"),
                      "Table 5, row coughing", "coughing allergy, lung cancer, fatigue"),
    "Allergy": value("TABLE5_ALLERGY", ("coughing", "lung cancer"), "Table 5, row allergy",
                     "allergy coughing, lung cancer"),
    "Lung_cancer": value("TABLE5_LUNG_CANCER",
                         ("smoking", "genetics", "fatigue", "coughing", "allergy"),
                         "Table 5, row lung cancer",
                         "lung cancer smoking, genetics, fatigue, coughing, allergy"),
}  # fmt: skip
TABLE5: dict[str, frozenset[str]] = {
    t: frozenset(LUCAS_NAMES[v] for v in row) for t, row in _TABLE5_ROWS.items()
}

# Table 6: step sizes, acceptance of t(1), t(2) after burn-in, log-posterior ESS per target
TABLE6: dict[str, dict[str, tuple[float, ...] | float]] = {
    t: {"eps": row[0], "acceptance": row[1], "ess": row[2]}
    for t, row in {
        "Smoking": value("TABLE6_SMOKING", ((0.30, 0.30), (0.554, 0.534), 1311.484),
                         "Table 6, row smoking", "smoking (.30, .30) (.554, .534) 1311.484"),
        "Genetics": value("TABLE6_GENETICS", ((0.47, 0.18), (0.779, 0.691), 329.891),
                          "Table 6, row genetics", "genetics (.47, .18) (.779, .691) 329.891"),
        "Fatigue": value("TABLE6_FATIGUE", ((0.32, 0.32), (0.564, 0.650), 1828.669),
                         "Table 6, row fatigue", "fatigue (.32, .32) (.564, .650) 1828.669"),
        "Coughing": value("TABLE6_COUGHING", ((0.20, 0.33), (0.611, 0.602), 1086.679),
                          "Table 6, row coughing", "coughing (.20, .33) (.611, .602) 1086.679"),
        "Allergy": value("TABLE6_ALLERGY", ((0.65, 0.35), (0.524, 0.516), 2149.449),
                         "Table 6, row allergy", "allergy (.65, .35) (.524, .516) 2149.449"),
        "Lung_cancer": value("TABLE6_LUNG_CANCER", ((0.11, 0.15), (0.557, 0.560), 1423.543),
                             "Table 6, row lung cancer",
                             "lung cancer (.11, .15) (.557, .560) 1423.543"),
    }.items()
}  # fmt: skip

# ------------------------------------------------------------------ Table 3 (Sec. 5.3)
TABLE3_K1: tuple[int, ...] = value(
    "TABLE3_K1", (5, 25, 100, 200), "Table 3, header", "k1k_{1} 5 25 100 200"
)
TABLE3: dict[str, dict[int, float]] = {
    m: dict(zip(TABLE3_K1, row, strict=True))
    for m, row in {
        "HiDDeN": value("TABLE3_HIDDEN", (0.61, 0.71, 0.76, 0.82), "Table 3, row HiDDeN",
                        "HiDDeN 0.61 0.71 0.76 0.82"),
        "BIC": value("TABLE3_BIC", (0.02, 0.00, 0.00, 0.00), "Table 3, row BIC",
                     "BIC 0.02 0.00 0.00 0.00"),
        "AIC": value("TABLE3_AIC", (0.38, 0.00, 0.00, 0.00), "Table 3, row AIC",
                     "AIC 0.38 0.00 0.00 0.00"),
        "BDE": value("TABLE3_BDE", (0.08, 0.01, 0.21, 0.49), "Table 3, row BDE",
                     "BDE 0.08 0.01 0.21 0.49"),
    }.items()
}  # fmt: skip
C5 = statement(
    "C5", "Sec. 5.3, on Table 3",
    "HiDDeN is the only method that selects … in more than half of the replications for any "
    "value of … AIC and BIC completely fail at selecting … preferring the model with fewer "
    "parameters. Interestingly, both of the methods derived from the Dirichlet prior benefit "
    "from increasing",
)  # fmt: skip

# ------------------------------------------------------------------ Tables 7-8 (App. E)
# mean (SD) of Pr(G_true | n) and of S(G_true) - S(G_false) per (truth, n), one row per n
_TABLE7_ROWS = {
    "G1": (
        value("TABLE7_G1_N50", {"n": 50, "prob": (0.813, 0.247), "BIC": (17.319, 2.760),
              "AIC": (5.846, 2.760), "BDE": (14.051, 4.831)}, "Table 7, G_true = G1, row n = 50",
              "50 .813 (.247) 17.319 (2.760) 5.846 (2.760) 14.051 (4.831)"),
        value("TABLE7_G1_N75", {"n": 75, "prob": (0.846, 0.246), "BIC": (19.063, 2.931),
              "AIC": (5.158, 2.931), "BDE": (19.331, 7.014)}, "Table 7, G_true = G1, row n = 75",
              "75 .846 (.246) 19.063 (2.931) 5.158 (2.931) 19.331 (7.014)"),
        value("TABLE7_G1_N100", {"n": 100, "prob": (0.925, 0.155), "BIC": (21.427, 2.363),
              "AIC": (5.796, 2.363), "BDE": (23.916, 6.116)},
              "Table 7, G_true = G1, row n = 100",
              "100 .925 (.155) 21.427 (2.363) 5.796 (2.363) 23.916 (6.116)"),
        value("TABLE7_G1_N150", {"n": 150, "prob": (0.943, 0.160), "BIC": (23.205, 2.899),
              "AIC": (5.141, 2.899), "BDE": (28.177, 6.430)},
              "Table 7, G_true = G1, row n = 150",
              "150 .943 (.160) 23.205 (2.899) 5.141 (2.899) 28.177 (6.430)"),
    ),
    "G2": (
        value("TABLE7_G2_N50", {"n": 50, "prob": (0.818, 0.296), "BIC": (-8.774, 4.234),
              "AIC": (2.698, 4.234), "BDE": (-4.020, 7.233)}, "Table 7, G_true = G2, row n = 50",
              "50 .818 (.296) -8.774 (4.234) 2.698 (4.234) -4.020 (7.233)"),
        value("TABLE7_G2_N75", {"n": 75, "prob": (0.888, 0.256), "BIC": (-7.486, 4.807),
              "AIC": (6.419, 4.807), "BDE": (-7.240, 8.223)}, "Table 7, G_true = G2, row n = 75",
              "75 .888 (.256) -7.486 (4.807) 6.419 (4.807) -7.240 (8.223)"),
        value("TABLE7_G2_N100", {"n": 100, "prob": (0.908, 0.238), "BIC": (-4.999, 6.970),
              "AIC": (10.632, 6.970), "BDE": (-6.812, 10.339)},
              "Table 7, G_true = G2, row n = 100",
              "100 .908 (.238) -4.999 (6.970) 10.632 (6.970) -6.812 (10.339)"),
        value("TABLE7_G2_N150", {"n": 150, "prob": (0.948, 0.191), "BIC": (0.099, 10.364),
              "AIC": (18.163, 10.364), "BDE": (-4.421, 13.953)},
              "Table 7, G_true = G2, row n = 150",
              "150 .948 (.191) .099 (10.364) 18.163 (10.364) -4.421 (13.953)"),
    ),
}  # fmt: skip
TABLE7: dict[tuple[str, int], dict[str, tuple[float, float]]] = {
    (truth, row["n"]): {q: v for q, v in row.items() if q != "n"}
    for truth, rows in _TABLE7_ROWS.items()
    for row in rows
}
TABLE8_N: tuple[int, ...] = value("TABLE8_N", (50, 75, 100, 150), "Table 8, header",
                                  "n 50 75 100 150")  # fmt: skip
# proportion selecting G2 when G2 is true, per n
TABLE8: dict[str, dict[int, float]] = {
    m: dict(zip(TABLE8_N, row, strict=True))
    for m, row in {
        "HiDDeN": value("TABLE8_HIDDEN", (0.83, 0.92, 0.93, 0.95), "Table 8, row HiDDeN",
                        "HiDDeN 0.83 0.92 0.93 0.95"),
        "BDE": value("TABLE8_BDE", (0.27, 0.19, 0.25, 0.34), "Table 8, row BDE",
                     "BDE 0.27 0.19 0.25 0.34"),
    }.items()
}  # fmt: skip
C6 = statement(
    "C6", "App. E, on Tables 7 and 8",
    "When … is the simulated network, all methods favor … HiDDeN consistently allocates "
    "substantial posterior probability to … which increases with … BDE consistently favors the "
    "incorrect DAG, while HiDDeN prefers … in more than 80%80\\% of the replications for all "
    "sample sizes, with steadily increasing power",
)  # fmt: skip
C6_SHARE = value(
    "C6_SHARE", 0.8, "App. E, on Table 8",
    "HiDDeN prefers … in more than 80%80\\% of the replications for all sample sizes",
)  # fmt: skip

# ------------------------------------------------------------------ ALARM (App. F)
# App. F.2: ESS (min, max) over the sampled predictive cell probabilities, 50,000 iterations;
# the text names four variables for five pairs, the fifth is CVP (decisions §4.6)
ALARM_ESS: dict[str, tuple[float, float]] = dict(
    zip(("HIST", "LVV", "STKV", "PCWP", "CVP"), value(
        "ALARM_ESS",
        ((1805.76, 6630.32), (3322.81, 6963.54), (3156.89, 11156.64), (4088.379, 6079.777),
         (3334.91, 6435.28)),
        "App. F.2",
        "The minimum and maximum ESS (taken across the conditional probabilities) for the "
        "variables are (1805.76,6630.32) … (3322.81,6963.54) … (3156.89,11156.64) … "
        "(4088.379,6079.777) … and (3334.91,6435.28)",
    ), strict=True)
)  # fmt: skip
ALARM_ITERATIONS = value(
    "ALARM_ITERATIONS", 50000, "App. F.2",
    "we run the MALA-within-Gibbs sampler (Algorithm 1) for 50,00050,000 iterations",
)  # fmt: skip
C8 = statement(
    "C8", "App. F.2, on Figure 10",
    "given a patient has not experienced left ventricular failure, their probability of having "
    "no prior medical history is very high. Conversely, conditional on left ventricular "
    "failure, a patient is more likely to have medical history. Moreover, we can see that the "
    "absence of left ventricular failure and hypovolemia results in a higher probability of "
    "normal LVV. Additionally, the presence of hypovolemia and absence of left ventricular "
    "failure results in higher LVV. Finally, the presence of left ventricular failure is "
    "associated with low LVV. Both PCWP and CVP have direct relationships to the categories of "
    "LVV",
)  # fmt: skip

# App. F.3, Table 10: posterior probabilities of the most visited parent sets (the caption's
# third "Pa(LVV)" row is STKV's, decision A21)
TABLE10: dict[str, dict[str, float]] = {
    "HIST": dict(zip(("{LVF}", "{LVF,HYP}"), value(
        "TABLE10_HIST", (0.825, 0.175), "Table 10, Pa(HIST)",
        "Pa(HIST) LVF LVF, HYP … 0.825 0.175"), strict=True)),
    "LVV": dict(zip(("{LVF,HYP}", "{LVF,HYP,HIST}"), value(
        "TABLE10_LVV", (0.961, 0.039), "Table 10, Pa(LVV)",
        "Pa(LVV) LVF,HYP HIST, LVF, HYP … 0.961 0.039"), strict=True)),
    "STKV": dict(zip(("{LVF,HYP}", "{LVF,HYP,HIST}", "{LVF,HYP,LVV}", "{LVF,HYP,HIST,LVV}"),
                     value("TABLE10_STKV", (0.793, 0.172, 0.020, 0.005),
                           "Table 10, Pa(STKV) (printed under a second 'Pa(LVV)' label, decision A21)",
                           "Pa(STKV) LVF,HYP HIST, LVF, HYP LVV, LVF, HYP HIST, LVF, HYP, LVV "
                           "… 0.793 0.172 0.020 0.005"), strict=True)),
}  # fmt: skip
TABLE10_STKV_REST = value(
    "TABLE10_STKV_REST", 0.01, "Table 10, caption",
    "The remaining parent sets have posterior mass of 0.01",
)  # fmt: skip
# the true parents (Figure 9), which the paper says the MAP sets are
TABLE10_TRUTH: dict[str, tuple[str, ...]] = value(
    "TABLE10_TRUTH", {"HIST": ("LVF",), "LVV": ("LVF", "HYP"), "STKV": ("LVF", "HYP")},
    "App. F.3",
    "are {LVF} … (0.825), {LVF,HYP} … (0.961), and {LVF,HYP} … (0.793), respectively; these "
    "are the exact parent sets in the ALARM network in Figure 9",
)  # fmt: skip
# Table 11: Pr(diagnosis -> node); (HYP, HIST) is printed 0 but Table 10 implies .175 (decision A14)
TABLE11: dict[tuple[str, str], float] = dict(
    zip((("LVF", "HIST"), ("LVF", "LVV"), ("LVF", "STKV"), ("HYP", "HIST"), ("HYP", "LVV"),
         ("HYP", "STKV")), value(
        "TABLE11", (1.0, 1.0, 0.993, 0.0, 1.0, 0.997), "Table 11",
        "(LVF,HIST) (LVF,LVV) (LVF,STKV) (HYP,HIST) (HYP,LVV) (HYP,STKV) … 1 1 0.993 0 1 0.997",
    ), strict=True)
)  # fmt: skip
# the edge-probability bound of F.3's sentence: each true edge has probability above it
TABLE11_TRUE_EDGE_BOUND = value(
    "TABLE11_TRUE_EDGE_BOUND", 0.993, "App. F.3, on Table 11",
    "each true edge in Figure 9 has posterior probability greater than 0.9930.993",
)  # fmt: skip
C7 = statement(
    "C7", "App. F.3, on Tables 10 and 11",
    "Hence, the MAP estimate of the parent sets accurately captures the true network. … "
    "HiDDeN is excellent at inferring the individual edges originating at diagnostic variables "
    "(Table 11): each true edge in Figure 9 has posterior probability greater than 0.9930.993, and "
    "the only edge not present in the true DAG has zero posterior mass.",
)  # fmt: skip

# ------------------------------------------------------------------ METABRIC (Sec. 6, App. D)
METABRIC_N = value("METABRIC_N", 1867, "Sec. 6", "The data have n=1,867n=1,867 samples")
# Table 4: number of categories k_j of the twelve METABRIC variables as printed
TABLE4_LEVELS: dict[str, int] = {
    v: value(f"TABLE4_LEVELS_{v}", k, f"Table 4, row {v}", quote)
    for v, k, quote in (
        ("TBS", 2, "TBS Type of breast surgery Mastectomy, breast conserving 2"),
        ("CHT", 2, "CHT Chemotherapy Yes,no (received chemotherapy) 2"),
        ("DFC", 3, "DFC Death from cancer Died of disease, died of other causes, living 3"),
        ("CTD", 5, "CTD Cancer type detailed IDC, mDLC, ILC, MMBC, MpBC 5"),
        ("AAD", 8, "AAD Age at diagnosis [20,30), [30,40) …, [90,\\infty) 8"),
        ("TSI", 3, "TSI Tumor size Low, normal, high 3"),
        ("RTH", 2, "RTH Radio therapy Yes,no (received radio therapy) 2"),
        ("PTL", 2, "PTL Primary tumor laterality Right breast, left breast 2"),
        ("INC", 10, "INC Molecular subtype of cancer … ,5,\\dots,9 10"),
        ("IMS", 2, "IMS Inferred menopausal state Post,pre 2"),
        ("HTH", 2, "HTH Hormone therapy Yes,no (received hormone therapy) 2"),
        ("COH", 5, "COH Cohort Group 11, 22, 33, 44, 55 5"),
    )
}  # fmt: skip
# Table 4, AAD: ten-year age bins, the first [20, 30), the last [90, inf) (the printed ends)
TABLE4_AGE_BINS = value(
    "TABLE4_AGE_BINS", (20, 30, 30, 40, 90), "Table 4, row AAD",
    "Age at diagnosis [20,30), [30,40) …, [90,\\infty)",
)  # fmt: skip
# Table 4: the categories as printed, where it lists them (AAD and TSI are bins)
TABLE4_CATEGORIES: dict[str, tuple[str, ...]] = {
    v: value(f"TABLE4_CATEGORIES_{v}", cats, f"Table 4, row {v}", quote)
    for v, cats, quote in (
        ("TBS", ("Mastectomy", "breast conserving"), "Mastectomy, breast conserving"),
        ("CHT", ("yes", "no"), "CHT Chemotherapy Yes,no"),
        ("DFC", ("died of disease", "died of other causes", "living"),
         "Died of disease, died of other causes, living"),
        ("CTD", ("IDC", "mDLC", "ILC", "MMBC", "MpBC"), "IDC, mDLC, ILC, MMBC, MpBC"),
        ("RTH", ("yes", "no"), "RTH Radio therapy Yes,no"),
        ("PTL", ("right", "left"), "Right breast, left breast"),
        ("IMS", ("post", "pre"), "IMS Inferred menopausal state Post,pre"),
        ("HTH", ("yes", "no"), "HTH Hormone therapy Yes,no"),
        ("COH", ("1", "2", "3", "4", "5"), "COH Cohort Group 11, 22, 33, 44, 55"),
    )
}  # fmt: skip
# INC is printed as a range, "1,2,…,4ER+,4ER−,5,…,9" (the extracted text keeps the sign of
# 4ER− only in its LaTeX copy, "4\textrm{ER}-"); our reading of the range:
_INC_PRINTED = value(
    "TABLE4_CATEGORIES_INC", ("1", "2", "4ER+", "5", "9"), "Table 4, row INC",
    "INC Molecular subtype of cancer 1,2,,4ER+,4ER,5,,9",
)  # fmt: skip
TABLE4_CATEGORIES["INC"] = (*_INC_PRINTED[:2], "3", _INC_PRINTED[2], "4ER-",
                            *(str(k) for k in range(int(_INC_PRINTED[3]), int(_INC_PRINTED[4]) + 1)))  # fmt: skip

# Sec. 6, Figures 5-6: HiDDeN's median-probability parent sets and two quoted edge probabilities
METABRIC_MPM: dict[str, frozenset[str]] = {
    "TBS": frozenset(value("METABRIC_MPM_TBS", ("TSI", "RTH", "COH"), "Sec. 6, on Figure 5",
                           "the parent set of TBS includes tumor size (TSI), radiotherapy (RTH), "
                           "and cohort (COH)")),
    "CHT": frozenset(value("METABRIC_MPM_CHT", ("AAD", "RTH", "IMS", "HTH", "COH"),
                           "Sec. 6, on Figure 5",
                           "The largest parent set is that of CHT, which includes age at "
                           "diagnosis (AAD), RTH, inferred menopausal state (IMS), hormone "
                           "therapy (HTH), and COH")),
    "DFC": frozenset(value("METABRIC_MPM_DFC", ("AAD", "COH", "CHT"), "Sec. 6, on Figure 5",
                           "Finally, DFC has parents AAD, COH, and CHT")),
}  # fmt: skip
METABRIC_EDGES: dict[tuple[str, str], float] = dict(
    zip((("IMS", "CHT"), ("IMS", "DFC")), value(
        "METABRIC_EDGES", (0.548, 0.327), "Sec. 6, on Figure 6",
        "the edges (IMS, CHT) and (IMS, DFC) have posterior mass 0.5480.548 and 0.3270.327",
    ), strict=True)
)  # fmt: skip
# every edge probability the text quotes (Sec. 5.2 on Figure 3, Sec. 6 on Figure 6), by edge
QUOTED_EDGES: dict[tuple[str, str], float] = {("Fatigue", "Lung_cancer"): LUCAS_FATIGUE_IN_LC,
                                              **METABRIC_EDGES}  # fmt: skip
C9 = statement(
    "C9", "Sec. 6, on Figures 5 and 6",
    "In sharp contrast, the group lasso always selects the entire candidate set as the parent "
    "set, resulting in a highly connected DAG. The same behavior holds when the penalty is "
    "chosen to minimize the mean cross-validated error. HC and TABU infer an equivalent DAG, "
    "which has a sparser structure than that of HiDDeN.",
)  # fmt: skip
# App. D: step sizes, acceptance per t(x) and log-posterior ESS per outcome (TBS, CHT, DFC)
_METABRIC_EPS = value(
    "METABRIC_EPS", ((0.175, 0.25), (0.095, 0.045), (0.35, 0.2, 0.35)), "App. D",
    "For the three outcomes, the stepsizes are (0.175, 0.25), (0.095, 0.045), and (0.35, 0.2, "
    "0.35)",
)  # fmt: skip
_METABRIC_ACCEPTANCE = value(
    "METABRIC_ACCEPTANCE", ((0.552, 0.606), (0.629, 0.735), (0.544, 0.655, 0.627)), "App. D",
    "and with acceptance probabilities (0.552, 0.606), (0.629, 0.735), and (0.544, 0.655, "
    "0.627)",
)  # fmt: skip
_METABRIC_ESS = value(
    "METABRIC_ESS", (1947.235, 1791.852, 1814.737), "App. D",
    "the ESS for the log-posteriors are 1947.235, 1791.852, and 1814.737",
)  # fmt: skip
METABRIC_DIAGNOSTICS: dict[str, dict[str, tuple[float, ...] | float]] = {
    o: {"eps": e, "acceptance": a, "ess": s}
    for o, e, a, s in zip(("TBS", "CHT", "DFC"), _METABRIC_EPS, _METABRIC_ACCEPTANCE,
                          _METABRIC_ESS, strict=True)
}  # fmt: skip

# ------------------------------------------------------------------ MCMC diagnostics
C10 = statement(
    "C10", "App. C.2 (LUCAS) and App. D (METABRIC), on Table 6",
    "We inspect the acceptance probabilities and traceplots for … and the log-posterior, to "
    "ensure that the chain is (a) not getting stuck in a region due to a high number of "
    "rejections, and (b) sufficiently exploring the parameter space.",
)  # fmt: skip

# ------------------------------------------------------------------ the paper's scale
# The runs the paper made: the chains' iterations and the counts of data sets and replications.
# The extracted text prints each count twice, its rendering then its LaTeX copy ("5050
# independent datasets", "100100 independent replications", as "n=100n=100"); the quotes of the
# counts start at the LaTeX copy ("50 independent datasets"), the paper's own words. A run's
# reduction of one goes into the scale of the claims that depend on it (claims.SCALE_KEYS).
_DATASETS_QUOTE = "50 independent datasets"  # Sec. 5.1: "we simulate 5050 independent datasets"
SCALE = (
    Dimension("lucas_iterations", value(
        "SCALE_LUCAS_ITERATIONS", 10000, "Sec. 5.3",
        "with the number of iterations equal to 10,00010,000"),
        "LUCAS chains of {ours} of the paper's {paper} iterations"),
    Dimension("metabric_iterations", value(
        "SCALE_METABRIC_ITERATIONS", 10000, "Sec. 6",
        "We apply Algorithm 2 and fit HiDDeN for 10,00010,000 iterations"),
        "METABRIC chains of {ours} of the paper's {paper} iterations"),
    Dimension("alarm_iterations", value(
        "SCALE_ALARM_ITERATIONS", 50000, "App. F.2",
        "we run the MALA-within-Gibbs sampler (Algorithm 1) for 50,00050,000 iterations"),
        "ALARM chains of {ours} of the paper's {paper} iterations"),
    Dimension("table1_datasets", value(
        "SCALE_TABLE1_DATASETS", 50, "Sec. 5.1", _DATASETS_QUOTE),
        "Table 1 on {ours} of the paper's {paper} data sets per K"),
    Dimension("logit_bayes_datasets", value(
        "SCALE_LOGIT_BAYES_DATASETS", 50, "Sec. 5.1 (every Table 1 method on each data set)",
        _DATASETS_QUOTE),
        "logit Bayes on {ours} of the paper's {paper} Table 1 data sets per K"),
    Dimension("table3_reps", value(
        "SCALE_TABLE3_REPS", 100, "Sec. 5.3", "100 independent replications, we record the MAP"),
        "Table 3 on {ours} of the paper's {paper} replications per k1"),
    Dimension("tables78_datasets", value(
        "SCALE_TABLES78_DATASETS", 100, "App. E",
        "100 independent datasets from both DAGs for each sample size"),
        "Tables 7-8 on {ours} of the paper's {paper} data sets per (truth, n)"),
)  # fmt: skip
