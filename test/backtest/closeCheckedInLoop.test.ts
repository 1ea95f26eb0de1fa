import { describe, expect, it } from "vitest";
import { backtest, type BacktestOptions } from "../../src/backtest/index.js";
import { acceptedPrice } from "../../src/backtest/acceptedPrice.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { replayComposite } from "../../src/signals/index.js";

/**
 * A fused backtest of a Float64Array of closes checks each close as its generated loop reads it
 * (KernelSettings.checkClose) instead of a pass before the run: the same rule (acceptedPrice) and
 * the same error (checkPrices' message, naming the bar) wherever the bad close is, on every fused
 * path (a position column, a signal column, a composite replay as the signal).
 */
const n = 40;
function closes(): Float64Array {
  const c = new Float64Array(n);
  for (let i = 0; i < n; i++) c[i] = 100 + Math.sin(i);
  c[7] = Number.NaN;
  return c;
}
const position = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : i % 3 === 1 ? -1 : 0));
const replay = () =>
  replayComposite(
    { imbalance: Float64Array.from({ length: n }, (_, i) => (i % 5) / 4), funding: new Float64Array(n), basis_spread: new Float64Array(n), momentum_5m: new Float64Array(n), gas: new Float64Array(n).fill(1) },
    { threshold: 0.05 },
  );
const paths: [string, () => Partial<BacktestOptions>][] = [
  ["position column", () => ({ position })],
  ["signal column", () => ({ signal: position })],
  ["composite replay", () => ({ signal: replay() })],
];

describe("acceptedPrice: the engine's price rule", () => {
  it("accepts a positive price up to the maximum and NaN (a missing bar), refuses the rest", () => {
    for (const x of [1e-300, 1, 101.5, 1e100, Number.NaN]) expect(acceptedPrice(x, 1e100)).toBe(true);
    for (const x of [0, -0, -1, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, 1.0000000000000001e100 * 10]) expect(acceptedPrice(x, 1e100)).toBe(false);
  });
});

describe("backtest: a bad close found by the fused loop", () => {
  for (const [name, strategy] of paths) {
    for (const [bar, bad] of [
      [0, 0],
      [1, -2],
      [23, Number.POSITIVE_INFINITY],
      [n - 1, 1e101],
    ] as const) {
      it(`${name}: close ${String(bad)} at bar ${bar} throws checkPrices' error naming the bar`, () => {
        const close = closes();
        close[bar] = bad;
        const run = (): unknown => backtest({ close, ...strategy(), initialCash: 1 }).equity;
        expect(run).toThrow(InvalidArgumentError);
        expect(run).toThrow(new RegExp(`^backtest: close prices must be > 0 and finite \\(NaN for a missing bar\\), got ${String(bad).replace("+", "\\+")} at bar ${bar}; the largest price accepted is 1e\\+100$`));
      });
    }
    it(`${name}: the summary pass (outputs: ["metrics"]) and into checks the same way`, () => {
      const close = closes();
      close[30] = -1;
      expect(() => backtest({ close, ...strategy(), periodsPerYear: 365, outputs: ["metrics"] })).toThrow(/got -1 at bar 30/);
      expect(() => backtest({ close, ...strategy(), into: { equity: new Float64Array(n) } })).toThrow(/got -1 at bar 30/);
    });
    it(`${name}: good closes with a missing bar run, the check changing no number (same equity as a plain array of the same closes)`, () => {
      const close = closes();
      const typed = backtest({ close, ...strategy() }).equity;
      const plain = backtest({ close: Array.from(close), ...strategy() }).equity;
      expect(Array.from(typed)).toEqual(Array.from(plain));
      expect(close[7]).toBeNaN(); // input not mutated
    });
  }
});
