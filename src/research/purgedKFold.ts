import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkNumberOption } from "./checkNumberOption.js";
import type { BarRange } from "./walkForward.js";

/** Options of {@link purgedKFold}. */
export interface PurgedKFoldOptions {
  /** Number of folds, 2..n. */
  readonly k: number;
  /**
   * Bars each observation's label looks ahead: the label of bar i uses bars
   * i..i + purge (e.g. a forward return over `purge` bars). Default 0.
   */
  readonly purge?: number;
  /** Bars after the test fold's last label kept out of training (serial correlation); default 0. */
  readonly embargo?: number;
  /**
   * Per bar, the last bar (inclusive index) its label uses, for labels of
   * varying length (e.g. triple-barrier exits); each ≥ its own index. Combined
   * with `purge`: a label ends at max(labelEnd[i], i + purge).
   */
  readonly labelEnd?: ArrayLike<number>;
}

/** One purged K-fold split: `test` is contiguous, `train` the bar indices left after purging and embargo (ascending). */
export interface PurgedFold {
  readonly index: number;
  readonly train: Int32Array;
  readonly test: BarRange;
}

/**
 * K-fold cross-validation without leakage through overlapping labels
 * (López de Prado, Advances in Financial Machine Learning, 2018, ch. 7):
 * the n bars are cut into k contiguous test folds (the first n mod k folds
 * one bar longer, as numpy.array_split), and for each test fold [a, b):
 * - purging: a training bar j is dropped when its label interval
 *   [j, e_j] overlaps the test labels' span [a, L], L = max over the test bars
 *   of e_i, with e_i = max(i + purge, labelEnd[i]);
 * - embargo: training bars in (L, L + embargo] are dropped too (the bars
 *   right after the test labels, whose features are correlated with them).
 * Without `labelEnd` the training bars are [0, a − purge) and
 * [b + purge + embargo, n). Unlike the book's snippet 7.3 (which restarts
 * training at the test's last label bar itself), training restarts strictly
 * after it. Indices are bars 0..n − 1.
 * @throws InvalidArgumentError on n not an integer ≥ 2, k outside 2..n, negative or non-integer purge/embargo, or a bad labelEnd
 * @example purgedKFold(10, { k: 2, purge: 1 }) // [{ index: 0, train: [6, 7, 8, 9], test: [0, 5] }, { index: 1, train: [0, 1, 2, 3], test: [5, 10] }]
 */
export function purgedKFold(n: number, options: PurgedKFoldOptions): PurgedFold[] {
  const where = "purgedKFold";
  checkNumberOption(n, "n", where, { min: 2, integer: true, hint: "the number of bars" });
  if (options === null || typeof options !== "object") {
    throw new InvalidArgumentError("options", `${where}: needs { k, purge?, embargo?, labelEnd? }, got ${String(options)}`);
  }
  const k = checkNumberOption(options.k, "k", where, { min: 2, max: n, integer: true, hint: "the number of folds, e.g. 5" });
  const purge = checkNumberOption(options.purge ?? 0, "purge", where, { min: 0, integer: true, hint: "bars a label looks ahead" });
  const embargo = checkNumberOption(options.embargo ?? 0, "embargo", where, { min: 0, integer: true, hint: "bars kept out after a test fold" });
  const end = new Float64Array(n);
  const labelEnd = options.labelEnd;
  if (labelEnd !== undefined && (labelEnd === null || typeof labelEnd !== "object" || labelEnd.length !== n)) {
    throw new InvalidArgumentError(
      "labelEnd",
      `${where}: labelEnd must give one last-label bar per bar (${n}), got ${labelEnd === null || typeof labelEnd !== "object" ? String(labelEnd) : labelEnd.length}`,
    );
  }
  for (let i = 0; i < n; i++) {
    const e = labelEnd === undefined ? i : (labelEnd[i] as number);
    if (!Number.isInteger(e) || e < i) {
      throw new InvalidArgumentError("labelEnd", `${where}: labelEnd[${i}] must be an integer bar index ≥ ${i}, got ${String(e)}`);
    }
    end[i] = Math.max(e, i + purge);
  }
  const folds: PurgedFold[] = [];
  const base = Math.floor(n / k);
  const extra = n % k;
  let a = 0;
  for (let f = 0; f < k; f++) {
    const b = a + base + (f < extra ? 1 : 0);
    let last = a;
    for (let i = a; i < b; i++) if ((end[i] as number) > last) last = end[i] as number;
    const resume = last + embargo + 1;
    const train: number[] = [];
    for (let j = 0; j < a; j++) if ((end[j] as number) < a) train.push(j);
    for (let j = Math.max(b, resume); j < n; j++) train.push(j);
    folds.push({ index: f, train: Int32Array.from(train), test: [a, b] });
    a = b;
  }
  return folds;
}
