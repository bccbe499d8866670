# Reference values for tests/core/test_bootstrap.py, computed in R (boot package) from the
# resample index matrices that pairedstats drew (export_inputs.py), so that the comparison is
# exact: replicates, standard error, percentile/basic/BCa intervals (quantile type 7, numpy's
# linear rule), BCa bias correction and jackknife acceleration.
# Run from the repository root: Rscript tests/reference/bootstrap/make_reference.R
library(boot)
here <- "tests/reference/bootstrap"
rd <- function(name) as.matrix(read.csv(file.path(here, name), header = FALSE)) + 1L
data <- read.csv(file.path(here, "data.csv"))
d <- data$b - data$a
conf <- 0.95
weights <- c(0.5, 0.3, 0.2)
out <- data.frame(case = character(), quantity = character(), value = numeric())
put <- function(case, quantity, value) {
  out <<- rbind(out, data.frame(case = case, quantity = quantity, value = value))
}

report <- function(case, t, t0, L) {
  alpha <- (1 + c(-conf, conf)) / 2
  perc <- quantile(t, alpha, type = 7, names = FALSE)
  put(case, "estimate", t0)
  put(case, "se", sd(t))
  put(case, "percentile_low", perc[1]); put(case, "percentile_high", perc[2])
  put(case, "basic_low", 2 * t0 - perc[2]); put(case, "basic_high", 2 * t0 - perc[1])
  # bias correction: ties count one half (scipy's rule; boot's bca.ci counts t < t0 only,
  # reported as z0_boot). A replicate within 1e-12 (relative) of t0 is a tie: equal in
  # exact arithmetic, split only by rounding.
  tol <- 1e-12 * max(abs(t0), mean(abs(t)))
  z0 <- qnorm((sum(t < t0 - tol) + sum(t <= t0 + tol)) / (2 * length(t)))
  put(case, "z0", z0)
  put(case, "z0_boot", qnorm(sum(t < t0) / length(t)))
  a <- sum(L^3) / (6 * sum(L^2)^1.5)
  put(case, "acceleration", a)
  zalpha <- qnorm(alpha)
  adj <- pnorm(z0 + (z0 + zalpha) / (1 - a * (z0 + zalpha)))
  bca <- quantile(t, adj, type = 7, names = FALSE)
  put(case, "bca_low", bca[1]); put(case, "bca_high", bca[2])
  put(case, "mean_t", mean(t))
}

# 1. items: the plain paired mean; L from boot's jackknife
idx <- rd("idx_items.csv")
t <- apply(idx, 1, function(i) mean(d[i]))
L <- empinf(data = d, statistic = function(x, i) mean(x[i]), type = "jack", stype = "i")
report("items", t, mean(d), L)

# 2. strata with population weights; L from boot's stratified jackknife
s <- data$stratum
strat_mean <- function(x, i) {
  xs <- x[i, ]
  sum(weights * tapply(xs$d, factor(xs$s, levels = 0:2), mean))
}
frame <- data.frame(d = d, s = s)
t <- rep(0, nrow(idx))
for (h in 0:2) {
  dh <- d[s == h]
  ih <- rd(sprintf("idx_stratum%d.csv", h))
  t <- t + weights[h + 1] * apply(ih, 1, function(i) mean(dh[i]))
}
L <- empinf(data = frame, statistic = strat_mean, strata = s, type = "jack", stype = "i")
report("strata", t, strat_mean(frame, seq_len(nrow(frame))), L)

# 3. clusters: ratio estimator (total of cluster sums over total count)
cl <- data$cluster
S <- tapply(d, cl, sum); M <- tapply(d, cl, length)
idx <- rd("idx_clusters.csv")
t <- apply(idx, 1, function(i) sum(S[i]) / sum(M[i]))
jack <- (sum(S) - S) / (sum(M) - M)
L <- (length(S) - 1) * (mean(jack) - jack)
report("clusters", t, sum(S) / sum(M), L)

# 4. clusters within strata, population weights
cs <- tapply(data$cluster_stratum, cl, function(v) v[1])
t <- rep(0, nrow(idx))
t0 <- 0
L <- numeric(0)
for (h in 0:2) {
  Sh <- S[cs == h]; Mh <- M[cs == h]
  ih <- rd(sprintf("idx_clstratum%d.csv", h))
  t <- t + weights[h + 1] * apply(ih, 1, function(i) sum(Sh[i]) / sum(Mh[i]))
  t0 <- t0 + weights[h + 1] * sum(Sh) / sum(Mh)
  jack <- weights[h + 1] * (sum(Sh) - Sh) / (sum(Mh) - Mh)
  L <- c(L, (length(Sh) - 1) * (mean(jack) - jack))
}
report("cluster_strata", t, t0, L)

write.csv(out, file.path(here, "reference.csv"), row.names = FALSE)
cat(sprintf("R %s, boot %s\n", getRversion(), packageVersion("boot")))
