/**
 * The composite rules against the service's own published response (evidence
 * that can fail, independent of the replay server). The BTC entry of
 * fixtures/api/composite/observed.json is the live service's published BTC
 * signal of the worked example in docs/DESIGN.md: component values and the
 * scores the service computed from them (3 decimals), its composite (4
 * decimals), its label and its methodology text. (The fixture's ETH entry is
 * hand-written for the shape tests; it is not used here.)
 *
 * Tolerances come from the published rounding: a score printed to 3 decimals
 * is within 5e-4 of the true one, so the composite of the published scores is
 * within sum(w) x 5e-4 = 5e-4 (plus 5e-5 for the composite's own rounding).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { normaliseComposite } from "../../src/api/schemas/index.js";
import { COMPONENT_NAMES, DEFAULT_SCORERS, DEFAULT_WEIGHTS, checkConformance, classifySignal, replayComposite } from "../../src/signals/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const published = normaliseComposite(JSON.parse(readFileSync(join(root, "fixtures", "api", "composite", "observed.json"), "utf8")));
const btc = published.signals.find((s) => s.coin === "BTC")!;
const value = (c: string): number => btc.components[c]!.value as number;
const score = (c: string): number => btc.components[c]!.score as number;
const SCORE_ROUNDING = 5e-4;

describe("the composite rules against the service's published BTC signal", () => {
  it("is the published example: values .6305, 4.8e-6, 62.4 bps, .356 %, .8 gwei; composite -0.0771, neutral", () => {
    expect(COMPONENT_NAMES.map(value)).toEqual([0.6305, 0.0000048, 62.4, 0.356, 0.8]);
    expect(btc.composite_score).toBe(-0.0771);
    expect(btc.regime).toBe("neutral");
  });

  it("each default scorer maps the published value to the published score", () => {
    // Hand: 2(.6305 - .5) = .261; -4.8e-6 x 1e4 = -.048; clamp(-62.4/50) = -1; .356/2 = .178; gas under 1.1 gwei = .3.
    for (const c of COMPONENT_NAMES) {
      const scorer = DEFAULT_SCORERS[c as keyof typeof DEFAULT_SCORERS];
      expect(Math.abs(scorer(value(c)) - score(c)), c).toBeLessThanOrEqual(SCORE_ROUNDING);
    }
  });

  it("the methodology text parses to the default weights, and they reproduce the published composite and label", () => {
    expect(published.weights_source).toBe("methodology");
    expect(published.weights).toEqual({ ...DEFAULT_WEIGHTS });
    const r = replayComposite(Object.fromEntries(COMPONENT_NAMES.map((c) => [c, [value(c)]])));
    // Hand: .3 x .261 - .25 x .048 - .2 x 1 + .15 x .178 + .1 x .3 = .0783 - .012 - .2 + .0267 + .03 = -.0770
    expect(r.composite[0]).toBeCloseTo(-0.077, 12);
    expect(Math.abs(r.composite[0]! - (btc.composite_score as number))).toBeLessThanOrEqual(SCORE_ROUNDING + 5e-5);
    expect(classifySignal(btc.composite_score as number)).toBe(btc.regime);
    expect(r.label[0]).toBe(0); // neutral
  });

  it("checkConformance on the published row conforms within the published rounding, and flags a wrong weight", () => {
    const row: Record<string, ArrayLike<number> | string[]> = {
      time: [Date.UTC(2026, 10, 22, 12, 0, 0)], // the published timestamp 2026-11-22T12:00:00.000Z
      composite_score: [btc.composite_score as number],
      regime: [btc.regime as string],
    };
    for (const c of COMPONENT_NAMES) {
      row[`${c}_value`] = [value(c)];
      row[`${c}_score`] = [score(c)];
    }
    expect(checkConformance(row, { tolerance: SCORE_ROUNDING + 5e-5 }).summary.conforms).toBe(true);
    // Equal weights: .2 x (.261 - .048 - 1 + .178 + .3) = -.0618, off the published -.0771 by .0153.
    const equal = Object.fromEntries(COMPONENT_NAMES.map((c) => [c, 0.2]));
    expect(checkConformance(row, { tolerance: SCORE_ROUNDING + 5e-5, weights: equal }).summary.conforms).toBe(false);
  });
});
