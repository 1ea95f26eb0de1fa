/**
 * Every one-line `@example EXPR // RESULT` in src/signals runs and gives RESULT:
 * the doc comments are checked, not just written. RESULT forms: a JS literal,
 * `≈ x` (equal to x's printed digits), `Int8Array [...]` / `Float64Array [...]`,
 * or `... = x` (the value after the last "="); a trailing "(...)" is a remark.
 * Examples that need outside data (a client, a recording) are listed and skipped.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as signals from "../../src/signals/index.js";

const DIR = join(import.meta.dirname, "../../src/signals");
const NEEDS_DATA = /\b(recording|oneMinuteCloses|client|rec)\b/;

interface Example {
  readonly file: string;
  readonly expr: string;
  readonly result: string;
}

function examples(): Example[] {
  const out: Example[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".ts"))) {
    for (const line of readFileSync(join(DIR, file), "utf8").split("\n")) {
      const m = /^\s*\*\s*@example\s+(.+?)\s+\/\/\s+(.+)$/.exec(line);
      if (m !== null) out.push({ file, expr: m[1]!, result: m[2]! });
    }
  }
  return out;
}

/** The public exports, plus each file's own (internal) exports for its own examples. */
const modules: Record<string, Record<string, unknown>> = {};
for (const file of readdirSync(DIR).filter((f) => f.endsWith(".ts"))) {
  modules[file] = { ...signals, ...((await import(join(DIR, file))) as Record<string, unknown>) };
}
const evaluateIn = (scope: Record<string, unknown>, src: string): unknown => new Function(...Object.keys(scope), `return (${src});`)(...Object.values(scope));
const evaluate = (src: string): unknown => evaluateIn(signals, src);

function digits(x: string): number {
  const d = /\.(\d+)/.exec(x);
  return d === null ? 0 : d[1]!.length;
}

function check(actual: unknown, result: string): void {
  let r = result.replace(/\s*\([^()]*\)\s*$/, "").trim();
  const approx = /^≈\s*(-?[\d.]+)/.exec(r);
  if (approx !== null) {
    expect(Math.abs((actual as number) - Number(approx[1]))).toBeLessThanOrEqual(0.5 * 10 ** -digits(approx[1]!) + 1e-12);
    return;
  }
  const typed = /^(Int8Array|Float64Array)\s*(\[.*\])$/.exec(r);
  if (typed !== null) {
    expect((actual as object).constructor.name).toBe(typed[1]);
    const want = evaluate(typed[2]!) as number[];
    expect(Array.from(actual as ArrayLike<number>)).toEqual(want);
    return;
  }
  if (r.includes("=") && !r.startsWith("{")) r = r.slice(r.lastIndexOf("=") + 1).trim();
  if (/^-?[\d.]+$/.test(r)) {
    expect(Math.abs((actual as number) - Number(r))).toBeLessThanOrEqual(0.5 * 10 ** -digits(r) + 1e-12);
    return;
  }
  const want = evaluate(r);
  if (typeof want === "object" && want !== null && !Array.isArray(want)) {
    for (const [k, v] of Object.entries(want)) {
      const a = (actual as Record<string, unknown>)[k];
      if (typeof v === "number") expect(a as number).toBeCloseTo(v, 12);
      else expect(a).toEqual(v);
    }
    return;
  }
  expect(actual).toEqual(want);
}

describe("doc examples of src/signals", () => {
  const all = examples();
  const runnable = all.filter((e) => !NEEDS_DATA.test(e.expr) && !/^(returns|one per|annualised)/.test(e.result));

  it("finds the examples (a guard against a broken parser)", () => {
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(runnable.length).toBeGreaterThanOrEqual(22);
  });

  for (const e of runnable) {
    it(`${e.file}: ${e.expr} // ${e.result}`, () => {
      check(evaluateIn(modules[e.file] ?? signals, e.expr), e.result);
    });
  }
});
