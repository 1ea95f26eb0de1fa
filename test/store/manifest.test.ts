import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { backtest, backtestColumns, backtestPortfolio, replayManifest } from "../../src/backtest/index.js";
import { createPanel, toDataFrame } from "../../src/data/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { createManifest, readParquet } from "../../src/store/index.js";

const T0 = Date.UTC(2026, 10, 1);

function inputs(): { time: Float64Array; close: Float64Array; position: Float64Array } {
  const n = 500;
  const time = Float64Array.from({ length: n }, (_, i) => T0 + i * 3_600_000);
  const close = Float64Array.from({ length: n }, (_, i) => 100 * Math.exp(0.01 * Math.sin(i / 7) + i * 1e-4));
  const position = Float64Array.from({ length: n }, (_, i) => (Math.sin(i / 11) > 0 ? 1 : -0.5));
  return { time, close, position };
}

describe("createManifest", () => {
  it("records package version, git commit, parameters, input digests, seed, clock, time range and created-at", () => {
    const data = inputs();
    const options = { ...data, feeBps: 5, slippageBps: 2, sizing: { by: "fixed" as const } };
    const before = Date.now();
    const m = createManifest({ kind: "backtest", options, seed: 42, clock: T0 + 86_400_000 });
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect(m.package).toEqual({ name: "market-intel-lab", version: pkg.version });
    expect(m.gitCommit).toBe(execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim()); // git itself as the reference
    expect(m.parameters).toEqual({ feeBps: 5, slippageBps: 2, sizing: { by: "fixed" } });
    expect(Object.keys(m.inputs.columns)).toEqual(["time", "close", "position"]);
    expect(m.inputs.columns.close!.length).toBe(500);
    expect(m.seed).toBe(42);
    expect(m.clock).toBe(T0 + 86_400_000);
    expect(m.timeRange).toEqual({ start: "2026-11-01T00:00:00.000Z", end: "2026-11-21T19:00:00.000Z", startMs: T0, endMs: T0 + 499 * 3_600_000 });
    expect(Date.parse(m.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(m.result).toBeNull();
  });

  it("a column's digest is the SHA-256 of its float64 bytes", () => {
    const m = createManifest({ kind: "history", options: { x: Float64Array.of(1, 2, 3), names: ["a", "b"] } });
    // python3 -c "import hashlib,struct; print(hashlib.sha256(struct.pack('<3d',1,2,3)).hexdigest())"
    expect(m.inputs.columns.x!.sha256).toBe("a68de4b5e96a60c8ceb3c7b7ef93461725bdbbff3516b136585a743b5c0ec664");
    expect(m.parameters).toEqual({ names: ["a", "b"] }); // a list of strings is a parameter
    expect(m.timeRange).toBeNull();
  });

  it("bad arguments", () => {
    expect(() => createManifest({ kind: "", options: {} })).toThrow("createManifest: give { kind, options }");
    expect(() => createManifest({ kind: "backtest", options: null as never })).toThrow("options must be the run's options object");
  });
});

describe("replayManifest", () => {
  it("re-runs the backtest from the manifest (through JSON) and finds it bit-identical", () => {
    const data = inputs();
    const options = { ...data, feeBps: 5, slippageBps: 2, shorts: true };
    const m = JSON.parse(JSON.stringify(createManifest({ kind: "backtest", options, seed: 7, result: backtestColumns(backtest(options)) })));
    const check = replayManifest(m, { time: data.time.slice(), close: data.close.slice(), position: data.position.slice() });
    expect(check.inputsMatch).toBe(true);
    expect(check.identical).toBe(true);
    expect(check.changedResults).toEqual([]);
    // A Panel carrying the same columns works too.
    expect(replayManifest(m, createPanel(data.time, { close: data.close, position: data.position })).identical).toBe(true);
  });

  it("every backtest carries its manifest: result.manifest replays bit-identical; a portfolio's names its kind", () => {
    const data = inputs();
    const r = backtest({ ...data, feeBps: 5, shorts: true });
    expect(r.manifest.kind).toBe("backtest");
    expect(r.manifest.parameters).toMatchObject({ feeBps: 5, shorts: true });
    const check = replayManifest(JSON.parse(JSON.stringify(r.manifest)), { time: data.time.slice(), close: data.close.slice(), position: data.position.slice() });
    expect(check.identical).toBe(true);
    const p = backtestPortfolio({ time: data.time, coins: { BTC: { close: data.close, position: data.position } } });
    expect(p.manifest.kind).toBe("portfolio");
    expect(Object.keys(p.manifest.result?.columns ?? {})).toContain("BTC_holdings");
  });

  it("a backtest fed a danfo DataFrame fingerprints its columns by name, not the frame's internals", () => {
    const data = inputs();
    const r = backtest({ data: toDataFrame({ time: data.time, close: data.close }), position: data.position });
    expect(Object.keys(r.manifest.inputs.columns).sort()).toEqual(["data.columns.close", "data.time", "position"]);
    // the same numbers as plain columns hash the same
    const plain = backtest({ time: data.time, close: data.close, position: data.position }).manifest;
    expect(r.manifest.inputs.columns["data.columns.close"]?.sha256).toBe(plain.inputs.columns["close"]?.sha256);
  });

  it("says which input changed and that the result differs", () => {
    const data = inputs();
    const options = { ...data, feeBps: 5 };
    const m = createManifest({ kind: "backtest", options, result: backtestColumns(backtest(options)) });
    const close = data.close.slice();
    close[100] = close[100]! * 1.01;
    const check = replayManifest(m, { ...data, close });
    expect(check.inputsMatch).toBe(false);
    expect(check.changedInputs).toEqual(["close"]);
    expect(check.identical).toBe(false);
    expect(check.changedResults).toContain("equity");
    // Other parameters than those recorded give another result.
    const edited = { ...m, parameters: { feeBps: 50 } };
    expect(replayManifest(edited, data).identical).toBe(false);
  });

  it("rejects a manifest that is not a backtest's, has no result, or data without an input", () => {
    const data = inputs();
    expect(() => replayManifest(createManifest({ kind: "sweep", options: data }), data)).toThrow('replayManifest: needs a backtest\'s manifest (kind "backtest"), got kind "sweep"');
    expect(() => replayManifest(createManifest({ kind: "backtest", options: data }), data)).toThrow("has no result fingerprint");
    const m = createManifest({ kind: "backtest", options: data, result: backtestColumns(backtest(data)) });
    expect(() => replayManifest(m, { time: data.time, close: data.close })).toThrow('replayManifest: data has no column "position"');
  });
});

describe("replayManifest refuses keys that reach Object.prototype", () => {
  for (const key of ["__proto__.close", "constructor.prototype.close", "sizing.__proto__", "prototype"]) {
    it(`an inputs key ${JSON.stringify(key)} is a typed error and pollutes nothing`, () => {
      const data = inputs();
      const m = JSON.parse(JSON.stringify(createManifest({ kind: "backtest", options: data, result: backtestColumns(backtest(data)) })));
      // The key as a tampered manifest.json carries it (JSON.parse makes "__proto__" an own key).
      m.inputs.columns = JSON.parse(`{${JSON.stringify(key)}: {"sha256": "0", "length": 500}, "close": {"sha256": "0", "length": 500}, "position": {"sha256": "0", "length": 500}}`);
      const err = (() => {
        try {
          replayManifest(m, { ...data, [key.split(".").pop() as string]: data.close });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(({} as Record<string, unknown>)["close"]).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty("close");
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as Error).message).toMatch(/^replayManifest: .* refused/);
    });
  }
});

describe("replayManifest's verdicts agree", () => {
  it("a manifest whose column digests disagree with its total is refused, never inputsMatch true with a changed input", () => {
    const data = inputs();
    const m = JSON.parse(JSON.stringify(createManifest({ kind: "backtest", options: data, result: backtestColumns(backtest(data)) })));
    m.inputs.columns.close.sha256 = "0".repeat(64); // edited column digest, total left as it was
    expect(() => replayManifest(m, data)).toThrow(/replayManifest: the manifest's inputs digest does not match its column digests/);
    const r = JSON.parse(JSON.stringify(createManifest({ kind: "backtest", options: data, result: backtestColumns(backtest(data)) })));
    r.result.columns.equity.sha256 = "0".repeat(64);
    expect(() => replayManifest(r, data)).toThrow(/replayManifest: the manifest's result digest does not match its column digests/);
  });
});

describe("a backtest result's toParquet", () => {
  it("writes the bar table; read back, equity and time are the same numbers", async () => {
    const data = inputs();
    const r = backtest({ ...data, feeBps: 5 });
    const dir = mkdtempSync(join(tmpdir(), "milab-toparquet-"));
    try {
      const path = join(dir, "run.parquet");
      await r.toParquet(path);
      const back = await readParquet(path);
      expect(Array.from(back.time)).toEqual(Array.from(r.time));
      expect(Array.from(back.columns["equity"] ?? [])).toEqual(Array.from(r.equity));
      expect(Object.keys(back.columns)).toEqual(["equity", "returns", "positions", "exposure", "holdings", "turnover", "fees", "funding_paid"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
