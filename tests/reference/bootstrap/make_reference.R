# Reference values for tests/core/test_bootstrap.py, computed in R from the resample index
# matrices that pairedstats drew (export_inputs.py), so that the comparison is exact:
# replicates, standard error, percentile/basic/BCa intervals (quantile type 7, numpy's linear
# rule), BCa bias correction and acceleration.
# Run from the repository root: Rscript tests/reference/bootstrap/make_reference.R
#
# The acceleration.
# With strata, the bootstrap draws n_h units within each stratum h. For a statistic with
# empirical influence values l_hj, its linear approximation has variance
# sum_h n_h^-2 sum_j l_hj^2 and third cumulant sum_h n_h^-3 sum_j l_hj^3, so
#   a = sum_h n_h^-3 sum_j l_hj^3 / (6 (sum_h n_h^-2 sum_j l_hj^2)^1.5)
# (Davison and Hinkley 1997, section 5.3, stratified case). With one stratum it is Efron's
# sum(l^3) / (6 sum(l^2)^1.5).
# R's boot does NOT do this: boot.ci(type = "bca") calls bca.ci, which computes
# a <- sum(L^3) / (6 * sum(L^2)^1.5) whatever the strata (read in boot 1.3-28.1's source:
# print(boot:::bca.ci)); empinf(strata = ...) itself is right (usual.jack leaves one unit out
# and scales by n_h - 1 within its stratum). So boot is used here for influence values only,
# never for `a` with strata. Two independent checks instead:
#  1. exact enumeration ("exact_*" cases): for a linear statistic (the stratified mean) the
#     acceleration is the skewness of the exact bootstrap distribution over 6 (its linear
#     approximation is exact). All within-stratum resamples of tiny unequal strata are
#     enumerated as multinomial count vectors with their probabilities; the skewness of the
#     weighted combination of stratum means is computed from them. This checks the formula
#     above, which is then used for
#  2. the non-linear and clustered cases: influence values by brute force, the whole
#     estimator recomputed from the data with one unit (item or cluster) removed,
#     l_hj = (n_h - 1) (mean of stratum h's leave-outs - leave-out j), then the formula.
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

# the stratified acceleration of influence values L, `stratum` the stratum of each
accel <- function(L, stratum) {
  n <- as.vector(table(stratum)[as.character(stratum)])
  sum(L^3 / n^3) / (6 * sum(L^2 / n^2)^1.5)
}

# influence values from leave-one-unit-out estimates `leave`, per stratum
jack_L <- function(leave, stratum) {
  L <- numeric(length(leave))
  for (h in unique(stratum)) {
    j <- stratum == h
    L[j] <- (sum(j) - 1) * (mean(leave[j]) - leave[j])
  }
  L
}

report <- function(case, t, t0, a) {
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
  put(case, "acceleration", a)
  zalpha <- qnorm(alpha)
  adj <- pnorm(z0 + (z0 + zalpha) / (1 - a * (z0 + zalpha)))
  bca <- quantile(t, adj, type = 7, names = FALSE)
  put(case, "bca_low", bca[1]); put(case, "bca_high", bca[2])
  put(case, "mean_t", mean(t))
}

# 1. items: the plain paired mean; L from boot's jackknife (one stratum: boot's `a` is right)
idx <- rd("idx_items.csv")
t <- apply(idx, 1, function(i) mean(d[i]))
L <- empinf(data = d, statistic = function(x, i) mean(x[i]), type = "jack", stype = "i")
stopifnot(isTRUE(all.equal(L, jack_L(sapply(seq_along(d), function(i) mean(d[-i])),
                                     rep(1, length(d))))))
report("items", t, mean(d), accel(L, rep(1, length(d))))

# 2. strata of 8, 10 and 12 items with population weights; L from boot's stratified
#    jackknife, checked against the brute-force leave-one-out
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
leave <- sapply(seq_along(d), function(i) strat_mean(frame[-i, ], seq_len(nrow(frame) - 1)))
stopifnot(isTRUE(all.equal(L, jack_L(leave, s))))
report("strata", t, strat_mean(frame, seq_len(nrow(frame))), accel(L, s))
put("strata", "acceleration_boot_unstratified", sum(L^3) / (6 * sum(L^2)^1.5))

# 3. clusters: ratio estimator (total of cluster sums over total count); L by brute force
cl <- data$cluster
S <- tapply(d, cl, sum); M <- tapply(d, cl, length)
idx <- rd("idx_clusters.csv")
t <- apply(idx, 1, function(i) sum(S[i]) / sum(M[i]))
leave <- sapply(sort(unique(cl)), function(c) mean(d[cl != c]))
report("clusters", t, sum(S) / sum(M), accel(jack_L(leave, rep(1, 12)), rep(1, 12)))

# 4. clusters within strata, population weights; L by brute force: the whole weighted
#    estimator without one cluster. Equal numbers of clusters (4, 4, 4: 10, 8 and 12 items)
#    and unequal ones (3, 4, 5: 6, 10 and 14 items)
cluster_strata_case <- function(case, column, prefix) {
  cstr <- data[[column]]
  cs <- tapply(cstr, cl, function(v) v[1])
  est <- function(keep) sum(weights * tapply(d[keep], factor(cstr[keep], levels = 0:2), mean))
  t <- rep(0, nrow(idx))
  for (h in 0:2) {
    Sh <- S[cs == h]; Mh <- M[cs == h]
    ih <- rd(sprintf("%s%d.csv", prefix, h))
    t <- t + weights[h + 1] * apply(ih, 1, function(i) sum(Sh[i]) / sum(Mh[i]))
  }
  leave <- sapply(sort(unique(cl)), function(c) est(cl != c))
  L <- jack_L(leave, cs)
  report(case, t, est(rep(TRUE, length(d))), accel(L, cs))
  put(case, "acceleration_boot_unstratified", sum(L^3) / (6 * sum(L^2)^1.5))
}
cluster_strata_case("cluster_strata", "cluster_stratum", "idx_clstratum")
cluster_strata_case("cluster_strata_unequal", "cluster_stratum_unequal", "idx_unequal")

# 5. a non-linear `statistic` with strata: the root mean square, rms(b) - rms(a), computed on
#    the pooled items of each stratified resample; L by brute force (one item removed)
rms <- function(x) sqrt(mean(x^2))
stat_diff <- function(keep) rms(data$b[keep]) - rms(data$a[keep])
items_of <- lapply(0:2, function(h) which(s == h))
ih <- lapply(0:2, function(h) rd(sprintf("idx_stratum%d.csv", h)))
t <- sapply(seq_len(nrow(ih[[1]])), function(r) {
  stat_diff(unlist(lapply(1:3, function(h) items_of[[h]][ih[[h]][r, ]])))
})
leave <- sapply(seq_along(d), function(i) stat_diff(-i))
L <- jack_L(leave, s)
report("stat_strata", t, stat_diff(seq_along(d)), accel(L, s))
put("stat_strata", "acceleration_boot_unstratified", sum(L^3) / (6 * sum(L^2)^1.5))

# 6. the same statistic with clusters within strata (unequal numbers of clusters): the pooled
#    items of the drawn clusters; L by brute force (one cluster removed)
cstr <- data$cluster_stratum_unequal
cs <- tapply(cstr, cl, function(v) v[1])
ih <- lapply(0:2, function(h) rd(sprintf("idx_unequal%d.csv", h)))
clusters_of <- lapply(0:2, function(h) sort(unique(cl[cstr == h])))
t <- sapply(seq_len(nrow(ih[[1]])), function(r) {
  drawn <- unlist(lapply(1:3, function(h) clusters_of[[h]][ih[[h]][r, ]]))
  stat_diff(unlist(lapply(drawn, function(c) which(cl == c))))
})
leave <- sapply(sort(unique(cl)), function(c) stat_diff(cl != c))
L <- jack_L(leave, cs)
report("stat_cluster_strata", t, stat_diff(seq_along(d)), accel(L, cs))
put("stat_cluster_strata", "acceleration_boot_unstratified", sum(L^3) / (6 * sum(L^2)^1.5))

# 7. exact enumeration: tiny unequal strata, the weighted stratified mean. Every count vector
#    of n_h draws from n_h units, with its multinomial probability; skewness / 6.
compositions <- function(n) {
  g <- as.matrix(expand.grid(rep(list(0:n), n)))
  g[rowSums(g) == n, , drop = FALSE]
}
exact <- data.frame(case = character(), a = numeric(), b = numeric(), stratum = integer(),
                    weight = numeric())
exact_case <- function(case, a, b, stratum, w) {
  exact <<- rbind(exact, data.frame(case = case, a = a, b = b, stratum = stratum,
                                    weight = w[stratum + 1]))
  y <- b - a
  tt <- 0; pp <- 1
  for (h in sort(unique(stratum))) {
    yh <- y[stratum == h]; n <- length(yh)
    C <- compositions(n)
    p <- apply(C, 1, dmultinom, prob = rep(1 / n, n))
    stopifnot(abs(sum(p) - 1) < 1e-12)
    tt <- outer(tt, w[h + 1] * drop(C %*% yh) / n, "+")
    pp <- outer(pp, p)
  }
  tt <- c(tt); pp <- c(pp)
  mu <- sum(pp * tt)
  k2 <- sum(pp * (tt - mu)^2); k3 <- sum(pp * (tt - mu)^3)
  put(case, "estimate", mu)
  put(case, "variance", k2)
  put(case, "acceleration", k3 / k2^1.5 / 6)
}
exact_case("exact_2_5", a = c(0.2, 0.9, 0.1, 0.4, 0.3, 0.5, 0.2),
           b = c(0.6, 0.8, 0.1, 0.5, 0.9, 0.6, 1.0), stratum = c(0, 0, 1, 1, 1, 1, 1),
           w = c(0.7, 0.3))
exact_case("exact_3_6", a = c(1, 4, 2, 0, 3, 1, 2, 5, 0),
           b = c(1, 6, 2, 1, 2, 1, 2, 5, 5), stratum = c(1, 0, 1, 0, 0, 1, 1, 1, 1),
           w = c(0.5, 0.5))

write.csv(out, file.path(here, "reference.csv"), row.names = FALSE)
write.csv(exact, file.path(here, "exact_strata.csv"), row.names = FALSE)
cat(sprintf("R %s, boot %s\n", getRversion(), packageVersion("boot")))
