/*
 * Benchmark yardstick of test/bench/sweep.bench.ts: the sweep bench's exact work in C, compiled by
 * the bench with `cc -O3 -march=native -ffp-contract=off` (no fused multiply-adds, so its numbers
 * are the engine's to the last bit). NOT the library and not a reference for its numbers: a second
 * copy of the engine's default-mode arithmetic written on purpose (like backtest_native.c), to say
 * what native code does with THIS engine's work on this machine, to set the sweep's speed
 * targets against. The bench checks it agrees with sweepComposite (final equity, trades).
 *
 * The work (what sweepComposite does for the bench, src/backtest/kernel/spanLoop.ts's generated
 * variant pass): the five components scored once into columns (the plan); then per weight vector
 * one pass over the bars with its 4 thresholds' accounts (VARIANTS_PER_PASS): per bar the scores
 * read once, the composite summed once in the vector's key order (0 + w0 x0 + ...), each
 * account's label (>= thr and > 0: 1, <= -thr and < 0: -1, else 0) and target (carried over a
 * missing price), then the account's bar: an idle account (flat, no weight held, value unchanged,
 * target 0) only moves its reference price; else funding q x l x r on the units held, the mark
 * q x (c - l), ruin at V <= 0, the return E / E_prev - 1 and its sums, the peak and the maximum
 * drawdown (skipping the division above peak (1 + mdd) + peak 1e-9), the fill at the close
 * (not the last bar): q = E x (w / p), fee = rate x |w - w_prev| x E, turnover |w - w_prev| x E / E,
 * a trade counted when the side changes to non-zero; the weight q x l / E into the net and gross
 * exposure. Metrics from the accumulators as runMetrics does.
 *
 * The bench's data has no missing score; a NaN composite (the missing-score policy's row, which
 * this yardstick does not implement) stops the program with an error rather than differ silently.
 *
 * usage: sweep_native FILE N SPEC REPS [THREADS]
 *   FILE: the bench's bars (column-major float64: close, imbalance, funding, basis_spread,
 *   momentum_5m, gas, funding_bar); SPEC: a text file "k vectors thresholds initialCash costBps
 *   periodsPerYear", then per vector its count m and m pairs "component weight" (component 0..4 =
 *   the columns imbalance .. gas) in the vector's key order, then the 4 thresholds.
 * Prints one JSON line: best of REPS process CPU seconds (THREADS 1) or wall seconds (THREADS > 1,
 * with the CPU seconds of all threads beside), and per variant totalReturn, trades, sharpeRatio,
 * maxDrawdown, turnover, exposure.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_bars.h"

enum { COLUMNS = 7, K = 5, A = 4 };

static long n;
static const double *bars;
static double *scores; /* K columns of n */
static int nvec, nthr;
static int order[64][K], len[64];
static double weight[64][K], thr[A];
static double initialCash, baseRate, ppy;
static double *res; /* per variant: 6 metrics */

static double clock_s(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The default scorers (src/signals/scorers.ts), of the columns imbalance .. gas. */
static void score_range(long lo, long hi) {
  const double *imb = bars + n, *fund = bars + 2 * n, *basis = bars + 3 * n, *mom = bars + 4 * n, *gas = bars + 5 * n;
  double *s0 = scores, *s1 = scores + n, *s2 = scores + 2 * n, *s3 = scores + 3 * n, *s4 = scores + 4 * n;
  for (long i = lo; i < hi; i++) {
    double x = imb[i] < 0 ? 0 : imb[i] > 1 ? 1 : imb[i];
    s0[i] = 2 * (x - 0.5);
    x = -fund[i] * 1e4;
    s1[i] = x < -1 ? -1 : x > 1 ? 1 : x;
    x = -basis[i] / 50;
    s2[i] = x < -1 ? -1 : x > 1 ? 1 : x;
    x = mom[i] / 2;
    s3[i] = x < -1 ? -1 : x > 1 ? 1 : x;
    x = 0.3 - (gas[i] - 1.1) / 10;
    s4[i] = x < -1 ? -1 : x > 0.3 ? 0.3 : x;
  }
}

/* One pass: weight vector g, its A = 4 threshold accounts (variants g x 4 .. g x 4 + 3). */
static void pass(int g) {
  const double *close = bars, *fbar = bars + 6 * n;
  const double *x[K];
  double w[K];
  int m = len[g];
  for (int t = 0; t < m; t++) {
    x[t] = scores + (long)order[g][t] * n;
    w[t] = weight[g][t];
  }
  double q[A], l[A], h[A], V[A], E[A], peak[A], mdd[A], ddFloor[A], sr[A], sr2[A], turn[A], netx[A], grossx[A], target[A];
  long trades[A];
  int ruined[A];
  for (int s = 0; s < A; s++) {
    q[s] = 0, l[s] = NAN, h[s] = 0, V[s] = E[s] = peak[s] = initialCash, mdd[s] = 0, sr[s] = sr2[s] = turn[s] = netx[s] = grossx[s] = 0;
    ddFloor[s] = peak[s] * (1 + mdd[s]) + peak[s] * 1e-9, target[s] = 0, trades[s] = 0, ruined[s] = 0;
  }
  for (long i = 0; i < n; i++) {
    const double c = close[i], r = fbar[i];
    double cmp = 0;
    for (int t = 0; t < m; t++) cmp = cmp + w[t] * x[t][i];
    if (cmp != cmp) {
      fprintf(stderr, "sweep_native: a missing score at bar %ld (not implemented here)\n", i);
      exit(3);
    }
    for (int s = 0; s < A; s++) {
      const double side = cmp >= thr[s] && cmp > 0 ? 1 : cmp <= -thr[s] && cmp < 0 ? -1 : 0;
      target[s] = c != c ? (i > 0 ? target[s] : 0) : side;
      const double tw = target[s];
      if (q[s] == 0 && h[s] == 0 && tw == 0 && V[s] - E[s] == 0) {
        if (c == c) l[s] = c;
        continue;
      }
      if (i > 0) {
        if (q[s] != 0 && r == r && r != 0) V[s] -= q[s] * l[s] * r;
        if (c == c) {
          if (q[s] != 0) V[s] += q[s] * (c - l[s]);
          l[s] = c;
        }
        if (V[s] <= 0 && !ruined[s]) { /* ruin: everything closed at the reference price, the loss capped */
          ruined[s] = 1, q[s] = 0, h[s] = 0;
          if (V[s] < 0) V[s] = 0;
        }
        const double prev = E[s];
        E[s] = V[s];
        if (E[s] != prev) {
          const double ret = E[s] / prev - 1;
          sr[s] += ret;
          sr2[s] += ret * ret;
          if (E[s] > peak[s]) {
            peak[s] = E[s];
            ddFloor[s] = peak[s] * (1 + mdd[s]) + peak[s] * 1e-9;
          } else if (!(E[s] >= ddFloor[s])) {
            const double dd = E[s] / peak[s] - 1;
            if (dd < mdd[s]) {
              mdd[s] = dd;
              ddFloor[s] = peak[s] * (1 + mdd[s]) + peak[s] * 1e-9;
            }
          }
        }
      } else if (c == c) {
        l[s] = c;
      }
      if (i < n - 1 && !ruined[s] && c == c) {
        const double old = q[s], fE = E[s];
        const double nu = fE * (tw / c);
        const double traded = fabs(tw - h[s]) * fE;
        double fee = 0;
        if (traded != 0) {
          fee = baseRate * traded + 0;
          turn[s] += fE > 0 ? traded / fE : 0;
        }
        h[s] = tw, l[s] = c, q[s] = nu;
        if ((old > 0 ? !(nu > 0) : old < 0 ? !(nu < 0) : nu > 0 || nu < 0) && nu != 0) trades[s]++;
        V[s] -= fee;
      }
      const double wk = q[s] == 0 || E[s] == 0 ? 0 : (q[s] * l[s]) / E[s];
      netx[s] += wk;
      grossx[s] += fabs(wk);
    }
  }
  for (int s = 0; s < A && s < nthr; s++) {
    double *o = res + 6 * ((long)g * nthr + s);
    const double cnt = (double)(n - 1), mean = sr[s] / cnt, var = fmax(0, (sr2[s] - sr[s] * mean) / (cnt - 1));
    o[0] = E[s] / initialCash - 1;
    o[1] = n - 1 >= 2 ? mean / sqrt(var) * sqrt(ppy) : NAN;
    o[2] = mdd[s];
    o[3] = (double)trades[s];
    o[4] = turn[s];
    o[5] = grossx[s] / (double)n;
  }
}

struct share {
  int lo, hi; /* weight vectors */
  long blo, bhi; /* bars to score */
};

static void *worker(void *arg) {
  const struct share *sh = arg;
  score_range(sh->blo, sh->bhi);
  return NULL;
}

static void *passes(void *arg) {
  const struct share *sh = arg;
  for (int g = sh->lo; g < sh->hi; g++) pass(g);
  return NULL;
}

/* The whole sweep on `threads` threads: score (bars split), then the passes (vectors split). */
static void sweep(int threads) {
  if (threads <= 1) {
    score_range(0, n);
    for (int g = 0; g < nvec; g++) pass(g);
    return;
  }
  pthread_t tid[16];
  struct share sh[16];
  for (int t = 0; t < threads; t++) {
    sh[t].blo = n * t / threads, sh[t].bhi = n * (t + 1) / threads;
    pthread_create(&tid[t], NULL, worker, &sh[t]);
  }
  for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
  for (int t = 0; t < threads; t++) {
    sh[t].lo = nvec * t / threads, sh[t].hi = nvec * (t + 1) / threads;
    pthread_create(&tid[t], NULL, passes, &sh[t]);
  }
  for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s FILE N SPEC REPS [THREADS]\n", argv[0]);
    return 2;
  }
  n = atol(argv[2]);
  int reps = atoi(argv[4]), threads = argc > 5 ? atoi(argv[5]) : 1, k;
  if (threads < 1 || threads > 16) threads = 1;
  double *col = read_bars(argv[1], n, COLUMNS);
  if (col == NULL) return 1;
  bars = col;
  FILE *sp = fopen(argv[3], "r");
  double costBps;
  if (sp == NULL || fscanf(sp, "%d %d %d %lf %lf %lf", &k, &nvec, &nthr, &initialCash, &costBps, &ppy) != 6 || k > K || nvec > 64 || nthr != A) {
    fprintf(stderr, "bad spec %s (at most %d components, 64 vectors, exactly %d thresholds)\n", argv[3], K, A);
    return 1;
  }
  for (int g = 0; g < nvec; g++) {
    if (fscanf(sp, "%d", &len[g]) != 1 || len[g] < 1 || len[g] > k) return 1;
    for (int t = 0; t < len[g]; t++)
      if (fscanf(sp, "%d %lf", &order[g][t], &weight[g][t]) != 2 || order[g][t] < 0 || order[g][t] >= K) return 1;
  }
  for (int s = 0; s < nthr; s++)
    if (fscanf(sp, "%lf", &thr[s]) != 1) return 1;
  fclose(sp);
  baseRate = costBps / 1e4;
  scores = malloc(sizeof(double) * K * (size_t)n);
  res = malloc(sizeof(double) * 6 * (size_t)nvec * (size_t)nthr);
  double best = INFINITY, bestCpu = INFINITY;
  for (int r = 0; r < reps; r++) {
    const double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    sweep(threads);
    const double wall = clock_s(CLOCK_MONOTONIC) - t0, cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (wall < best) best = wall;
    if (cpu < bestCpu) bestCpu = cpu;
  }
  printf("{\"impl\":\"native\",\"threads\":%d,\"seconds\":%.9g,\"cpuSeconds\":%.9g", threads, threads > 1 ? best : bestCpu, bestCpu);
  static const char *names[6] = {"totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"};
  for (int mi = 0; mi < 6; mi++) {
    printf(",\"%s\":[", names[mi]);
    for (long v = 0; v < (long)nvec * nthr; v++) printf("%s%.17g", v ? "," : "", res[6 * v + mi]);
    printf("]");
  }
  printf("}\n");
  free(res);
  free(scores);
  free(col);
  return 0;
}
