import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { replayComposite } from "../../src/signals/index.js";

/** DESIGN.md's worked example: values whose default scores are .261, -.048, -1, .178, .3. */
const WORKED = { imbalance: [0.6305], funding: [0.0000048], basis_spread: [50], momentum_5m: [0.356], gas: [0.8] };

describe("replayComposite", () => {
  it("reproduces DESIGN.md's worked example: -0.0771, neutral", () => {
    const r = replayComposite(WORKED);
    // hand: .3*.261 + .25*-.048 + .2*-1 + .15*.178 + .1*.3 = .0783 - .012 - .2 + .0267 + .03 = -0.0770
    expect(r.composite[0]).toBeCloseTo(-0.077, 12);
    expect(r.label[0]).toBe(0);
    expect(r.scores["imbalance"]![0]).toBeCloseTo(0.261, 12);
  });

  it("rejects a weighted component with no column, naming it", () => {
    const { gas: _gas, ...four } = WORKED;
    expect(() => replayComposite(four)).toThrow(InvalidArgumentError);
    expect(() => replayComposite(four)).toThrow(/no column for weighted component gas/);
  });
});
