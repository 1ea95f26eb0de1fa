/**
 * inlineStatements (src/backtest/kernel/inlineExpression.ts): a small function's text written in
 * place of its call by a generated loop gives what the call gives, bit for bit (NaN, -0, the
 * clamps' edges, infinities), and a function that reads anything but its parameters and locals
 * is refused (its text would not run elsewhere).
 */
import { describe, expect, it } from "vitest";
import { inlineStatements } from "../../src/backtest/kernel/inlineExpression.js";
import { DEFAULT_SCORERS, EXTRA_SCORERS, SCORER_CONSTANTS, type Scorer } from "../../src/signals/scorers.js";

const VALUES = [Number.NaN, 0, -0, 1, -1, 0.5, 0.25, 1e-5, -1e-5, 12.5, -75, 50, 90, 0.9, 2, 1e300, -1e300, Infinity, -Infinity];
const SCALE = 3;

describe("inlineStatements", () => {
  it("writes each scorer of one value as statements that give its answers bit for bit", () => {
    for (const f of [...Object.values(DEFAULT_SCORERS), ...Object.values(EXTRA_SCORERS)] as Scorer[]) {
      const text = inlineStatements(f, ["v"], "x", SCORER_CONSTANTS);
      expect(text, f.name).toBeDefined();
      if (text === undefined) continue;
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the text under test
      const g = new Function("v", `"use strict"; ${text} return x;`) as Scorer;
      for (const v of VALUES) expect(Object.is(g(v), f(v)), `${f.name}(${v})`).toBe(true);
    }
  });

  it("renames locals after the result and reads each argument where its parameter was", () => {
    expect(inlineStatements(function half(v: number) { const x = v / 2; return x < 1 ? x : 1; } as never, ["y"], "s")?.replace(/\s/g, "")).toBe("consts_x=((y)/2);consts=(s_x<1?s_x:1);");
  });

  it("refuses a function that reads a name from outside, assigns, or is not a plain function", () => {
    expect(inlineStatements(function f(v: number) { return v * SCALE; } as never, ["y"], "s")).toBeUndefined();
    expect(inlineStatements(function f(v: number) { return v * SCALE; } as never, ["y"], "s", { SCALE })?.replace(/\s/g, "")).toBe("consts=((y)*(3));");
    expect(inlineStatements(((v: number) => v) as never, ["y"], "s")).toBeUndefined();
    expect(inlineStatements(function f(v: number) { let x = v; x = x + 1; return x; } as never, ["y"], "s")).toBeUndefined();
    expect(inlineStatements(function f(v: number, w: number) { return v + w; } as never, ["y"], "s")).toBeUndefined();
  });
});
