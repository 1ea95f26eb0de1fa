/**
 * Options are checked once, where they enter, into a plan the inner functions trust (issue 30,
 * item 3, second half): a sweep's variants do not check the shared options again (the reads of
 * an option do not grow with the number of variants), what a variant brings (its targets) is
 * still checked, and the entry refuses what the removed inner checks used to catch (options
 * absent or not an object) with the function's name and a correct call.
 */
import { describe, expect, it } from "vitest";
import { backtest } from "../../src/backtest/index.js";
import { InvalidArgumentError, StrategyFailedError } from "../../src/errors/index.js";
import { simplexGrid, sweepComposite, sweepStrategy } from "../../src/research/index.js";

const n = 200;
const close = Float64Array.from({ length: n }, (_, i) => 100 + 10 * Math.sin(i / 7) + i * 0.05);
const time = Float64Array.from({ length: n }, (_, i) => Date.UTC(2026, 0, 1) + i * 3_600_000);
const confidence = Float64Array.from({ length: n }, (_, i) => 0.5 + 0.4 * Math.cos(i / 5));
const momentum = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  const x = c["close"]!;
  const k = p["lookback"] as number;
  return Float64Array.from(x, (v, i) => (i >= k && v > x[i - k]! ? 1 : 0));
};

/** A sizing option whose `by` counts its reads. */
function countedSizing(): { sizing: { by: "confidence"; confidence: Float64Array }; reads: () => number } {
  let reads = 0;
  const sizing = {
    get by(): "confidence" {
      reads++;
      return "confidence";
    },
    confidence,
  };
  return { sizing: sizing as { by: "confidence"; confidence: Float64Array }, reads: () => reads };
}

describe("a sweep checks its shared options once, not per variant", () => {
  it("sizing is read as often for 12 variants as for 2 (it was read by every variant's target rule)", async () => {
    const reads: number[] = [];
    for (const lookbacks of [[2, 3], [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]]) {
      const c = countedSizing();
      const r = await sweepStrategy(momentum, { data: { time, close }, grid: { lookback: lookbacks }, sizing: c.sizing, workers: 0 });
      expect(r.length).toBe(lookbacks.length);
      reads.push(c.reads());
    }
    expect(reads[0]).toBeGreaterThan(0);
    expect(reads[1]).toBe(reads[0]);
  });

  it("each variant gives the numbers of its own backtest (the trusted plan runs the same rule)", async () => {
    const r = await sweepStrategy(momentum, { data: { time, close }, grid: { lookback: [2, 5, 9] }, sizing: { by: "confidence", confidence }, maxLeverage: 0.7, neutral: "hold", workers: 0 });
    for (let v = 0; v < 3; v++) {
      const lookback = [2, 5, 9][v]!;
      const bt = backtest({ time, close, position: momentum({ close }, { lookback }), sizing: { by: "confidence", confidence }, maxLeverage: 0.7, neutral: "hold", outputs: ["metrics"] });
      expect(r.columns["totalReturn"]![v]).toBe(bt.metrics.totalReturn);
      expect(r.columns["trades"]![v]).toBe(bt.metrics.trades);
    }
  });

  it("what a variant brings is still checked: a position of the wrong length is refused, naming the variant", async () => {
    const short = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>) => (p["lookback"] === 5 ? new Float64Array(n - 1) : momentum(c, p));
    const err = await sweepStrategy(short, { data: { time, close }, grid: { lookback: [2, 3, 5] }, workers: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/position must have one value per bar \(200\), got 199/);
    expect(err instanceof InvalidArgumentError || err instanceof StrategyFailedError).toBe(true);
  });
});

describe("the entry refuses what inner checks used to", () => {
  it.each([
    ["backtest", () => backtest(undefined as never), "backtest: options are required, e.g. backtest({ close, position })"],
    ["backtest", () => backtest(5 as never), "backtest: options must be an object, e.g. backtest({ close, position })"],
    ["sweepStrategy", () => sweepStrategy(momentum, undefined as never), "sweepStrategy: options are required, e.g. sweepStrategy(fn, { data, grid: { fast: [5, 10] } })"],
    ["sweepStrategy", () => sweepStrategy(momentum, null as never), "sweepStrategy: options must be an object"],
    ["sweepComposite", () => sweepComposite({ close }, undefined as never), "sweepComposite: options are required, e.g. sweepComposite(columns, { weights: simplexGrid(COMPONENT_NAMES, 0.1) })"],
  ])("%s", async (_name, call, message) => {
    const err = await (async () => call())().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as Error).message).toContain(message);
  });

  it("valid calls still run", async () => {
    expect(backtest({ close, position: new Float64Array(n).fill(1) }).equity.length).toBe(n);
    const s = await sweepComposite({ close, imbalance: confidence, funding: confidence }, { weights: simplexGrid(["imbalance", "funding"], 0.5), workers: 0, periodsPerYear: 8760 });
    expect(s.length).toBe(3);
  });
});
