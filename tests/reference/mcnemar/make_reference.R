# Reference values for pairedstats' McNemar tests (tests/core/test_mcnemar.py).
#
# Run from the repository root:  Rscript tests/reference/mcnemar/make_reference.R
# Reads tables.csv (the discordant counts only_a, only_b of each table, next to this script)
# and writes, next to it:
#   reference.csv  per table: stats::binom.test(only_b, only_a + only_b, p = 0.5) for each
#                  alternative (greater: b's rate is the higher), and stats::mcnemar.test on
#                  the 2 x 2 table with and without its continuity correction
#   versions.txt   R's version
# Values are written with 17 significant digits (they round-trip to the same double).
here <- local({
  args <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", args[grep("^--file=", args)])
  if (length(f)) dirname(normalizePath(f)) else "."
})
num <- function(v) sprintf("%.17g", v)
tables <- read.csv(file.path(here, "tables.csv"))
rows <- list()
for (i in seq_len(nrow(tables))) {
  y <- tables$only_a[i]
  x <- tables$only_b[i]
  # rows: a right / a wrong; columns: b right / b wrong. The concordant cells do not enter.
  m <- matrix(c(11, x, y, 13), nrow = 2)
  row <- data.frame(only_a = y, only_b = x)
  for (alt in c("two.sided", "less", "greater")) {
    row[[paste0("binom_", alt)]] <- num(binom.test(x, x + y, p = 0.5, alternative = alt)$p.value)
  }
  for (correct in c(TRUE, FALSE)) {
    t <- mcnemar.test(m, correct = correct)
    tag <- if (correct) "corrected" else "uncorrected"
    row[[paste0("chi2_", tag)]] <- num(unname(t$statistic))
    row[[paste0("p_", tag)]] <- num(t$p.value)
  }
  rows[[i]] <- row
}
write.csv(do.call(rbind, rows), file.path(here, "reference.csv"), row.names = FALSE, quote = FALSE)
writeLines(R.version.string, file.path(here, "versions.txt"))
