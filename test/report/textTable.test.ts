/** textTable / formatNumber: terminal tables. Expected strings are written out by hand. */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { formatNumber, textTable } from "../../src/report/index.js";

describe("formatNumber", () => {
  it("shows NaN as a dash and infinities as symbols", () => {
    expect([formatNumber(Number.NaN), formatNumber(Infinity), formatNumber(-Infinity)]).toEqual(["–", "∞", "-∞"]);
  });
  it("keeps integers whole with thousands separators", () => {
    expect([formatNumber(0), formatNumber(42), formatNumber(-1234567)]).toEqual(["0", "42", "-1,234,567"]);
  });
  it("rounds other values to 4 significant digits without trailing zeros", () => {
    expect([formatNumber(0.123456), formatNumber(1.5), formatNumber(-0.5), formatNumber(12.3456)]).toEqual(["0.1235", "1.5", "-0.5", "12.35"]);
  });
  it("switches to exponent form below 1e-4 and from 1e15 on", () => {
    expect([formatNumber(0.0000213), formatNumber(1.5e15 + 0.5), formatNumber(2e15)]).toEqual(["2.130e-5", "1.500e+15", "2.000e+15"]);
    expect(formatNumber(0.0001)).toBe("0.0001");
  });
  it("uses separators, 2 decimals from 1000 on and none from a million on", () => {
    expect([formatNumber(999.99), formatNumber(111310.1834), formatNumber(44300340210.83)]).toEqual(["1000", "111,310.18", "44,300,340,211"]);
  });
});

describe("textTable", () => {
  it("right-aligns numbers, left-aligns text, rules the header", () => {
    expect(textTable({ coin: ["BTC", "ETH"], sharpe: [1.2346, -0.5] })).toBe("coin  sharpe\n----  ------\nBTC    1.235\nETH     -0.5");
  });
  it("applies per-column formats and can drop the rule", () => {
    const out = textTable({ r: [0.1234] }, { format: { r: (v) => `${(v * 100).toFixed(1)}%` }, rule: false });
    expect(out).toBe("    r\n12.3%");
  });
  it("gives an empty string for no columns and a header for zero rows", () => {
    expect(textTable({})).toBe("");
    expect(textTable({ a: [] })).toBe("a\n-");
  });
  it("rejects columns of different lengths with a typed error naming the column", () => {
    expect(() => textTable({ a: [1, 2], b: [1] })).toThrow(InvalidArgumentError);
    expect(() => textTable({ a: [1, 2], b: [1] })).toThrow('textTable: every column must have 2 values, got 1 in "b"');
  });
  it("does not mutate its input", () => {
    const a = Float64Array.of(3, 1, 2);
    textTable({ a });
    expect(Array.from(a)).toEqual([3, 1, 2]);
  });
});
