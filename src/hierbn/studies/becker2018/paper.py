"""The paper's printed numbers the study is compared with (Tables 1–4 of becker2018; Table 3's
class column as reconstructed in spec §3.6)."""

from __future__ import annotations

QUESTIONS = tuple(f"Q{i}" for i in range(1, 29))
PREDICTORS = ("nb.repeat", "attendance", *QUESTIONS)

# Table 2: OLS of difficulty on the 30 predictors without an intercept (estimate, SE, t, p).
TABLE2 = {
    "nb.repeat": (0.858, 0.024, 35.32, 0.0), "attendance": (0.453, 0.011, 39.58, 0.0),
    "Q1": (0.065, 0.027, 2.36, 0.018), "Q2": (0.035, 0.035, 0.99, 0.320),
    "Q3": (-0.020, 0.031, -0.65, 0.517), "Q4": (0.026, 0.033, 0.80, 0.424),
    "Q5": (0.065, 0.037, 1.73, 0.083), "Q6": (-0.019, 0.034, -0.56, 0.575),
    "Q7": (0.020, 0.038, 0.52, 0.603), "Q8": (0.064, 0.036, 1.80, 0.073),
    "Q9": (-0.037, 0.030, -1.23, 0.219), "Q10": (-0.091, 0.041, -2.21, 0.027),
    "Q11": (-0.028, 0.031, -0.91, 0.363), "Q12": (-0.026, 0.030, -0.85, 0.396),
    "Q13": (0.013, 0.042, 0.30, 0.767), "Q14": (0.082, 0.048, 1.72, 0.086),
    "Q15": (0.020, 0.044, 0.47, 0.642), "Q16": (-0.151, 0.040, -3.74, 0.0),
    "Q17": (0.201, 0.035, 5.81, 0.0), "Q18": (-0.074, 0.039, -1.89, 0.059),
    "Q19": (-0.012, 0.040, -0.30, 0.763), "Q20": (0.001, 0.042, 0.02, 0.987),
    "Q21": (0.024, 0.046, 0.52, 0.605), "Q22": (0.048, 0.046, 1.03, 0.302),
    "Q23": (-0.033, 0.043, -0.75, 0.453), "Q24": (0.053, 0.039, 1.34, 0.181),
    "Q25": (0.087, 0.042, 2.11, 0.035), "Q26": (-0.084, 0.036, -2.32, 0.020),
    "Q27": (0.032, 0.032, 1.02, 0.308), "Q28": (0.003, 0.036, 0.09, 0.927),
}  # fmt: skip
# p printed as "< 0.000" / "< 0.001" is stored as 0.0 (compared as p < 0.001).
SIGNIFICANT = ("Q1", "Q10", "Q16", "Q17", "Q25", "Q26")  # p < 0.05, as the paper reads Table 2

# Table 3: rankings of the 30 questions and items, and of the 13 classes.
LASSO_QUESTIONS = (
    "attendance", "nb.repeat", "Q17", "Q9", "Q11", "Q12", "Q10", "Q16", "Q1", "Q22", "Q25", "Q26",
    "Q18", "Q4", "Q2", "Q5", "Q14", "Q3", "Q21", "Q24", "Q7", "Q27", "Q13", "Q19", "Q23", "Q28",
    "Q20", "Q6", "Q8", "Q15",
)  # fmt: skip
VB_QUESTIONS = (
    "attendance", "nb.repeat", "Q17", "Q16", "Q26", "Q9", "Q22", "Q1", "Q25", "Q18", "Q5", "Q2",
    "Q10", "Q11", "Q3", "Q14", "Q4", "Q21", "Q12", "Q27", "Q7", "Q20", "Q24", "Q28", "Q13", "Q6",
    "Q19", "Q23", "Q15", "Q8",
)  # fmt: skip
LASSO_CLASSES = (7, 13, 2, 1, 6, 11, 10, 5, 3, 9, 4, 12, 8)
VB_CLASSES = (7, 8, 2, 11, 4, 6, 3, 12, 9, 5, 10, 1, 13)

# Table 4: 10-fold CV mean square error of rounded predictions.
TABLE4 = {"ols": 1.45, "lasso": 1.43, "vb": 1.45, "lme": 1.45, "ridge": 1.54}

# Table 1: the items (verbatim, spec §3.2).
TABLE1 = {
    "instr": "Instructor's identifier",
    "class": "Course code (descriptor)",
    "repeat": "Number of times the student is taking this course",
    "attendance": "Code of the level of attendance",
    "difficulty": "Level of difficulty of the course as perceived by the student; values {1,2,3,4,5}",
    "Q1": "The semester course content, teaching method and evaluation system were provided at the start.",
    "Q2": "The course aims and objectives were clearly stated at the beginning of the period.",
    "Q3": "The course was worth the amount of credit assigned to it.",
    "Q4": "The course was taught according to the syllabus announced on the first day of class.",
    "Q5": "The class discussions, homework assignments, applications and studies were satisfactory.",
    "Q6": "The textbook and other courses resources were sufficient and up to date.",
    "Q7": "The course allowed field work, applications, laboratory, discussion and other studies.",
    "Q8": "The quizzes, assignments, projects and exams contributed to helping the learning.",
    "Q9": "I greatly enjoyed the class and was eager to actively participate during the lectures.",
    "Q10": "My initial expectations about the course were met at the end of the period or year.",
    "Q11": "The course was relevant and beneficial to my professional development.",
    "Q12": "The course helped me look at life and the world with a new perspective.",
    "Q13": "The Instructor's knowledge was relevant and up to date.",
    "Q14": "The Instructor came prepared for classes.",
    "Q15": "The Instructor taught in accordance with the announced lesson plan.",
    "Q16": "The Instructor was committed to the course and was understandable.",
    "Q17": "The Instructor arrived on time for classes.",
    "Q18": "The Instructor has a smooth and easy to follow delivery/speech.",
    "Q19": "The Instructor made effective use of class hours.",
    "Q20": "The Instructor explained the course and was eager to be helpful to students.",
    "Q21": "The Instructor demonstrated a positive approach to students.",
    "Q22": "The Instructor was open and respectful of the views of students about the course.",
    "Q23": "The Instructor encouraged participation in the course.",
    "Q24": "The Instructor gave relevant homework assignments/projects, and helped/guided students.",
    "Q25": "The Instructor responded to questions about the course inside and outside of the course.",
    "Q26": "The Instructor's evaluation system (midterm, assignments, etc.) effectively measured the course objectives.",
    "Q27": "The Instructor provided solutions to exams and discussed them with students.",
    "Q28": "The Instructor treated all students in a right and objective manner.",
}

# The pilot's faithful VB fixed point on the real data (spec §3.4): the truth of the synthetic
# substitute (spec §4), in PREDICTORS order then the intercept.
PILOT_DELTA = (
    0.3806, 0.3868, 0.0375, 0.0250, -0.0211, 0.0160, 0.0274, -0.0056, 0.0090, 0.0003, -0.0541,
    -0.0244, -0.0244, -0.0131, 0.0062, 0.0169, -0.0012, -0.0735, 0.0951, -0.0354, -0.0035,
    0.0084, 0.0133, 0.0458, -0.0014, 0.0071, 0.0358, -0.0591, 0.0105, -0.0064, 1.6090,
)  # fmt: skip
SPARSE_SUPPORT = ("nb.repeat", "attendance", "Q9", "Q16", "Q17", "Q22", "Q26")  # and the intercept
