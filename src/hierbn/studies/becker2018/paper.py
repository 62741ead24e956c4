"""Every number and phrase of becker2018 that the study prints or judges (Tables 1–4 and the
sentences its claims test), registered with its locator and the paper's own words as they read
in ``shared/papers/becker2018-*.txt`` (checked by ``tests/test_paper_values.py``).

The extracted text prints some item names with OCR debris (``Q_2``, ``Q_{5}``, ``Q.6``): each
row is registered as printed and :func:`item` reads it as the item's name. Table 3's class
sub-table is garbled in the text: only the rows legible there are registered here (with the
sentence of Section 3 that names classes 7 and 13); the full reconstruction of the
column is a decision (decisions §3.6) and lives in ``tables.py``."""

from __future__ import annotations

import re

from hierbn.studies.citations import PaperValues
from hierbn.studies.scale import Dimension

PAPER = PaperValues("becker2018")

QUESTIONS = tuple(f"Q{i}" for i in range(1, 29))
PREDICTORS = ("nb.repeat", "attendance", *QUESTIONS)  # Table 2's rows, in its order


def item(printed: str) -> str:
    """A Table 2/3 item name as the text prints it (``Q_{5}``, ``Q.6``) read as the item
    (``Q5``, ``Q6``)."""
    return re.sub(r"[_.{}]", "", printed) if printed.startswith("Q") else printed


# --------------------------------------------------------------------- Table 1
_TABLE1_ROWS = (
    ("instr", "instr", "Instructor's identifier"),
    ("class", "class", "Course code (descriptor)"),
    ("repeat", "repeat", "Number of times the student is taking this course"),
    ("attendance", "attendance", "Code of the level of attendance"),
    ("difficulty", "difficulty",
     "Level of difficulty of the course as perceived by the student; values taken from"),
    ("Q1", "Q1", "The semester course content, teaching method and evaluation system were provided at the start."),
    ("Q2", "Q_2", "The course aims and objectives were clearly stated at the beginning of the period."),
    ("Q3", "Q3", "The course was worth the amount of credit assigned to it."),
    ("Q4", "Q4", "The course was taught according to the syllabus announced on the first day of class."),
    ("Q5", "Q_5", "The class discussions, homework assignments, applications and studies were satisfactory."),
    ("Q6", "Q6", "The textbook and other courses resources were sufficient and up to date."),
    ("Q7", "Q7", "The course allowed field work, applications, laboratory, discussion and other studies."),
    ("Q8", "Q8", "The quizzes, assignments, projects and exams contributed to helping the learning."),
    ("Q9", "Q9", "I greatly enjoyed the class and was eager to actively participate during the lectures."),
    ("Q10", "Q10", "My initial expectations about the course were met at the end of the period or year."),
    ("Q11", "Q11", "The course was relevant and beneficial to my professional development."),
    ("Q12", "Q12", "The course helped me look at life and the world with a new perspective."),
    ("Q13", "Q13", "The Instructor's knowledge was relevant and up to date."),
    ("Q14", "Q14", "The Instructor came prepared for classes."),
    ("Q15", "Q15", "The Instructor taught in accordance with the announced lesson plan."),
    ("Q16", "Q16", "The Instructor was committed to the course and was understandable."),
    ("Q17", "Q17", "The Instructor arrived on time for classes."),
    ("Q18", "Q18", "The Instructor has a smooth and easy to follow delivery/speech."),
    ("Q19", "Q19", "The Instructor made effective use of class hours."),
    ("Q20", "Q20", "The Instructor explained the course and was eager to be helpful to students."),
    ("Q21", "Q21", "The Instructor demonstrated a positive approach to students."),
    ("Q22", "Q22", "The Instructor was open and respectful of the views of students about the course."),
    ("Q23", "Q23", "The Instructor encouraged participation in the course."),
    ("Q24", "Q24", "The Instructor gave relevant homework assignments/projects, and helped/guided students."),
    ("Q25", "Q25", "The Instructor responded to questions about the course inside and outside of the course."),
    ("Q26", "Q26", "The Instructor's evaluation system (midterm, assignments, etc.) effectively measured "
                   "the course objectives."),
    ("Q27", "Q27", "The Instructor provided solutions to exams and discussed them with students."),
    ("Q28", "Q28", "The Instructor treated all students in a right and objective manner."),
)  # fmt: skip
# Table 1: the items verbatim (the difficulty row is cut off after "values taken from" in the
# paper; its values are in the table's footnote for the questions and in decisions §3.1).
TABLE1 = {
    key: PAPER.value(f"TABLE1_{key}", text, f"Table 1, row {printed}", f"{printed} {text}")
    for key, printed, text in _TABLE1_ROWS
}
TABLE1_FOOTNOTE = PAPER.value(
    "TABLE1_FOOTNOTE",
    "Q1-Q28 are a all Likert-type, meaning that the values are taken from 1,2,3,4,5",
    "Table 1, last line (as extracted, 'are a all')",
    "Q1-Q28 are a all Likert-type, meaning that the values are taken from 1,2,3,4,5",
)

# --------------------------------------------------------------------- Table 2
# OLS of difficulty on the 30 predictors (estimate, SE, t, p); a p printed as a bound
# ("< 0.000", "< 0.001") is kept as that text. (term, as printed, values)
_TABLE2_ROWS = (
    ("nb.repeat", "nb.repeat", (0.858, 0.024, 35.32, "< 0.000")),
    ("attendance", "attendance", (0.453, 0.011, 39.58, "< 0.000")),
    ("Q1", "Q1", (0.065, 0.027, 2.36, 0.018)), ("Q2", "Q_2", (0.035, 0.035, 0.99, 0.320)),
    ("Q3", "Q3", (-0.020, 0.031, -0.65, 0.517)), ("Q4", "Q4", (0.026, 0.033, 0.80, 0.424)),
    ("Q5", "Q_{5}", (0.065, 0.037, 1.73, 0.083)), ("Q6", "Q_6", (-0.019, 0.034, -0.56, 0.575)),
    ("Q7", "Q7", (0.020, 0.038, 0.52, 0.603)), ("Q8", "Q8", (0.064, 0.036, 1.80, 0.073)),
    ("Q9", "Q9", (-0.037, 0.030, -1.23, 0.219)), ("Q10", "Q10", (-0.091, 0.041, -2.21, 0.027)),
    ("Q11", "Q11", (-0.028, 0.031, -0.91, 0.363)), ("Q12", "Q12", (-0.026, 0.030, -0.85, 0.396)),
    ("Q13", "Q13", (0.013, 0.042, 0.30, 0.767)), ("Q14", "Q14", (0.082, 0.048, 1.72, 0.086)),
    ("Q15", "Q15", (0.020, 0.044, 0.47, 0.642)), ("Q16", "Q16", (-0.151, 0.040, -3.74, "< 0.001")),
    ("Q17", "Q17", (0.201, 0.035, 5.81, "< 0.000")), ("Q18", "Q18", (-0.074, 0.039, -1.89, 0.059)),
    ("Q19", "Q19", (-0.012, 0.040, -0.30, 0.763)), ("Q20", "Q20", (0.001, 0.042, 0.02, 0.987)),
    ("Q21", "Q21", (0.024, 0.046, 0.52, 0.605)), ("Q22", "Q22", (0.048, 0.046, 1.03, 0.302)),
    ("Q23", "Q23", (-0.033, 0.043, -0.75, 0.453)), ("Q24", "Q24", (0.053, 0.039, 1.34, 0.181)),
    ("Q25", "Q25", (0.087, 0.042, 2.11, 0.035)), ("Q26", "Q26", (-0.084, 0.036, -2.32, 0.020)),
    ("Q27", "Q27", (0.032, 0.032, 1.02, 0.308)), ("Q28", "Q28", (0.003, 0.036, 0.09, 0.927)),
)  # fmt: skip


def _table2_quote(printed: str, values: tuple) -> str:
    return " ".join([printed, *(v if isinstance(v, str) else f"{v:.3f}" for v in values[:2]),
                     f"{values[2]:.2f}", values[3] if isinstance(values[3], str) else f"{values[3]:.3f}"])  # fmt: skip


TABLE2: dict[str, tuple[float, float, float, float | str]] = {
    term: PAPER.value(f"TABLE2_{term}", values, f"Table 2, row {printed}",
                      _table2_quote(printed, values))
    for term, printed, values in _TABLE2_ROWS
}  # fmt: skip
SIGNIFICANT_ORDINALS = PAPER.value(
    "SIGNIFICANT_QUESTIONS",
    (1, 10, 16, 17, 25, 26),
    "Section 3, on Table 2",
    "Regarding the questions, the 1st, 10th, 16th, 17th, 25th, and 26th show a significant "
    "relationship to the course difficulty.",
)
SIGNIFICANT = tuple(f"Q{i}" for i in SIGNIFICANT_ORDINALS)
# The paper names no level for "significant"; its six questions are exactly those of Table 2
# with p < 0.05 (C10, decisions §6), so its test is read at 0.05.
SIGNIFICANCE_LEVEL = 0.05

# --------------------------------------------------------------------- Table 3
# Ranking of the 30 questions and items: (rank, lasso as printed, VB as printed).
_TABLE3_QUESTION_ROWS = (
    (1, "attendance", "attendance"), (2, "nb.repeat", "nb.repeat"), (3, "Q17", "Q17"),
    (4, "Q9", "Q16"), (5, "Q11", "Q26"), (6, "Q12", "Q9"), (7, "Q10", "Q22"), (8, "Q16", "Q1"),
    (9, "Q1", "Q25"), (10, "Q22", "Q18"), (11, "Q25", "Q_5"), (12, "Q26", "Q2"),
    (13, "Q18", "Q10"), (14, "Q4", "Q11"), (15, "Q2", "Q3"), (16, "Q_5", "Q14"), (17, "Q14", "Q4"),
    (18, "Q3", "Q21"), (19, "Q21", "Q12"), (20, "Q24", "Q27"), (21, "Q7", "Q7"), (22, "Q27", "Q20"),
    (23, "Q13", "Q24"), (24, "Q19", "Q28"), (25, "Q23", "Q13"), (26, "Q28", "Q.6"),
    (27, "Q20", "Q19"), (28, "Q.6", "Q23"), (29, "Q.8", "Q15"), (30, "Q15", "Q.8"),
)  # fmt: skip
_TABLE3_QUESTIONS = [
    PAPER.value(f"TABLE3_QUESTIONS_{rank}", {"rank": rank, "lasso": lasso, "vb": vb},
                f"Table 3 (questions), rank {rank}", f"{rank} {lasso} {vb}")
    for rank, lasso, vb in _TABLE3_QUESTION_ROWS
]  # fmt: skip
LASSO_QUESTIONS = tuple(item(row["lasso"]) for row in _TABLE3_QUESTIONS)
VB_QUESTIONS = tuple(item(row["vb"]) for row in _TABLE3_QUESTIONS)

# Ranking of the 13 classes: the rows legible in the extracted text, (rank, lasso, VB). Rows 1,
# 2, 5 and 6 are garbled there ("2 alaca 12 alaca 8", "6 -lass 0 Class 4", "0 class 11 class 0")
# and one spurious row ("2 class 10 class 6") is left out.
_TABLE3_CLASS_ROWS = ((3, 2, 2), (4, 1, 11), (7, 10, 3), (8, 5, 12), (9, 3, 9), (10, 9, 5),
                      (11, 4, 10), (12, 12, 1), (13, 8, 13))  # fmt: skip
TABLE3_CLASS_ROWS = {
    rank: PAPER.value(
        f"TABLE3_CLASSES_{rank}", {"rank": rank, "lasso": lasso, "vb": vb},
        f"Table 3 (classes), rank {rank}",
        f"{rank} {'Class' if rank in (3, 4) else 'class'} {lasso} "
        f"{'Class' if rank in (3, 4) else 'class'} {vb}",
    )
    for rank, lasso, vb in _TABLE3_CLASS_ROWS
}  # fmt: skip
CLASS_TEXT = PAPER.value(
    "TABLE3_CLASS_TEXT",
    {"both_first": 7, "lasso_second_vb_last": 13},
    "Section 3, on Table 3",
    "Although both models agree on the importance of class 7, the Lasso regression ranks class "
    "13 as second most important whereas the variational model ranks this last.",
)

# --------------------------------------------------------------------- Table 4
TABLE4 = PAPER.value(
    "TABLE4",
    {"ols": 1.45, "lasso": 1.43, "vb": 1.45, "lme": 1.45, "ridge": 1.54},
    "Table 4 (columns Regression, Lasso, Variational model, LME model, Ridge)",
    "Mean square error 1.45 1.43 1.45 1.45 1.54",
)

CV_FOLDS = PAPER.value(
    "CV_FOLDS", 10, "Section 3, before Table 4", "we use 10 fold cross where we train the model"
)

# --------------------------------------------------------------------- the paper's scale
# The one number of its runs the paper gives: one 10-fold CV for Table 4 (it states no Gibbs
# chain length, no repeats). A run's reduction of it goes into the scale of the claims that
# depend on it (claims.SCALE_KEYS).
SCALE = (
    Dimension(
        "cv_folds",
        PAPER.value("SCALE_CV_FOLDS", 10, "Section 3, before Table 4",
                    "we use 10 fold cross where we train the model on 9 folds"),
        "CV of {ours} of the paper's {paper} folds",
    ),
)  # fmt: skip

# --------------------------------------------------------------------- claim statements
STATEMENT_TABLE2 = PAPER.statement(
    "STATEMENT_TABLE2",
    "Section 3, before Table 2",
    "We start the analysis with a linear regression model and the results are shown in Table 2.",
)
STATEMENT_QUESTIONS_SIMILAR = PAPER.statement(
    "STATEMENT_QUESTIONS_SIMILAR",
    "Section 3, on Table 3",
    "The importance ranking of the questions is similar in both models.",
)
STATEMENT_LASSO_PATH = PAPER.statement(
    "STATEMENT_LASSO_PATH",
    "Section 3, before Table 3",
    "For the estimation of the ranking for the Lasso regression, we add the class variable and "
    "rank the features according to its first appearance in the lambda path.",
)
STATEMENT_CLASSES_DIFFER = PAPER.statement(
    "STATEMENT_CLASSES_DIFFER",
    "Section 3, on Table 3",
    "However, the ranking for the classes, where we use the absolute value of the weights for "
    "the variational model appears to differ. Although both models agree on the importance of "
    "class 7, the Lasso regression ranks class 13 as second most important whereas the "
    "variational model ranks this last.",
)
STATEMENT_VB_VS_GIBBS = PAPER.statement(
    "STATEMENT_VB_VS_GIBBS",
    "Section 3, before Figure 2",
    "we train the model on the data and use a Gibbs sampler for the estimation of the same "
    "model. The weight estimates and 95% confidence intervals are visualized in Figure 2",
)
STATEMENT_UNDERESTIMATES = PAPER.statement(
    "STATEMENT_UNDERESTIMATES",
    "Section 3, before Figure 2",
    "keep in mind that variational inference only provides an approximation and will "
    "underestimate the variance in the posterior distribution.",
)
STATEMENT_FASTER = PAPER.statement(
    "STATEMENT_FASTER",
    "Section 4",
    "The main benefit of this model might be that it can be estimated considerably faster than "
    "the same model using Gibbs sampling.",
)
STATEMENT_TABLE4 = PAPER.statement(
    "STATEMENT_TABLE4",
    "Section 3, on Table 4",
    "The results of the cross-validated error in Table 4 show that the Lasso regression has the "
    "lowest prediction error followed by the linear regression. The error of the hierarchical "
    "regression is higher but still lower than the prediction error of the ridge regression. "
    "Its prediction error is comparable to the error of the linear mixed effect model.",
)
STATEMENT_BOUND = PAPER.statement(
    "STATEMENT_BOUND",
    "Section 2.7",
    "we know that an iterative updating of the variational factors will maximize the "
    "variational lower bound. … During the optimization, the bound is maximized and the "
    "optimization stopped when it reaches a plateau",
)
STATEMENT_SIGNIFICANT = PAPER.statement(
    "STATEMENT_SIGNIFICANT",
    "Section 3, on Table 2",
    "Regarding the questions, the 1st, 10th, 16th, 17th, 25th, and 26th show a significant "
    "relationship to the course difficulty.",
)
STATEMENT_PREDICTIVE = PAPER.statement(
    "STATEMENT_PREDICTIVE",
    "Section 2.8",
    "The result shows that the predicted uncertainty is the sum of the noise … The number of "
    "degrees of freedom is approximately the number of observed samples.",
)
STATEMENT_R_CODE = PAPER.statement(
    "STATEMENT_R_CODE",
    "Section 1",
    "An implementation of the algorithm in R is available",
)
