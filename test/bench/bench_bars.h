/*
 * The bench's bars file for the native yardsticks (backtest_native.c, sweep_native.c): n bars of
 * COLUMNS float64 columns, column-major, as test/bench/backtestData.ts writeBars writes them.
 */
#ifndef BENCH_BARS_H
#define BENCH_BARS_H
#include <stdio.h>
#include <stdlib.h>

/* The n bars of `columns` columns in `path`, in a new buffer; NULL (with a message) if unreadable. */
static double *read_bars(const char *path, long n, int columns) {
  double *col = malloc(sizeof(double) * (size_t)columns * (size_t)n);
  FILE *f = fopen(path, "rb");
  if (col == NULL || f == NULL || fread(col, sizeof(double), (size_t)columns * (size_t)n, f) != (size_t)columns * (size_t)n) {
    fprintf(stderr, "cannot read %ld bars from %s\n", n, path);
    if (f != NULL) fclose(f);
    free(col);
    return NULL;
  }
  fclose(f);
  return col;
}
#endif
