/**
 * The smaller defects of issue 31 (item 9), each as a check that failed
 * before the fix:
 * - "0x10", "0b11", "0o7" (and "Infinity", "1_000") are not numbers: the one
 *   text-to-number rule (decimalNumber) refuses them, for CLI flags
 *   (`--hours 0x10` used to mean 16 hours) and numeric strings in responses;
 * - initialCash 1e308 (equity 0) and a close of 1e308 (NaN metrics) are
 *   refused with InvalidArgumentError naming the option and the bound.
 * References are hand-written: the decimal reading of each text.
 */
import { describe, expect, it } from "vitest";
import { toFiniteNumber } from "../../src/api/toFiniteNumber.js";
import { backtest } from "../../src/backtest/index.js";
import { integerOption, numberOption, parseWeights } from "../../src/cli/options.js";
import { decimalNumber } from "../../src/data/decimalNumber.js";
import { InvalidArgumentError } from "../../src/errors/index.js";

describe("numbers from text", () => {
  it("decimal text reads as its number", () => {
    for (const [text, value] of [["16", 16], [" 1.5e3 ", 1500], ["-0.25", -0.25], [".5", 0.5], ["5.", 5], ["+7", 7], ["1E-2", 0.01]] as const) expect(decimalNumber(text)).toBe(value);
  });
  it("hex, binary, octal, Infinity, underscores and empty text are not numbers", () => {
    for (const text of ["0x10", "0b11", "0o7", "0X1F", "Infinity", "-Infinity", "1_000", "", "  ", "1e", "e5", "--1", "1.2.3"]) {
      expect(decimalNumber(text)).toBeNaN();
      expect(toFiniteNumber(text)).toBeNaN();
    }
  });
  it("CLI flags refuse them: --hours 0x10, --fee 0b11, weights imbalance=0o7", () => {
    expect(integerOption("hours", 1, 720)("16")).toBe(16);
    expect(() => integerOption("hours", 1, 720)("0x10")).toThrow(/hours must be an integer 1..720, got 0x10/);
    expect(() => numberOption("fee", 0, 100)("0b11")).toThrow(/fee must be a number/);
    expect(() => parseWeights("imbalance=0o7")).toThrow(/weights must look like/);
  });
});

describe("amounts near double overflow", () => {
  const time = [0, 3_600_000, 7_200_000];
  it("initialCash 1e308 is refused, naming the bound", () => {
    const err = (() => {
      try {
        backtest({ time, close: [1, 2, 3], position: [1, 1, 1], initialCash: 1e308 });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).argument).toBe("initialCash");
    expect((err as Error).message).toMatch(/largest accepted is 1e\+100/);
  });
  it("a close of 1e308 is refused, naming the bar", () => {
    expect(() => backtest({ time, close: [1, 1e308, 3], position: [1, 1, 1] })).toThrow(/close prices must be > 0 and finite \(NaN for a missing bar\), got 1e\+308 at bar 1; the largest price accepted is 1e\+100/);
  });
  it("amounts up to the bound still run (1e100 cash, prices 1e50)", () => {
    const r = backtest({ time, close: [1e50, 2e50, 4e50], position: [1, 1, 1], initialCash: 1e100 });
    expect(Number.isFinite(r.equity[2] as number)).toBe(true);
  });
});

describe("hostile manifests", () => {
  it("delayBars 2^53 is refused with InvalidArgumentError naming the bound", () => {
    expect(() => backtest({ time: [0, 3_600_000, 7_200_000], close: [1, 2, 3], position: [1, 1, 1], delayBars: 2 ** 53 })).toThrow(/delayBars must be an integer >= 0 .*largest accepted is 1000000/);
  });
  it("parameters nested 100,000 deep are refused with InvalidArgumentError, not a stack overflow", async () => {
    const { replayManifest } = await import("../../src/backtest/index.js");
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 100_000; i++) deep = (deep["x"] = {}) as Record<string, unknown>;
    const manifest = { kind: "backtest", parameters: top, inputs: { sha256: "", columns: {} }, result: { sha256: "", columns: {} } } as never;
    expect(() => replayManifest(manifest, { time: [0], close: [1] })).toThrow(InvalidArgumentError);
    expect(() => replayManifest(manifest, { time: [0], close: [1] })).toThrow(/nest deeper than 64 levels/);
  });
});
