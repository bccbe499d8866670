# Reference values for pairedstats.core.adjust.adjust_pvalues (tests/core/test_adjust.py).
#
# Run from the repository root:  Rscript tests/reference/adjust/make_reference.R
# Writes, next to this script:
#   reference.csv  one row per (case, method): the case's p-values and R's
#                  stats::p.adjust(p, method) for method in holm, bonferroni, BH, as
#                  space-separated %.17g numbers (they round-trip to the same double; NA as NA)
#   versions.txt   the R version that wrote them
# p.adjust leaves NA out of the family (n counts the non-NA p-values) and returns NA for it.
set.seed(19790101)
here <- local({
  args <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", args[grep("^--file=", args)])
  if (length(f)) dirname(normalizePath(f)) else "."
})
fmt <- function(v) paste(ifelse(is.na(v), "NA", sprintf("%.17g", v)), collapse = " ")

cases <- list(
  single = 0.03,
  single_one = 1,
  single_zero = 0,
  ties = c(0.01, 0.02, 0.01, 0.04, 0.02),
  all_equal = rep(0.04, 6),
  ones = c(1, 0.5, 1, 1),
  tiny = c(1e-300, 5e-324, 1e-16, 0.2, 0, 2.2250738585072014e-308),
  capped = c(0.3, 0.45, 0.5, 0.6, 0.9),
  boundary = c(0, 0.049, 0.05, 0.051, 1, 0.5, 1e-4),
  with_na = c(0.01, NA, 0.03, 0.2, NA, 0.03),
  grid = seq(0.001, 0.05, length.out = 50),
  uniform = runif(10),
  small_beta = rbeta(20, 0.2, 3),
  many = c(runif(80), rbeta(20, 0.1, 10)),
  rounded = round(runif(30), 2)
)

rows <- list()
for (name in names(cases)) {
  p <- cases[[name]]
  for (method in c("holm", "bonferroni", "BH")) {
    rows[[length(rows) + 1]] <- data.frame(
      case = name, method = method, p = fmt(p), adjusted = fmt(p.adjust(p, method)),
      stringsAsFactors = FALSE
    )
  }
}
write.csv(do.call(rbind, rows), file.path(here, "reference.csv"), row.names = FALSE)
writeLines(R.version.string, file.path(here, "versions.txt"))
