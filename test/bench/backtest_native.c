/*
 * Benchmark yardstick (e) of test/bench/backtest.bench.ts: the "floor" of
 * backtestWorker.ts (the strategy hand-written as two loops over 2048-bar blocks:
 * labels, then the engine's default-mode accounting) in C, compiled by the bench
 * with `cc -O3 -march=native -ffp-contract=off` (no fused multiply-adds: C then rounds as
 * JavaScript does, and its equity column is the engine's byte for byte; yardsticks.bench.ts checks
 * it with BENCH_DUMP). Not the library and not a reference for its
 * numbers: it shows what native code does on this machine, to set the speed
 * targets against. Same scorers, label rule and accounting as the floor, same
 * input file (column-major float64), same output line as the other workers.
 *
 * With a 4th argument "summary": the summary row instead of the equity column (the same loops
 * with the accumulators of floorSummary in backtestWorker.ts: total return, max drawdown,
 * annualised Sharpe ratio, positions opened; no per-bar output).
 *
 * usage: backtest_native FILE N REPS [summary]   (BENCH_CLOCK=wall for wall-clock time;
 *   BENCH_DUMP=path writes the last equity column as float64 bytes)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_bars.h"

enum { COLUMNS = 7, BLOCK = 2048 };
static const double FEE_BPS = 5, SLIPPAGE_BPS = 2, THRESHOLD = 0.1;

static double clock_s(int wall) {
  struct timespec t;
  clock_gettime(wall ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double limit(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* The labels of bars lo..hi-1 into w[0 .. hi-lo). */
static inline void labels(const double *col, long n, long lo, long hi, double *w) {
  const double *imb = col + n, *fund = col + 2 * n, *basis = col + 3 * n, *mom = col + 4 * n, *gas = col + 5 * n;
  for (long i = lo; i < hi; i++) {
    double x = 0.3 * (2 * (limit(imb[i], 0, 1) - 0.5)) + 0.25 * limit(-fund[i] * 1e4, -1, 1) +
               0.2 * limit(-basis[i] / 50, -1, 1) + 0.15 * limit(mom[i] / 2, -1, 1) +
               0.1 * limit(0.3 - (gas[i] - 1.1) / 10, -1, 0.3);
    w[i - lo] = x >= THRESHOLD && x > 0 ? 1 : x <= -THRESHOLD && x < 0 ? -1 : 0;
  }
}

static void run(const double *col, long n, double *equity) {
  const double *close = col, *fbar = col + 6 * n;
  const double rate = (FEE_BPS + SLIPPAGE_BPS) / 1e4;
  double w[BLOCK];
  double V = 1, E = 1, q = 0, L = close[0], held = 0;
  for (long lo = 0; lo < n; lo += BLOCK) {
    long hi = lo + BLOCK < n ? lo + BLOCK : n;
    labels(col, n, lo, hi, w);
    for (long i = lo; i < hi; i++) {
      double p = close[i];
      if (i > 0) {
        double r = fbar[i];
        if (q != 0 && r == r && r != 0) V -= q * L * r;
        if (q != 0) V += q * (p - L);
        L = p;
        E = V;
      }
      equity[i] = E;
      if (i < n - 1) {
        double wi = w[i - lo];
        double traded = fabs(wi - held) * E;
        if (traded != 0) V -= rate * traded;
        q = E * (wi / p);
        held = wi;
      }
    }
  }
}

struct summary {
  double total_return, max_drawdown, sharpe;
  long trades;
};

static struct summary run_summary(const double *col, long n) {
  const double *close = col, *fbar = col + 6 * n;
  const double rate = (FEE_BPS + SLIPPAGE_BPS) / 1e4;
  double w[BLOCK];
  double V = 1, E = 1, q = 0, L = close[0], held = 0, peak = 1, mdd = 0, sum = 0, sum2 = 0;
  long trades = 0;
  for (long lo = 0; lo < n; lo += BLOCK) {
    long hi = lo + BLOCK < n ? lo + BLOCK : n;
    labels(col, n, lo, hi, w);
    for (long i = lo; i < hi; i++) {
      double p = close[i];
      if (i > 0) {
        double r = fbar[i];
        if (q != 0 && r == r && r != 0) V -= q * L * r;
        if (q != 0) V += q * (p - L);
        L = p;
        double ret = V / E - 1;
        E = V;
        sum += ret;
        sum2 += ret * ret;
        if (E > peak) peak = E;
        else if (E / peak - 1 < mdd) mdd = E / peak - 1;
      }
      if (i < n - 1) {
        double wi = w[i - lo];
        double traded = fabs(wi - held) * E;
        if (traded != 0) {
          V -= rate * traded;
          if (wi != 0) trades++;
        }
        q = E * (wi / p);
        held = wi;
      }
    }
  }
  double mean = sum / (double)(n - 1);
  double sd = sqrt((sum2 - sum * mean) / (double)(n - 2));
  struct summary s = {E - 1, mdd, mean / sd * sqrt(525600.0), trades};
  return s;
}

enum { MAX_REPS = 64 };
static double times[MAX_REPS];

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median of the first min(reps, MAX_REPS) run times (sorts them in place). */
static double median_of(double *t, int reps) {
  int m = reps < MAX_REPS ? reps : MAX_REPS;
  qsort(t, (size_t)m, sizeof(double), cmp_double);
  return m % 2 ? t[m / 2] : (t[m / 2 - 1] + t[m / 2]) / 2;
}

static long max_rss_bytes(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss * 1024L;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s FILE N REPS\n", argv[0]);
    return 2;
  }
  long n = atol(argv[2]);
  int reps = atoi(argv[3]);
  const char *clk = getenv("BENCH_CLOCK");
  int wall = clk != NULL && strcmp(clk, "wall") == 0;
  double *col = read_bars(argv[1], n, COLUMNS);
  if (col == NULL) return 1;
  long rss0 = max_rss_bytes();
  if (argc > 4 && strcmp(argv[4], "summary") == 0) {
    double best_s = INFINITY;
    struct summary s = {0, 0, 0, 0};
    for (int k = 0; k < reps; k++) {
      double t0 = clock_s(wall);
      s = run_summary(col, n);
      double t = clock_s(wall) - t0;
      if (k < MAX_REPS) times[k] = t;
      if (t < best_s) best_s = t;
    }
    printf("{\"impl\":\"native-summary\",\"n\":%ld,\"seconds\":%.9g,\"medianSeconds\":%.9g,\"peakBytes\":%ld,\"totalReturn\":%.17g,\"maxDrawdown\":%.17g,\"sharpe\":%.17g,\"trades\":%ld}\n",
           n, best_s, median_of(times, reps), max_rss_bytes() > rss0 ? max_rss_bytes() - rss0 : 0, s.total_return, s.max_drawdown, s.sharpe, s.trades);
    free(col);
    return 0;
  }
  double best = INFINITY;
  double *equity = NULL;
  long peak = 0;
  for (int k = 0; k < reps; k++) {
    double t0 = clock_s(wall);
    free(equity);
    equity = malloc(sizeof(double) * (size_t)n); /* a fresh result per run, as the others allocate theirs */
    run(col, n, equity);
    double t = clock_s(wall) - t0;
    if (k < MAX_REPS) times[k] = t;
    if (t < best) best = t;
    if (k == 0) peak = max_rss_bytes();
  }
  double checksum = 0;
  for (long i = 0; i < n; i++) checksum += equity[i];
  const char *dump = getenv("BENCH_DUMP"); /* the equity column as float64 bytes, for a byte-for-byte comparison */
  if (dump != NULL) {
    FILE *f = fopen(dump, "wb");
    if (f == NULL || fwrite(equity, sizeof(double), (size_t)n, f) != (size_t)n) {
      fprintf(stderr, "cannot write %s\n", dump);
      return 1;
    }
    fclose(f);
  }
  printf("{\"impl\":\"native\",\"n\":%ld,\"seconds\":%.9g,\"medianSeconds\":%.9g,\"peakBytes\":%ld,\"final\":%.17g,\"checksum\":%.17g}\n", n, best, median_of(times, reps),
         peak > rss0 ? peak - rss0 : 0, equity[n - 1], checksum);
  free(equity);
  free(col);
  return 0;
}
