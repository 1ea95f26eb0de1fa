/**
 * mergeSweeps merges the shards of ONE sweep only: every shard carries the fingerprint of its
 * inputs and options (SweepResult.fingerprint, kept through JSON); shards of other data, other
 * thresholds, another fee, another grid are refused, and so are malformed rows.
 */
import { describe, expect, it } from "vitest";
import { COMPONENT_NAMES, InvalidArgumentError, mergeSweeps, simplexGrid, sweepComposite, type SweepJSON, type SweepResult } from "../../src/index.js";
import { generateBars } from "../bench/backtestData.js";

const N = 400;
const bars = generateBars(N, 3);
const time = Float64Array.from({ length: N }, (_, i) => 1_700_000_000_000 + i * 3_600_000);
const columns = { time, close: bars.close, imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas };
const weights = simplexGrid(COMPONENT_NAMES, 0.5); // 15 weight vectors
const base = { weights, thresholds: [0.1, 0.2], feeBps: 5, workers: 0 };

function shard(index: number, over: Record<string, unknown> = {}, data: Record<string, Float64Array> = columns): Promise<SweepResult> {
  return sweepComposite(data, { ...base, ...over, shard: { index, count: 2 } });
}

const json = (s: SweepResult): SweepJSON => JSON.parse(JSON.stringify(s)) as SweepJSON;

describe("mergeSweeps refuses shards of different sweeps", () => {
  it("shards of one sweep share a fingerprint (also through JSON) and merge complete", async () => {
    const [a, b] = await Promise.all([shard(0), shard(1)]);
    expect(a!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(b!.fingerprint).toBe(a!.fingerprint);
    expect(json(a!).fingerprint).toBe(a!.fingerprint);
    const full = await sweepComposite(columns, base);
    expect(full.fingerprint).toBe(a!.fingerprint);
    const merged = mergeSweeps([json(b!), json(a!)]);
    expect(merged.complete).toBe(true);
    expect(merged.fingerprint).toBe(a!.fingerprint);
  });

  const others: [string, () => Promise<SweepResult>][] = [
    ["other prices", () => shard(1, {}, { ...columns, close: columns.close.map((x, i) => (i === 7 ? x * 1.01 : x)) })],
    ["other times", () => shard(1, {}, { ...columns, time: time.map((t) => t + 60_000) })],
    ["another component's data", () => shard(1, {}, { ...columns, gas: columns.gas.map((x) => x * 2) })],
    ["thresholds 0.3 / 0.9", () => shard(1, { thresholds: [0.3, 0.9] })],
    ["a 50 bps fee", () => shard(1, { feeBps: 50 })],
    ["other slippage", () => shard(1, { slippageBps: 3 })],
    ["another weight grid of the same size", () => shard(1, { weights: [...weights].reverse() })],
    ["funding charged", () => shard(1, { barFunding: new Float64Array(N).fill(1e-5) })],
  ];
  for (const [name, other] of others) {
    it(`a shard of ${name} is a typed error, as a result and through JSON`, async () => {
      const a = await shard(0);
      const b = await other();
      expect(b.fingerprint).not.toBe(a.fingerprint);
      expect(() => mergeSweeps([a, b])).toThrow(InvalidArgumentError);
      expect(() => mergeSweeps([json(a), json(b)])).toThrow(/^mergeSweeps: shard 1 was swept from other data or options than shard 0/);
    });
  }
});

describe("mergeSweeps refuses malformed rows", () => {
  const bad: [string, string, unknown][] = [
    ["variant", "NaN", "NaN"],
    ["variant", "abc", "abc"],
    ["variant", "1.5", 1.5],
    ["variant", "-1", -1],
    ["variant", "1e9", 1e9],
    ["variant", "null", null],
    ["threshold", "2", 2],
    ["threshold", "NaN", "NaN"],
    ["w_gas", "-0.5", -0.5],
    ["w_gas", "Infinity", "Infinity"],
    ["sharpeRatio", '"lots"', "lots"],
    ["trades", '"3"', "3"],
  ];
  for (const [field, shown, value] of bad) {
    it(`${field} ${shown} is a typed error naming the shard, the field and the row`, async () => {
      const a = json(await shard(0));
      const cols = { ...a.columns, [field]: a.columns[field]!.map((x, i) => (i === 2 ? value : x)) } as SweepJSON["columns"];
      const err = (() => {
        try {
          mergeSweeps([{ ...a, columns: cols }]);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as Error).message).toContain(`mergeSweeps: shard 0 is not a sweep (${field} at row 2 is ${JSON.stringify(value)}, not `);
    });
  }

  it("a shard without a fingerprint (format sweep@1, or none given) is refused", async () => {
    const a = json(await shard(0));
    expect(() => mergeSweeps([{ ...a, format: "market-intel-lab/sweep@1" } as unknown as SweepJSON])).toThrow(/format sweep@1 carries no fingerprint/);
    const { fingerprint: _drop, ...none } = a;
    expect(() => mergeSweeps([none as unknown as SweepJSON])).toThrow(/fingerprint undefined is not a SHA-256/);
  });

  it("NaN and infinite metrics written by toJSON read back", async () => {
    const a = json(await shard(0));
    const cols = { ...a.columns, sharpeRatio: a.columns["sharpeRatio"]!.map((x, i) => (i === 0 ? "NaN" : i === 1 ? "-Infinity" : x)) };
    const merged = mergeSweeps([{ ...a, columns: cols }]);
    expect(merged.columns["sharpeRatio"]![0]).toBeNaN();
    expect(merged.columns["sharpeRatio"]![1]).toBe(-Infinity);
  });
});
