# Write r.csv: R's friedman.test per case of datasets.csv, and per pair the paired Wilcoxon
# signed-rank p-values of pairwise.wilcox.test (unadjusted and Holm) and Nemenyi's
# single-step p-value from ptukey (run make_datasets.py first).
data <- read.csv("datasets.csv", stringsAsFactors = FALSE, check.names = FALSE)
rows <- list()
for (case in unique(data$case)) {
  part <- data[data$case == case, ]
  systems <- unique(part$system)
  part <- part[order(part$dataset), ]
  y <- sapply(systems, function(s) part$score[part$system == s])
  ft <- friedman.test(y)
  g <- factor(rep(systems, each = nrow(y)), levels = systems)
  x <- as.vector(y)
  none <- suppressWarnings(pairwise.wilcox.test(x, g, paired = TRUE, p.adjust.method = "none"))$p.value
  holm <- suppressWarnings(pairwise.wilcox.test(x, g, paired = TRUE, p.adjust.method = "holm"))$p.value
  r <- t(apply(y, 1, rank))
  k <- ncol(y); n <- nrow(y)
  mean_rank <- colMeans(r)
  for (i in 1:(k - 1)) for (j in (i + 1):k) {
    a <- systems[i]; b <- systems[j]
    z <- abs(mean_rank[i] - mean_rank[j]) / sqrt(k * (k + 1) / (6 * n))
    rows[[length(rows) + 1]] <- data.frame(
      case = case, system_a = a, system_b = b,
      friedman = unname(ft$statistic), pvalue_friedman = ft$p.value,
      wilcoxon_none = none[b, a], wilcoxon_holm = holm[b, a],
      nemenyi_ptukey = ptukey(sqrt(2) * z, k, Inf, lower.tail = FALSE))
  }
}
out <- do.call(rbind, rows)
numeric <- vapply(out, is.numeric, logical(1))
out[numeric] <- lapply(out[numeric], function(v) sprintf("%.17g", v))  # every digit
write.csv(out, "r.csv", row.names = FALSE, quote = FALSE)
versions <- if (file.exists("versions.txt")) readLines("versions.txt") else character(0)
versions <- versions[!startsWith(versions, "R ")]
writeLines(c(versions, paste0("R ", R.version$major, ".", R.version$minor)), "versions.txt")
