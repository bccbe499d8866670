# R's wilcox.test lowers the confidence level of its interval (doubles 1 - conf.level until
# both ends exist) on its asymptotic path: with ties, and also with a zero and no ties (a
# zero alone sends R to the normal approximation). The numbers of docs/signrank.md.
#   Rscript validation/signrank_r_level.R > validation/results/signrank_r_level.txt
cases <- list(
  "ties and zeros: 1, 1, 2, 2, 3, 0, 0" = c(1, 1, 2, 2, 3, 0, 0),
  "one zero, no ties: 1, 2, 3, 4, 5, 0" = c(1, 2, 3, 4, 5, 0),
  "one zero, no ties: 1.5, 2, 3, 4, 5, 6, 0" = c(1.5, 2, 3, 4, 5, 6, 0),
  "no zero, no ties: 1, 2, 3, 4, 5" = c(1, 2, 3, 4, 5)
)
cat(R.version.string, "\n")
for (label in names(cases)) {
  warned <- character(0)
  r <- withCallingHandlers(
    wilcox.test(cases[[label]], conf.int = TRUE, conf.level = 0.95),
    warning = function(w) {
      warned <<- c(warned, conditionMessage(w))
      invokeRestart("muffleWarning")
    }
  )
  cat(sprintf("%s\n  method: %s\n  p-value: %.7g\n  interval: [%.6g, %.6g] at conf.level %g\n",
              label, r$method, r$p.value, r$conf.int[1], r$conf.int[2],
              attr(r$conf.int, "conf.level")))
  if (length(warned)) cat(sprintf("  warning: %s\n", warned), sep = "")
}
