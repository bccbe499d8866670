# Reference values for pairedstats' signed-rank test (tests/test_signrank.py).
#
# Run from the repository root:  Rscript tests/reference/signrank/make_reference.R
# Writes, next to this script:
#   datasets.csv   one row per data set: name, a and b as space-separated %.17g numbers
#   reference.csv  stats::wilcox.test(b, a, paired = TRUE, conf.int = TRUE, ...) on each data
#                  set: V, p.value, conf.int, estimate, method, whether R warned that the level
#                  is not achievable, and two brute-force columns (below)
#   versions.txt   R's version
# R works on x = b - a, as pairedstats does: nothing is negated.
#
# R finds the asymptotic interval ends (and the asymptotic estimate) with uniroot to within
# 1e-4. The data are on a grid of 1/64 (or integers), so the Walsh averages are at least
# 1/128 apart and the root lies next to exactly one of them: `ci_low_walsh`, `ci_high_walsh`
# are the Walsh averages (all (x_i + x_j) / 2, i <= j, of the non-zero x, formed by brute
# force) nearest to R's ends, and `walsh_median` is their median. On the exact path R's ends
# are Walsh averages already and these columns repeat them.
# Values are written with 17 significant digits (they round-trip to the same double).
set.seed(20251205)
here <- local({
  args <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", args[grep("^--file=", args)])
  if (length(f)) dirname(normalizePath(f)) else "."
})
fmt <- function(v) paste(sprintf("%.17g", v), collapse = " ")
num <- function(v) if (is.null(v) || length(v) == 0) NA_character_ else sprintf("%.17g", v)

# distinct |b - a| on a grid of 1/64 with random signs (no ties, no zeros), shifted by `shift`
# grid steps; a on the same grid, so b - a is exact
distinct <- function(n, shift = 0, zeros = 0) {
  m <- sample(1:400, n - zeros)
  s <- ifelse(runif(n - zeros) < 0.5 + shift, 1, -1)
  d <- sample(c(s * m, rep(0, zeros))) / 64
  a <- sample(0:640, n, replace = TRUE) / 64
  list(a = a, b = a + d)
}
grades <- function(n, k = 5, shift = 1) {
  a <- sample(0:(k - 1), n, replace = TRUE)
  list(a = a, b = pmax(0, a + sample(-2:2, n, replace = TRUE) + sample(0:shift, n, TRUE)))
}
datasets <- list(
  n3 = distinct(3, 0.3),
  n5 = distinct(5, 0.3),
  n8 = distinct(8, 0.1),
  n12 = distinct(12, 0.2),
  n15 = distinct(15, -0.2),
  n20 = distinct(20, 0.15),
  n49 = distinct(49, 0.1),
  n50 = distinct(50, 0.1),
  n60 = distinct(60, 0.1),
  zeros18 = distinct(18, 0.2, zeros = 3),
  ties15 = grades(15),
  ties_zeros20 = grades(20, 4),
  ties_zeros60 = grades(60, 6),
  grid200 = grades(200, 10, 0)
)

rows <- list()
add_row <- function(name, d, alt, exact, correct, level) {
  warned <- FALSE
  r <- tryCatch(withCallingHandlers(
    wilcox.test(d$b, d$a, paired = TRUE, alternative = alt, exact = exact,
                correct = correct, conf.int = TRUE, conf.level = level),
    warning = function(w) {
      if (grepl("not achievable", conditionMessage(w))) warned <<- TRUE
      invokeRestart("muffleWarning")
    }), error = function(e) NULL)
  if (is.null(r)) return(invisible())
  x <- d$b - d$a
  x <- x[x != 0]
  s <- outer(x, x, `+`)
  w <- sort(s[!lower.tri(s)] / 2)
  nearest <- function(v) if (is.finite(v)) w[which.min(abs(w - v))] else v
  rows[[length(rows) + 1]] <<- data.frame(
    dataset = name, n = length(d$a), n_zeros = sum(d$b == d$a), alternative = alt,
    exact = if (is.null(exact)) "auto" else as.character(exact), correct = correct,
    conf_level = level, V = num(unname(r$statistic)), p_value = num(r$p.value),
    ci_low = num(r$conf.int[1]), ci_high = num(r$conf.int[2]),
    estimate = num(unname(r$estimate)), method = r$method, not_achievable = warned,
    ci_low_walsh = num(nearest(r$conf.int[1])), ci_high_walsh = num(nearest(r$conf.int[2])),
    walsh_median = num(median(w)), stringsAsFactors = FALSE)
}
for (name in names(datasets)) {
  d <- datasets[[name]]
  for (alt in c("two.sided", "less", "greater")) {
    for (level in c(0.95, 0.9)) {
      add_row(name, d, alt, NULL, TRUE, level)
      for (correct in c(TRUE, FALSE)) add_row(name, d, alt, FALSE, correct, level)
      if (name == "n60") add_row(name, d, alt, TRUE, TRUE, level)
    }
  }
}
cases <- do.call(rbind, rows)
ds <- data.frame(dataset = names(datasets),
                 a = vapply(datasets, function(d) fmt(d$a), ""),
                 b = vapply(datasets, function(d) fmt(d$b), ""), stringsAsFactors = FALSE)
write.csv(ds, file.path(here, "datasets.csv"), row.names = FALSE)
write.csv(cases, file.path(here, "reference.csv"), row.names = FALSE)
writeLines(R.version.string, file.path(here, "versions.txt"))
cat("wrote", nrow(cases), "cases on", nrow(ds), "data sets\n")
