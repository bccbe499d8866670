# Reference values for the signed-rank test against a margin (tests/test_signrank_margin.py).
#
# Run from the repository root:  Rscript tests/reference/signrank/margin_r.R
# Writes margin_r.json next to this script: the data sets (a, b and the margins tried) and,
# for each data set, margin m, `exact` (NULL, TRUE, FALSE) and `correct`, the two one-sided
# tests of stats::wilcox.test on the shifted differences:
#   above: wilcox.test(b, a, paired = TRUE, mu = -m, alternative = "greater")  H0: b - a <= -m
#   below: wilcox.test(b, a, paired = TRUE, mu =  m, alternative = "less")     H0: b - a >=  m
# with their p-value, V, method and how many shifted differences are zero.
#
# The scores and the margins are on a binary grid (multiples of 1/64, or integers), so
# b - a and b - a -/+ m are exact in floating point and R's exact equality reads the zeros and
# ties of the shifted differences as exact arithmetic does. (On decimal scores R's zeros
# after shifting can be an ulp away from 0; pairedstats reads those by its tie rule.)
#
# `decimal` adds data sets of decimal scores (hundredths) and margins (0.1, 0.05), with
# differences equal to -m and +m: for each case, R's tests on the scores and margin times 100
# (integers, exact: the tests in exact arithmetic, which a rank test's scale does not change)
# as `scaled`, and R's tests on the decimals as they are as `as_given` (zeros an ulp off 0).
# Numbers are written with 17 significant digits (they round-trip to the same double).
set.seed(20261207)
here <- local({
  args <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", args[grep("^--file=", args)])
  if (length(f)) dirname(normalizePath(f)) else "."
})
num <- function(v) if (is.na(v)) "NaN" else sprintf("%.17g", v)
vec <- function(v) paste0("[", paste(vapply(v, num, ""), collapse = ", "), "]")
str <- function(s) paste0('"', s, '"')

# distinct |b - a| on a grid of 1/64 with random signs around a centre of `centre` grid steps
# (no ties or zeros before shifting); a on the same grid
distinct <- function(n, centre = 0, zeros = 0) {
  m <- sample(1:200, n - zeros)
  d <- sample(c(ifelse(runif(n - zeros) < 0.5, 1, -1) * m + centre, rep(0, zeros))) / 64
  a <- sample(0:640, n, replace = TRUE) / 64
  list(a = a, b = a + d)
}
# integer grades: ties and zeros before and after an integer shift
grades <- function(n, k = 5) {
  a <- sample(0:(k - 1), n, replace = TRUE)
  list(a = a, b = a + sample(-2:2, n, replace = TRUE))
}
# differences that hit -m and +m exactly: zeros after both shifts
at_margin <- function(n, m) {
  d <- c(rep(-m, 2), rep(m, 3), sample(c(-120:-1, 1:120), n - 5) / 64)
  a <- sample(0:640, n, replace = TRUE) / 64
  list(a = a, b = a + sample(d))
}
datasets <- list(
  n6 = list(data = distinct(6, 20), margins = c(0.25, 1.5)),
  n10 = list(data = distinct(10, 10), margins = c(0.5, 2)),
  n15 = list(data = distinct(15, -15), margins = c(0.5, 1.25)),
  n25 = list(data = distinct(25, 0), margins = c(0.75, 2.5)),
  n40 = list(data = distinct(40, 5), margins = c(0.5, 1)),
  n49 = list(data = distinct(49, 0), margins = c(1 / 64 + 1 / 128, 0.5)),
  n50 = list(data = distinct(50, -5), margins = c(0.25, 1.5)),
  n60 = list(data = distinct(60, 0), margins = c(0.5, 1.5)),
  zeros20 = list(data = distinct(20, 10, zeros = 4), margins = c(0.125, 1)),
  at_margin30 = list(data = at_margin(30, 0.5), margins = 0.5),
  grades12 = list(data = grades(12), margins = c(0.5, 1)),
  grades45 = list(data = grades(45, 6), margins = c(1, 2))
)

# decimal scores in hundredths (as integers here), with differences -m (3) and +m (2)
hundredths <- function(n, m) {
  a <- sample(20:90, n, replace = TRUE)
  list(a = a, b = a + sample(c(rep(-m, 3), rep(m, 2), sample(-25:25, n - 5, TRUE))))
}
decimal <- list(
  dec12 = list(data = hundredths(12, 10), margins = 10),
  dec30 = list(data = hundredths(30, 5), margins = c(5, 10))
)

cases <- character(0)
one <- function(d, mu, alt, exact, correct) {
  x <- d$b - d$a - mu
  r <- withCallingHandlers(
    wilcox.test(d$b, d$a, paired = TRUE, mu = mu, alternative = alt, exact = exact,
                correct = correct),
    warning = function(w) invokeRestart("muffleWarning"))  # ties or zeros: R goes normal
  paste0("{", paste0('"', c("pvalue", "V", "method", "n_zeros"), '": ',
                     c(num(r$p.value), num(unname(r$statistic)), str(r$method),
                       sum(x == 0)), collapse = ", "), "}")
}
for (name in names(datasets)) {
  d <- datasets[[name]]$data
  for (m in datasets[[name]]$margins) {
    for (exact in list(NULL, TRUE, FALSE)) {
      for (correct in c(TRUE, FALSE)) {
        cases[length(cases) + 1] <- paste0(
          "{", '"dataset": ', str(name), ', "margin": ', num(m),
          ', "exact": ', str(if (is.null(exact)) "auto" else as.character(exact)),
          ', "correct": ', tolower(as.character(correct)),
          ', "above": ', one(d, -m, "greater", exact, correct),
          ', "below": ', one(d, m, "less", exact, correct), "}")
      }
    }
  }
}
decimal_cases <- character(0)
for (name in names(decimal)) {
  d <- decimal[[name]]$data
  given <- list(a = d$a / 100, b = d$b / 100)
  for (m in decimal[[name]]$margins) {
    for (exact in list(NULL, FALSE)) {
      decimal_cases[length(decimal_cases) + 1] <- paste0(
        "{", '"dataset": ', str(name), ', "margin": ', num(m / 100),
        ', "exact": ', str(if (is.null(exact)) "auto" else as.character(exact)),
        ', "correct": true',
        ', "scaled": {"above": ', one(d, -m, "greater", exact, TRUE),
        ', "below": ', one(d, m, "less", exact, TRUE), "}",
        ', "as_given": {"above": ', one(given, -m / 100, "greater", exact, TRUE),
        ', "below": ', one(given, m / 100, "less", exact, TRUE), "}}")
    }
  }
}
sets <- vapply(names(datasets), function(name) {
  d <- datasets[[name]]
  paste0(str(name), ': {"a": ', vec(d$data$a), ', "b": ', vec(d$data$b),
         ', "margins": ', vec(d$margins), "}")
}, "")
decimal_sets <- vapply(names(decimal), function(name) {
  d <- decimal[[name]]
  paste0(str(name), ': {"a": ', vec(d$data$a / 100), ', "b": ', vec(d$data$b / 100),
         ', "margins": ', vec(d$margins / 100), "}")
}, "")
json <- paste0('{"r_version": ', str(R.version.string), ',\n "datasets": {\n  ',
               paste(sets, collapse = ",\n  "), '},\n "cases": [\n  ',
               paste(cases, collapse = ",\n  "), '\n ],\n "decimal_datasets": {\n  ',
               paste(decimal_sets, collapse = ",\n  "), '},\n "decimal_cases": [\n  ',
               paste(decimal_cases, collapse = ",\n  "), "\n ]\n}\n")
writeLines(json, file.path(here, "margin_r.json"), sep = "")
cat("wrote", length(cases), "cases on", length(datasets), "data sets and",
    length(decimal_cases), "on", length(decimal), "of decimals\n")
