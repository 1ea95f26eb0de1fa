/**
 * Options that refuse mistakes (STYLE.md rule 16, issue 30): every public options object is
 * checked where it enters by one strict schema (src/options/checkOptions.ts). The table below
 * is the "Done when": misspelled keys refused with the nearest valid name (edit distance),
 * numbers in the wrong scale (a percent for a fraction, a fraction for bps, seconds for ms)
 * refused with the value probably meant, across backtest, sweepStrategy, sweepComposite, the
 * loaders and tearsheet. Then: null means unset, and `backtest({ ...data, position|signal,
 * ...sweep.best().params })` works for every sweep kind and reproduces the sweep's row.
 */
import { describe, expect, it } from "vitest";
import {
  backtest,
  createClient,
  InvalidArgumentError,
  loadAnalyticsQuery,
  loadHistory,
  loadRecording,
  replayComposite,
  simplexGrid,
  sweepComposite,
  sweepStrategy,
  tearsheet,
} from "../../src/index.js";
import { scaleMistake } from "../../src/options/checkOptions.js";
import { generateBars } from "../bench/backtestData.js";

const N = 400;
const bars = generateBars(N, 11);
const time = Float64Array.from({ length: N }, (_, i) => 1_700_000_000_000 + i * 3_600_000);
const open = Float64Array.from(bars.close, (_, i) => (i === 0 ? (bars.close[0] as number) : (bars.close[i - 1] as number)));
const high = Float64Array.from(bars.close, (c, i) => Math.max(c, open[i] as number) * 1.002);
const low = Float64Array.from(bars.close, (c, i) => Math.min(c, open[i] as number) * 0.998);
const prices = { time, close: bars.close, open, high, low };
const data = { ...prices, imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas };
const position = Float64Array.from({ length: N }, (_, i) => (Math.floor(i / 25) % 2 === 0 ? 1 : -1));

/** A self-contained moving-average rule: long above the `fast`-bar mean, short below. */
const aboveMean = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  const close = c["close"] as Float64Array;
  const fast = p["fast"] as number;
  const out = new Float64Array(close.length);
  let s = 0;
  for (let i = 0; i < close.length; i++) {
    s += close[i] as number;
    if (i >= fast) s -= close[i - fast] as number;
    out[i] = i + 1 < fast ? 0 : (close[i] as number) > s / fast ? 1 : -1;
  }
  return out;
};

const client = createClient({ baseUrl: "http://127.0.0.1:9", retries: 0 });
const weights = [{ imbalance: 0.5, momentum_5m: 0.5 }];
const composite = { kind: "composite" as const, weights: { imbalance: 0.6, momentum_5m: 0.4 } };

/** [what is called, the call, the message it must throw (the suggestion)]. */
const MISTAKES: readonly [string, () => unknown, string][] = [
  ["backtest stoploss", () => backtest({ ...prices, position, stoploss: 0.03 } as never), "backtest: unknown option stoploss; did you mean stopLoss?"],
  ["backtest stopLoss as a percent", () => backtest({ ...prices, position, stopLoss: 3 }), "did you mean stopLoss: 0.03 (3%)?"],
  ["backtest takeProfit as a percent", () => backtest({ ...prices, position, takeProfit: 10 }), "did you mean takeProfit: 0.1 (10%)?"],
  ["backtest fees", () => backtest({ ...prices, position, fees: 5 } as never), "unknown option fees; did you mean feeBps?"],
  ["backtest feeBps as a fraction", () => backtest({ ...prices, position, feeBps: 0.0005 }), "did you mean feeBps: 5?"],
  ["backtest slippage", () => backtest({ ...prices, position, slippage: 2 } as never), "unknown option slippage; did you mean slippageBps?"],
  ["backtest maxLeverge", () => backtest({ ...prices, position, maxLeverge: 2 } as never), "unknown option maxLeverge; did you mean maxLeverage?"],
  ["backtest initialcash", () => backtest({ ...prices, position, initialcash: 1000 } as never), "unknown option initialcash; did you mean initialCash?"],
  ["backtest maintenanceMargin as a percent", () => backtest({ ...prices, position, maintenanceMargin: 5 }), "did you mean maintenanceMargin: 0.05 (5%)?"],
  ["backtest liquidationFeeBps as a fraction", () => backtest({ ...prices, position, maintenanceMargin: 0.05, liquidationFeeBps: 0.001 }), "did you mean liquidationFeeBps: 10?"],
  ["backtest delaybar", () => backtest({ ...prices, position, delaybar: 1 } as never), "unknown option delaybar; did you mean delayBars?"],
  ["sweepStrategy feebps", () => sweepStrategy(aboveMean, { data, grid: { fast: [5] }, feebps: 5 } as never), "sweepStrategy: unknown option feebps; did you mean feeBps?"],
  ["sweepStrategy stopLoss as a percent", () => sweepStrategy(aboveMean, { data, grid: { fast: [5] }, stopLoss: 2 }), "did you mean stopLoss: 0.02 (2%)?"],
  ["sweepStrategy grid stopLoss as a percent", () => sweepStrategy(aboveMean, { data, grid: { fast: [5], stopLoss: [null, 5] } }), "did you mean stopLoss: 0.05 (5%)? (grid parameter stopLoss)"],
  ["sweepStrategy worker", () => sweepStrategy(aboveMean, { data, grid: { fast: [5] }, worker: 0 } as never), "unknown option worker; did you mean workers?"],
  ["sweepStrategy composite grid threshhold", () => sweepStrategy(composite, { data, grid: { threshhold: [0.1] } }), "did you mean threshold?"],
  ["sweepComposite threshold", () => sweepComposite(data, { weights, threshold: [0.1] } as never), "sweepComposite: unknown option threshold; did you mean thresholds?"],
  ["sweepComposite thresholds as percents", () => sweepComposite(data, { weights, thresholds: [0.1, 5] }), "did you mean thresholds[1]: 0.05 (5%)?"],
  ["sweepComposite slipageBps", () => sweepComposite(data, { weights, slipageBps: 1 } as never), "unknown option slipageBps; did you mean slippageBps?"],
  ["sweepComposite feeBps as a fraction", () => sweepComposite(data, { weights, feeBps: 0.0001 }), "did you mean feeBps: 1?"],
  ["loadHistory metricID", () => loadHistory(client, { metricID: "btc_price" } as never), "loadHistory: unknown option metricID; did you mean metricId?"],
  ["loadHistory hour", () => loadHistory(client, { metricId: "btc_price", hour: 24 } as never), "unknown option hour; did you mean hours?"],
  ["loadHistory maxStalenessMs in seconds", () => loadHistory(client, { metricId: "btc_price", fill: "last", maxStalenessMs: 60 }), "did you mean maxStalenessMs: 60000 (60 s)?"],
  ["loadAnalyticsQuery shap", () => loadAnalyticsQuery(client, { dataset: "candles" }, { shap: "long" } as never), "loadAnalyticsQuery: unknown option shap; did you mean shape?"],
  ["loadRecording endpoint", () => loadRecording("/nonexistent", { endpoint: ["composite"] } as never), "loadRecording: unknown option endpoint; did you mean endpoints?"],
  ["tearsheet benchmarkname", () => tearsheet(bars.close, { time, benchmarkname: "BTC" } as never), "tearsheet: unknown option benchmarkname; did you mean benchmarkName?"],
  ["tearsheet titel", () => tearsheet(bars.close, { time, titel: "x" } as never), "unknown option titel; did you mean title?"],
];

describe("options that refuse mistakes", () => {
  it.each(MISTAKES)("%s is refused with the right suggestion", async (_name, call, message) => {
    let thrown: unknown;
    try {
      await call();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect((thrown as Error).message).toContain(message);
  });

  it("covers at least 20 mistakes across backtest, both sweeps, the loaders and tearsheet", () => {
    expect(MISTAKES.length).toBeGreaterThanOrEqual(20);
    for (const fn of ["backtest", "sweepStrategy", "sweepComposite", "loadHistory", "loadAnalyticsQuery", "loadRecording", "tearsheet"]) {
      expect(MISTAKES.some(([name]) => name.startsWith(fn))).toBe(true);
    }
  });

  it("names every unknown key, and lists the options when none is near", () => {
    expect(() => backtest({ ...prices, position, stoploss: 0.03, fees: 5 } as never)).toThrow(
      "backtest: unknown option stoploss; did you mean stopLoss?; unknown option fees; did you mean feeBps?",
    );
    expect(() => backtest({ ...prices, position, banana: 1 } as never)).toThrow(/unknown option banana; the options are data, time, close, .*stopLoss/);
  });

  it("accepts values at the edge of each scale (a fraction up to its max, a 0.5 bp fee, a 1 s staleness)", () => {
    expect(() => backtest({ ...prices, position, stopLoss: 0.99, takeProfit: 1, feeBps: 0.5 })).not.toThrow();
    expect(() => backtest({ ...prices, position, feeBps: 0.01 })).not.toThrow();
    expect(scaleMistake("maxStalenessMs", 1000, { unit: "ms", default: "Infinity", scale: "ms" })).toBeUndefined();
    expect(scaleMistake("maxStalenessMs", 999, { unit: "ms", default: "Infinity", scale: "ms" })).toContain("did you mean maxStalenessMs: 999000");
    // a value's type and range stay the resolving function's: checked once, there
    expect(() => backtest({ ...prices, position, stopLoss: -3 })).toThrow("stopLoss must be a fraction of the entry price > 0");
  });

  it("reads null and undefined as unset: the same run as without the key", () => {
    const plain = backtest({ ...prices, position, feeBps: 5 });
    const unset = backtest({ ...prices, position, feeBps: 5, stopLoss: null, takeProfit: undefined, maintenanceMargin: null } as never);
    expect(Array.from(unset.equity)).toEqual(Array.from(plain.equity));
  });

  it("does not modify the options it checks", () => {
    const options = { ...prices, position, stopLoss: null, feeBps: 2 };
    const keys = Object.keys(options);
    backtest(options as never);
    expect(Object.keys(options)).toEqual(keys);
    expect(options.stopLoss).toBeNull();
  });
});

describe("backtest({ ...data, ...sweep.best().params }) for every sweep kind", () => {
  it("sweepStrategy with a function: its own parameters set nothing, null unsets, the row is reproduced", async () => {
    const sweep = await sweepStrategy(aboveMean, { data: prices, grid: { fast: [5, 20], stopLoss: [null, 0.004] }, feeBps: 3, workers: 0 });
    for (let i = 0; i < sweep.length; i++) {
      const params = sweep.paramsOf(i);
      const bt = backtest({ ...prices, feeBps: 3, position: aboveMean(prices, params), ...params });
      expect(bt.equity[N - 1] as number / 10_000 - 1).toBe(sweep.columns["totalReturn"]?.[i]);
    }
    const best = sweep.best();
    expect(best?.params["stopLoss"] === null || typeof best?.params["stopLoss"] === "number").toBe(true);
    // a mistyped option of the caller's own is still refused beside the spread
    expect(() => backtest({ ...prices, position, ...best?.params, stoploss: 0.02 } as never)).toThrow("did you mean stopLoss?");
    // the strategy's own names are not exempt without the spread's mark
    expect(() => backtest({ ...prices, position, fast: 5 } as never)).toThrow("unknown option fast");
  });

  it("sweepStrategy with a composite: threshold, regime and w_<component> set nothing, the row is reproduced", async () => {
    const hot = Array.from(bars.momentum_5m, (m) => Math.abs(m) > 0.15);
    const strategy = { ...composite, regimes: { calm: hot } };
    const sweep = await sweepStrategy(strategy, { data, grid: { regime: ["none", "calm"], threshold: [0.05, 0.15], w_momentum_5m: [0.4, 0.8], stopLoss: [null, 0.004] }, workers: 0 });
    for (let i = 0; i < sweep.length; i++) {
      const p = sweep.paramsOf(i);
      const signal = replayComposite(data, { weights: { imbalance: 0.6, momentum_5m: p["w_momentum_5m"] as number }, allowAnySum: true, threshold: p["threshold"] as number }).label;
      const bt = backtest({ ...prices, signal, ...(p["regime"] === "calm" ? { flatWhen: hot } : {}), ...p });
      expect(bt.equity[N - 1] as number / 10_000 - 1).toBe(sweep.columns["totalReturn"]?.[i]);
    }
  });

  it("sweepComposite: w_<component> and threshold set nothing, the best row is reproduced", async () => {
    const sweep = await sweepComposite(data, { weights: simplexGrid(["imbalance", "momentum_5m"], 0.5), thresholds: [0.05, 0.2], feeBps: 2, workers: 0 });
    const best = sweep.best("totalReturn");
    expect(best).toBeDefined();
    const b = best as NonNullable<typeof best>;
    const signal = replayComposite(data, { weights: b.weights, threshold: b.threshold }).label;
    const bt = backtest({ ...prices, signal, feeBps: 2, ...b.params });
    expect(bt.equity[N - 1] as number / 10_000 - 1).toBeCloseTo(b.value, 12);
  });
});
