# Reference values for pairedstats' rank-sum test (tests/core/test_ranksum.py, tests/test_ranksum.py).
#
# Run from the repository root:  Rscript tests/reference/ranksum/make_reference.R
# Writes, next to this script:
#   datasets.csv  one row per data set: name, a and b as space-separated %.17g numbers
#   cases.csv     stats::wilcox.test(x = a, y = b, ...) on each data set: W, p.value,
#                 conf.int, estimate, method, and whether R warned "not achievable"
#   coin.csv      coin::wilcox_test(distribution = "exact") p-values (exact conditional with
#                 ties; group "a" is the first level, as R's x)
#   dwilcox.csv   stats::dwilcox(u, m, n) for a few (m, n)
# R reports x - y = a - b; pairedstats reports b - a: the tests negate and mirror.
# Values are written with 17 significant digits (they round-trip to the same double).
suppressMessages(library(coin))
set.seed(20240519)
here <- local({
  args <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", args[grep("^--file=", args)])
  if (length(f)) dirname(normalizePath(f)) else "."
})
fmt <- function(v) paste(sprintf("%.17g", v), collapse = " ")
num <- function(v) if (is.null(v) || length(v) == 0) NA_character_ else sprintf("%.17g", v)

# distinct values on a 1e-3 grid (no ties, pairwise differences >= 1e-3 apart from each other
# only on the grid, so R's uniroot (tol 1e-4) lands next to one difference)
distinct <- function(n_a, n_b, shift = 0) {
  v <- sample(-3000:3000, n_a + n_b) / 1000
  list(a = v[seq_len(n_a)], b = v[n_a + seq_len(n_b)] + shift)
}
tied <- function(n_a, n_b, k = 5, shift = 1) {
  list(a = sample(0:(k - 1), n_a, replace = TRUE),
       b = sample(0:(k - 1), n_b, replace = TRUE) + sample(0:shift, n_b, replace = TRUE))
}
datasets <- list(
  one_one = list(a = 0.5, b = 1.25),
  two_two = list(a = c(0.1, 0.7), b = c(0.4, 1.3)),
  d3x4 = distinct(3, 4),
  d5x5 = distinct(5, 5, 0.5),
  d8x12 = distinct(8, 12, 0.3),
  d12x8 = distinct(12, 8, -0.4),
  d20x15 = distinct(20, 15, 0.6),
  d40x49 = distinct(40, 49, 0.2),
  d60x45 = distinct(60, 45, 0.25),
  d150x120 = distinct(150, 120, 0.1),
  t8x10 = tied(8, 10),
  t15x20 = tied(15, 20),
  t30x25 = tied(30, 25, 7),
  t70x60 = tied(70, 60, 6),
  t12x9_half = list(a = c(1, 1.5, 2, 2, 3, 3.5, 4, 4, 4, 5, 2.5, 1),
                    b = c(2, 3, 3, 4, 4.5, 5, 5, 6, 3))
)

rows <- list()
add_row <- function(name, d, alt, exact, correct, level) {
  warned <- FALSE
  # R's asymptotic interval fails on some tiny samples (a zero variance at an end point):
  # those cases are left out.
  r <- tryCatch(withCallingHandlers(
    wilcox.test(x = d$a, y = d$b, alternative = alt, exact = exact, correct = correct,
                conf.int = TRUE, conf.level = level),
    warning = function(w) {
      if (grepl("not achievable", conditionMessage(w))) warned <<- TRUE
      invokeRestart("muffleWarning")
    }), error = function(e) NULL)
  if (is.null(r)) return(invisible())
  rows[[length(rows) + 1]] <<- data.frame(
    dataset = name, n_a = length(d$a), n_b = length(d$b), alternative = alt,
    exact = exact, correct = correct, conf_level = level,
    W = num(unname(r$statistic)), p_value = num(r$p.value),
    ci_low = num(r$conf.int[1]), ci_high = num(r$conf.int[2]),
    estimate = num(unname(r$estimate)), method = r$method,
    not_achievable = warned, stringsAsFactors = FALSE)
}
for (name in names(datasets)) {
  d <- datasets[[name]]
  has_ties <- length(unique(c(d$a, d$b))) < length(c(d$a, d$b))
  small <- length(d$a) * length(d$b) <= 60 * 45
  for (alt in c("two.sided", "less", "greater")) {
    for (level in c(0.95, 0.8)) {
      if (!has_ties && small) add_row(name, d, alt, TRUE, TRUE, level)
      for (correct in c(TRUE, FALSE)) add_row(name, d, alt, FALSE, correct, level)
    }
  }
}
cases <- do.call(rbind, rows)

coin_rows <- list()
for (name in names(datasets)) {
  d <- datasets[[name]]
  if (length(d$a) + length(d$b) > 40) next
  frame <- data.frame(y = c(d$a, d$b),
                      g = factor(rep(c("a", "b"), c(length(d$a), length(d$b))),
                                 levels = c("a", "b")))
  for (alt in c("two.sided", "less", "greater")) {
    ct <- wilcox_test(y ~ g, data = frame, distribution = "exact", alternative = alt)
    coin_rows[[length(coin_rows) + 1]] <- data.frame(
      dataset = name, alternative = alt, p_value = num(pvalue(ct)), stringsAsFactors = FALSE)
  }
}
coin_tab <- do.call(rbind, coin_rows)

dw <- list()
for (mn in list(c(1, 1), c(3, 5), c(7, 4), c(10, 10), c(25, 30), c(49, 49))) {
  u <- 0:(mn[1] * mn[2])
  dw[[length(dw) + 1]] <- data.frame(m = mn[1], n = mn[2], u = u,
                                     dwilcox = sprintf("%.17g", dwilcox(u, mn[1], mn[2])))
}
dw <- do.call(rbind, dw)

ds <- data.frame(dataset = names(datasets),
                 a = vapply(datasets, function(d) fmt(d$a), ""),
                 b = vapply(datasets, function(d) fmt(d$b), ""), stringsAsFactors = FALSE)
write.csv(ds, file.path(here, "datasets.csv"), row.names = FALSE)
write.csv(cases, file.path(here, "cases.csv"), row.names = FALSE)
write.csv(coin_tab, file.path(here, "coin.csv"), row.names = FALSE)
write.csv(dw, file.path(here, "dwilcox.csv"), row.names = FALSE)
writeLines(c(R.version.string, paste("coin", as.character(packageVersion("coin")))),
           file.path(here, "versions.txt"))
cat("wrote", nrow(cases), "cases,", nrow(coin_tab), "coin rows,", nrow(dw), "dwilcox rows\n")
