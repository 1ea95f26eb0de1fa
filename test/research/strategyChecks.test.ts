/**
 * The checks of a user's strategy function (issue 28): checkLookahead on prefixes (a strategy that peeks one bar
 * ahead is caught, with its first bar computed here by hand from the data; its one-bar-delayed twin is not), warm-up
 * dependence, the refusal of a stateful or random strategy by name (StrategyNotPureError), and the evidence guard
 * (a one-trade winner is "too little evidence", never "edge").
 */
import { describe, expect, it } from "vitest";
import { assessSweep, checkLookahead, InvalidArgumentError, isItRealInput, isItRealVerdict, StrategyNotPureError, sweepStrategy, sweepVerdict } from "../../src/index.js";
import { createRng } from "../../src/random/prng.js";
import { generate, matrixSweep } from "./verdictFamilies.js";

const N = 400;
const DAY = 86_400_000;
const rng = createRng(11);
const close = new Float64Array(N);
close[0] = 100;
for (let i = 1; i < N; i++) close[i] = (close[i - 1] as number) * (1 + 0.01 * rng.normal());
const time = Float64Array.from({ length: N }, (_, i) => Date.UTC(2024, 0, 1) + i * DAY);
const data = { time, close };

type Cols = Readonly<Record<string, Float64Array>>;
type P = Readonly<Record<string, unknown>>;
/** Long when the NEXT bar closes higher: it reads bar i + 1 at bar i's close. */
const peek = (c: Cols, p: P): Float64Array => {
  const x = c["close"] as Float64Array;
  return Float64Array.from(x, (v, i) => ((x[i + 1] as number) > v ? (p["size"] as number) : 0));
};
/** The same rule one bar later: long when this bar closed higher than the last (known at the close). */
const delayed = (c: Cols, p: P): Float64Array => {
  const x = c["close"] as Float64Array;
  return Float64Array.from(x, (v, i) => (i > 0 && v > (x[i - 1] as number) ? (p["size"] as number) : 0));
};
const sma20 = (c: Cols): Float64Array => {
  const x = c["close"] as Float64Array;
  return Float64Array.from(x, (v, i) => {
    if (i < 19) return 0;
    let s = 0;
    for (let j = i - 19; j <= i; j++) s += x[j] as number;
    return v > s / 20 ? 1 : 0;
  });
};

describe("checkLookahead", () => {
  it("reports a strategy that peeks one bar ahead, at the first bar whose position changed, with its parameters and time", () => {
    const r = checkLookahead(peek, data, { params: { size: 1 } });
    // the default cuts by hand: 8 prefix lengths at 30 %..90 % of 400 bars
    const cuts = Array.from({ length: 8 }, (_, j) => Math.round(N * (0.3 + (0.6 * j) / 7)));
    expect(r.cuts).toEqual(cuts);
    // on a prefix of length c the peek at bar c − 1 sees nothing (no bar c) and is flat; on all the data it is long
    // exactly when close[c] > close[c − 1]: the first such cut gives the first bar
    const first = cuts.find((c) => (close[c] as number) > (close[c - 1] as number)) as number;
    expect(r.lookahead).toBe(true);
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]).toMatchObject({ firstBar: first - 1, cut: first, time: time[first - 1], full: 1, prefix: 0, params: { size: 1 } });
  });

  it("does not flag the one-bar-delayed version, and measures its warm-up: 1 bar (the first bar has no previous close)", () => {
    const r = checkLookahead(delayed, data, { params: [{ size: 1 }, { size: 0.5 }] });
    expect(r.lookahead).toBe(false);
    expect(r.findings).toEqual([]);
    expect(r.warmUp.map((w) => w.bars).every((b) => b <= 1)).toBe(true);
  });

  it("tells warm-up dependence: a 20-bar SMA rule's positions depend on the history before them for at most 19 bars", () => {
    const w = checkLookahead(sma20, data).warmUp[0]!;
    expect(w.bars).toBeGreaterThan(0);
    expect(w.bars).toBeLessThanOrEqual(19);
    // a running state that never forgets where it began: long while above the first close ever seen
    const anchored = (c: Cols): Float64Array => {
      const x = c["close"] as Float64Array;
      return Float64Array.from(x, (v) => (v > (x[0] as number) ? 1 : -1));
    };
    // closes 100 + (7i mod 10): the fresh start at bar 31 anchors at 107, all the data at 100; the last bar (103) still differs
    const a = checkLookahead(anchored, { close: Float64Array.from({ length: 100 }, (_, i) => 100 + ((7 * i) % 10)) }, { cuts: [31] });
    expect(a.lookahead).toBe(false);
    expect(a.warmUp[0]!.bars).toBe(Number.POSITIVE_INFINITY);
  });

  it("refuses bad arguments, naming them; gives the strategy copies (no mutation of the data)", () => {
    expect(() => checkLookahead(null as never, data)).toThrow(InvalidArgumentError);
    expect(() => checkLookahead(peek, { close: [1, 2] })).toThrow(/at least 3 bars/);
    expect(() => checkLookahead(peek, data, { cuts: [0] })).toThrow(/cuts must be prefix lengths/);
    expect(() => checkLookahead(peek, data, { cuts: 0 })).toThrow(/cuts must be a whole number/);
    expect(() => checkLookahead(() => [1, 2], data)).toThrow(/one position per bar/);
    const before = Float64Array.from(close);
    checkLookahead((c: Cols) => ((c["close"] as Float64Array).fill(0), new Float64Array((c["close"] as Float64Array).length)), data);
    expect(close).toEqual(before);
  });
});

describe("sweepStrategy and assessSweep run the checks", () => {
  it("a peeking sweep's verdict is 'lookahead', naming its first bar; the delayed sweep's is not", async () => {
    const grid = { size: [0.5, 1] };
    const a = assessSweep(await sweepStrategy(peek, { data, grid, workers: 0 }), { splits: 4 });
    expect(a.best.value).toBeGreaterThan(5); // what the peek buys in sample
    expect(a.verdict.verdict).toBe("lookahead");
    expect(a.verdict.decidedBy).toBe("lookahead");
    const direct = checkLookahead(peek, data, { params: a.best.params });
    expect(a.lookahead?.findings[0]?.firstBar).toBe(direct.findings[0]?.firstBar);
    const text = isItRealVerdict(isItRealInput(a))[0]!;
    expect(text).toMatch(new RegExp(`^Verdict: lookahead: the strategy's position at bar ${direct.findings[0]!.firstBar} \\(`));
    const d = assessSweep(await sweepStrategy(delayed, { data, grid, workers: 0 }), { splits: 4 });
    expect(d.lookahead?.lookahead).toBe(false);
    expect(d.verdict.verdict).not.toBe("lookahead");
  });

  it("refuses a stateful strategy and a random one by name (StrategyNotPureError with the variant's row and parameters)", async () => {
    let calls = 0;
    const stateful = (c: Cols, p: P): Float64Array => {
      calls++;
      return Float64Array.from(c["close"] as Float64Array, (_v, i) => ((i + calls) % 7 < 3 ? (p["size"] as number) : 0));
    };
    const err = await sweepStrategy(stateful, { data, grid: { size: [0.5, 1] }, workers: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StrategyNotPureError);
    expect((err as StrategyNotPureError).row).toBe(0);
    expect((err as StrategyNotPureError).params).toEqual({ size: 0.5 });
    expect((err as Error).message).toMatch(/^sweepStrategy: the strategy is not a pure function of its columns and parameters: variant 0 \(\{"size":0.5\}\) gave totalReturn .* in the sweep and .* when run again/);
    const random = (c: Cols): Float64Array => Float64Array.from(c["close"] as Float64Array, () => (Math.random() < 0.5 ? 1 : 0));
    await expect(sweepStrategy(random, { data, grid: { k: [1, 2] }, workers: 0 })).rejects.toThrow(StrategyNotPureError);
  });

  it("assessSweep refuses a winner whose returnsOf does not give its table row's Sharpe", () => {
    const m = generate("plantedGrid", 3);
    const sweep = matrixSweep(m);
    const best = sweep.best()!.index;
    (m.returns[best] as Float64Array).reverse().fill(0.001, 0, 100); // the rerun now gives other returns
    expect(() => assessSweep(sweep, { splits: 4 })).toThrow(StrategyNotPureError);
    expect(() => assessSweep(sweep, { splits: 4 })).toThrow(new RegExp(`assessSweep: .*the winner, variant ${best} .* has Sharpe`));
  });

  it("a one-trade winner is 'too little evidence', naming the round trips, never 'edge' nor a bare PSR", async () => {
    // each variant is long once, from bar `start` for `len` bars
    const once = (c: Cols, p: P): Float64Array => Float64Array.from(c["close"] as Float64Array, (_v, i) => (i >= (p["start"] as number) && i < (p["start"] as number) + (p["len"] as number) ? 1 : 0));
    const a = assessSweep(await sweepStrategy(once, { data, grid: { start: [20, 90, 160, 230, 300], len: [20, 40, 60] }, workers: 0 }), { splits: 4 });
    expect(a.evidence.trades).toBe(1);
    expect(a.verdict.verdict).toBe("too little evidence");
    expect(a.verdict.short.map((s) => s.name)).toContain("trades");
    const lines = isItRealVerdict(isItRealInput(a));
    expect(lines[0]).toMatch(/^Verdict: too little evidence: the winner made 1 round trip \(at least 10 needed\)/);
    expect(lines.join(" ")).not.toMatch(/Verdict: an edge/);
    expect(lines.join(" ")).toMatch(/PSR \d+% over 1 round trip and \d+ bars/);
  });
});

describe("sweepVerdict's guards and order", () => {
  const enough = { trades: 40, bars: 500, barsHeld: 300, independentBets: 150 };
  it("lookahead before evidence before the tests; SPA decides an edge, a losing walk-forward makes it unproven", () => {
    expect(sweepVerdict({ spa: 0.001, dsr: 1, pbo: 0, lookahead: true, evidence: { ...enough, trades: 1 } }).verdict).toBe("lookahead");
    const short = sweepVerdict({ spa: 0.001, dsr: 1, pbo: 0, evidence: { ...enough, trades: 1, bars: 40 } });
    expect(short.verdict).toBe("too little evidence");
    expect(short.short).toEqual([
      { name: "trades", value: 1, minimum: 10 },
      { name: "bars", value: 40, minimum: 50 },
    ]);
    expect(sweepVerdict({ spa: 0.01, dsr: 0.2, pbo: 0.7, evidence: enough })).toMatchObject({ verdict: "edge", decidedBy: "spa", selection: "overfit" });
    expect(sweepVerdict({ spa: 0.01, dsr: 0.2, pbo: 0.3, outOfSampleSharpe: -1 })).toMatchObject({ verdict: "unproven", decidedBy: "walk-forward" });
    expect(sweepVerdict({ spa: 0.2, dsr: 0.99, pbo: 0.3 })).toMatchObject({ verdict: "unproven", decidedBy: "spa", selection: "inconclusive", selectionHolds: undefined });
    expect(sweepVerdict({ spa: 0.2, dsr: 0.5, pbo: 0.3 })).toMatchObject({ verdict: "luck", decidedBy: "spa" });
    expect(sweepVerdict({ spa: 0.2, dsr: 0.5, pbo: 0.04 })).toMatchObject({ verdict: "unproven", selection: "holds" });
    // the boundaries: p = 0.05 does not reject; PBO 5 % holds, 50 % is overfit; NaN evidence is short
    expect(sweepVerdict({ spa: 0.05, dsr: 0.5, pbo: 0.05 }).selection).toBe("holds");
    expect(sweepVerdict({ spa: 0.05, dsr: 0.5, pbo: 0.5 })).toMatchObject({ superior: false, selection: "overfit", verdict: "luck" });
    expect(sweepVerdict({ spa: 0.01, dsr: 0.5, pbo: 0.5, evidence: { ...enough, barsHeld: Number.NaN } }).verdict).toBe("too little evidence");
    expect(() => sweepVerdict({ spa: 1.5, dsr: 0.5, pbo: 0.5 })).toThrow(/spa must be a probability/);
    expect(() => sweepVerdict({ dsr: 0.5, pbo: 0.5, evidence: { trades: "3" } as never })).toThrow(/evidence.trades must be a number/);
  });
});

describe("a flat fold is scored alike in the walk-forward and the PBO (issue 28)", () => {
  it("a walk-forward fold whose chosen variant never trades scores 0 out of sample, as a flat CSCV half does", () => {
    // variant 0 trades only in the first 100 bars (and wins there); variant 1 loses a little throughout
    const n = 300;
    const r0 = Float64Array.from({ length: n }, (_, t) => (t === 0 ? Number.NaN : t < 100 ? 0.01 + 0.001 * Math.sin(t) : 0));
    const r1 = Float64Array.from({ length: n }, (_, t) => (t === 0 ? Number.NaN : -0.001 + 0.002 * Math.sin(3 * t)));
    const sweep = matrixSweep({ returns: [r0, r1], trades: [20, 20] });
    const a = assessSweep(sweep, { splits: 4, walkForward: { train: 100, test: 100 } });
    const folds = a.walkForward!.folds.columns;
    expect((folds["choice"] as ArrayLike<number>)[0]).toBe(0);
    expect((folds["outOfSample"] as ArrayLike<number>)[0]).toBe(0); // flat: 0, not NaN
    // choosing on a flat training window: doing nothing (0) beats a loser, as in the PBO's ranking
    expect((folds["choice"] as ArrayLike<number>)[1]).toBe(0);
  });
});
