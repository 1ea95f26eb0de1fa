/**
 * checkOptions, the one rule for a public options object (src/options/checkOptions.ts), and
 * nearestName, its "did you mean": hand-checked cases (edit distances counted by hand:
 * stoploss -> stopLoss 0 ignoring case, fees -> feeBps 2, delaybar -> delayBars 1).
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/index.js";
import { checkOptions, scaleMistake, type OptionsCheck } from "../../src/options/checkOptions.js";
import { nearestName } from "../../src/options/nearestName.js";
import { markStrategyParameters } from "../../src/options/strategyParameters.js";

const check: OptionsCheck = {
  where: "demo",
  example: "demo(x, { stopLoss: 0.05 })",
  specs: {
    stopLoss: { unit: "fraction of the entry price", default: "none", scale: "fraction", max: 1, maxExclusive: true },
    feeBps: { unit: "bps", default: "0", scale: "bps" },
    title: { unit: "text", default: '""' },
  },
  renamed: { fee: "feeBps, in basis points" },
};

describe("nearestName", () => {
  it("finds the nearest valid name, ignoring case, within 2 edits (or a third of the name)", () => {
    expect(nearestName("stoploss", ["stopLoss", "takeProfit"])).toBe("stopLoss");
    expect(nearestName("fees", ["feeBps", "fill", "seed"])).toBe("feeBps");
    expect(nearestName("delaybar", ["delayBars", "data"])).toBe("delayBars");
    expect(nearestName("banana", ["stopLoss", "feeBps"])).toBeUndefined();
    expect(nearestName("x", [])).toBeUndefined();
  });
});

describe("checkOptions", () => {
  it("passes undefined through and refuses a non-object with the call to write", () => {
    expect(checkOptions(undefined, check)).toBeUndefined();
    expect(() => checkOptions(0.05, check)).toThrow("demo: options must be an object, e.g. demo(x, { stopLoss: 0.05 })");
    expect(() => checkOptions([1], check)).toThrow(InvalidArgumentError);
  });

  it("accepts an empty object and every known key", () => {
    expect(checkOptions({}, check)).toEqual({});
    expect(checkOptions({ stopLoss: 0.05, feeBps: 5, title: "t" }, check)).toEqual({ stopLoss: 0.05, feeBps: 5, title: "t" });
  });

  it("refuses a renamed key with its new name before anything else", () => {
    expect(() => checkOptions({ fee: 5 }, check)).toThrow('demo: option "fee" is now feeBps, in basis points');
  });

  it("drops null and undefined (unset) and returns a copy", () => {
    const given = { stopLoss: null, feeBps: undefined, title: "t" };
    const out = checkOptions(given, check);
    expect(out).toEqual({ title: "t" });
    expect(Object.keys(out)).toEqual(["title"]);
    expect(given.stopLoss).toBeNull();
  });

  it("drops the keys a sweep marked as its strategy's own, and only those", () => {
    const params = markStrategyParameters({ fast: 5, stopLoss: null }, ["fast"]);
    expect(checkOptions({ title: "t", ...params }, check)).toEqual({ title: "t" });
    expect(() => checkOptions({ ...params, slow: 3 }, check)).toThrow("unknown option slow");
  });

  it("refuses a number in the wrong scale with the value meant, and leaves NaN, text and bounds alone", () => {
    expect(() => checkOptions({ stopLoss: 1 }, check)).toThrow("did you mean stopLoss: 0.01 (1%)?");
    expect(() => checkOptions({ stopLoss: 100 }, check)).toThrow("did you mean stopLoss: 1 (100%)?");
    expect(checkOptions({ stopLoss: 101 }, check)).toEqual({ stopLoss: 101 });
    expect(checkOptions({ stopLoss: Number.NaN }, check)).toEqual({ stopLoss: Number.NaN });
    expect(scaleMistake("feeBps", 0.01, check.specs["feeBps"] as never)).toBeUndefined();
    expect(scaleMistake("feeBps", 0.0099, check.specs["feeBps"] as never)).toContain("did you mean feeBps: 99?");
    expect(scaleMistake("feeBps", "5", check.specs["feeBps"] as never)).toBeUndefined();
  });
});
