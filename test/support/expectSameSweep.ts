import { expect } from "vitest";
import type { SweepResult } from "../../src/index.js";

/** Two sweep tables are the same bit for bit: the same columns, in order, and every value Object.is-equal (NaN and -0 included). */
export function expectSameSweep(a: SweepResult, b: SweepResult): void {
  expect(Object.keys(b.columns)).toEqual(Object.keys(a.columns));
  for (const [name, col] of Object.entries(a.columns)) {
    const other = b.columns[name] as Float64Array;
    expect(other.length, name).toBe(col.length);
    for (let i = 0; i < col.length; i++) expect(Object.is(other[i], col[i]), `${name}[${i}]`).toBe(true);
  }
}
