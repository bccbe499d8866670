# Reference values of the paired t-test's power (R's power.t.test, strict = TRUE: both
# tails count for a two-sided test) for pairedstats.items_for, detectable_difference and
# paired_power. Run: Rscript tests/reference/power/make_reference.R > tests/reference/power/reference.csv
cases <- expand.grid(delta = c(0.02, 0.1, 0.5, 1.2), sd = c(0.1, 1), power = c(0.5, 0.8, 0.95),
                     alpha = c(0.01, 0.05), alternative = c("two.sided", "one.sided"),
                     stringsAsFactors = FALSE)
cases <- cases[cases$delta / cases$sd >= 0.1 & cases$delta / cases$sd <= 6, ]
cat("kind,alternative,delta,sd,power,alpha,n,value\n")
for (i in seq_len(nrow(cases))) {
  c <- cases[i, ]
  r <- power.t.test(delta = c$delta, sd = c$sd, power = c$power, sig.level = c$alpha,
                    type = "paired", alternative = c$alternative, strict = TRUE, tol = 1e-12)
  cat(sprintf("n,%s,%.17g,%.17g,%.17g,%.17g,,%.17g\n", c$alternative, c$delta, c$sd, c$power,
              c$alpha, r$n))
}
for (n in c(2, 3, 5, 10, 30, 100, 1000)) for (alt in c("two.sided", "one.sided"))
  for (alpha in c(0.01, 0.05)) {
    r <- power.t.test(n = n, sd = 1, power = 0.8, sig.level = alpha, type = "paired",
                      alternative = alt, strict = TRUE, tol = 1e-12)
    cat(sprintf("delta,%s,,1,0.8,%.17g,%d,%.17g\n", alt, alpha, n, r$delta))
    r <- power.t.test(n = n, delta = 0.3, sd = 1, sig.level = alpha, type = "paired",
                      alternative = alt, strict = TRUE)
    cat(sprintf("power,%s,0.3,1,,%.17g,%d,%.17g\n", alt, alpha, n, r$power))
  }
