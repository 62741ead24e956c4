# glmnet's grouped multinomial lasso on the problems benchmarks/bench_group_lasso.py writes
# (issue 46): for each <name>.csv in DIR (the candidates' integer codes, the response last as y)
# and its <name>_fold.csv (foldid, 1-based), the best of REPEATS elapsed seconds, timed inside R
# by system.time (R's start-up and the CSV reading are not counted), of
#   glmnet(x, y, family = "multinomial", type.multinomial = "grouped")            -> path_s
#   cv.glmnet(x, y, family = "multinomial", type.multinomial = "grouped", foldid) -> cv_glmnet_s
# with x = model.matrix(y ~ ., data)[, -1] on the codes as factors (the dombowsky2025 design),
# at glmnet's defaults (standardize, 100 lambda, thresh 1e-7, deviance). Usage:
#   Rscript benchmarks/glmnet_timings.R DIR REPEATS OUT.csv
suppressMessages(library(glmnet))
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
repeats <- as.integer(args[2])
rows <- list()
for (fold_file in sort(Sys.glob(file.path(dir, "*_fold.csv")))) {
  name <- sub("_fold[.]csv$", "", basename(fold_file))
  data <- data.frame(lapply(read.csv(file.path(dir, paste0(name, ".csv"))), factor))
  foldid <- read.csv(fold_file)$foldid
  x <- model.matrix(y ~ ., data)[, -1]
  path <- cv <- numeric(0)
  for (r in seq_len(repeats)) {
    path <- c(path, system.time(
      fit <- glmnet(x, data$y, family = "multinomial", type.multinomial = "grouped")
    )[["elapsed"]])
    cv <- c(cv, system.time(
      cvfit <- cv.glmnet(x, data$y, family = "multinomial", type.multinomial = "grouped",
                         foldid = foldid)
    )[["elapsed"]])
  }
  rows[[length(rows) + 1]] <- data.frame(
    problem = name, path_s = round(min(path), 3), cv_glmnet_s = round(min(cv), 3),
    n_lambda = length(fit$lambda),
    lambda_1se = cvfit$lambda.1se, r_version = paste(R.version$major, R.version$minor, sep = "."),
    glmnet_version = as.character(packageVersion("glmnet"))
  )
}
write.csv(do.call(rbind, rows), args[3], row.names = FALSE)
