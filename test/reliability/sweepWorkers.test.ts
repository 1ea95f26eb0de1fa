/**
 * Strategies that misbehave in a sweep (issue 31, defect 5), on the calling
 * thread and on worker threads (the built worker, dist/):
 * - one that throws null, undefined or a string on one variant: the sweep
 *   rejects with StrategyFailedError naming that variant and its parameters
 *   (before: a "complete" sweep with rows of zeros, or 0 rows marked aborted);
 * - one that changes its input columns: StrategyFailedError (reason
 *   "mutated") instead of silently corrupting the variants after it;
 * - one that loops forever on one variant: the sweep's abort() ends it (its
 *   worker terminated), the result says aborted, and the process exits;
 *   variantTimeoutMs ends it with StrategyFailedError (reason "timeout");
 * - the same sweep with a well-behaved strategy: every variant's numbers
 *   equal across the calling thread and the workers (reference: the sweep on
 *   the calling thread);
 * - on workers, whose blocks share the columns, the variant at fault named
 *   whichever thread saw the failure (the races ordered through control words
 *   in shared memory, so each case runs the same way every time): a change
 *   seen and put back by another thread's block, a later block's variant that
 *   throws on the changed column, two variants that throw (the lowest
 *   reported, as on the calling thread); and targets the backtest refuses
 *   (InvalidArgumentError naming the variant, on both).
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError, StrategyFailedError } from "../../src/errors/index.js";
import { sweepStrategy } from "../../src/research/index.js";
import { scaledMs } from "../support/timeScale.js";
import { bundleChild } from "../support/bundleChild.js";

const here = dirname(fileURLToPath(import.meta.url));
const n = 400;
const close = Float64Array.from({ length: n }, (_, i) => 100 + Math.sin(i / 7) * 5 + i * 0.01);
const time = Float64Array.from({ length: n }, (_, i) => Date.UTC(2026, 0, 1) + i * 3_600_000);
const data = { time, close };
const grid = { k: Array.from({ length: 24 }, (_, i) => i) };
const common = { data, grid, periodsPerYear: 8760 };

// Self-contained (they run in workers): variant k = 13 misbehaves.
const throwsNull = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  if (p["k"] === 13) throw null; // eslint-disable-line no-throw-literal
  return Float64Array.from(c["close"] as Float64Array, (_, i) => (i % ((p["k"] as number) + 2) === 0 ? 1 : 0));
};
const throwsUndefined = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  if (p["k"] === 13) throw undefined; // eslint-disable-line no-throw-literal
  return Float64Array.from(c["close"] as Float64Array, (_, i) => (i % ((p["k"] as number) + 2) === 0 ? 1 : 0));
};
const throwsString = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  if (p["k"] === 13) throw "bad day"; // eslint-disable-line no-throw-literal
  return Float64Array.from(c["close"] as Float64Array, (_, i) => (i % ((p["k"] as number) + 2) === 0 ? 1 : 0));
};
const mutates = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  const close = c["close"] as Float64Array;
  if (p["k"] === 13) close[5] = close[5]! * 2;
  return Float64Array.from(close, (_, i) => (i % ((p["k"] as number) + 2) === 0 ? 1 : 0));
};
const clean = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array =>
  Float64Array.from(c["close"] as Float64Array, (_, i) => (i % ((p["k"] as number) + 2) === 0 ? 1 : 0));
const runaway = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  if (p["k"] === 13) for (;;) {
    // never ends
  }
  return Float64Array.from(c["close"] as Float64Array, (_, i) => (i % ((p["k"] as number) + 2) === 0 ? 1 : 0));
};

async function failure(p: Promise<unknown>): Promise<StrategyFailedError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e, e instanceof Error ? e.message : String(e)).toBeInstanceOf(StrategyFailedError);
  return e as StrategyFailedError;
}

describe("a strategy that throws on one variant", () => {
  for (const [name, fn, shown] of [["null", throwsNull, "null"], ["undefined", throwsUndefined, "undefined"], ["a string", throwsString, '"bad day"']] as const) {
    for (const workers of [0, 2]) {
      it(`throws ${name}, ${workers} workers: StrategyFailedError naming variant 13 and its parameters, no rows of zeros`, { timeout: scaledMs(60_000) }, async () => {
        const e = await failure(sweepStrategy(fn, { ...common, workers }));
        expect(e.variant).toBe(13);
        expect(e.params).toEqual({ k: 13 });
        expect(e.reason).toBe("threw");
        expect(e.message).toContain("variant 13 (k 13)");
        expect(e.message).toContain(shown);
      });
    }
  }
});

describe("a strategy that changes its input", () => {
  for (const workers of [0, 2]) {
    it(`${workers} workers: StrategyFailedError (mutated) naming variant 13; the caller's data is unchanged`, { timeout: scaledMs(60_000) }, async () => {
      const before = Float64Array.from(close);
      const e = await failure(sweepStrategy(mutates, { ...common, workers }));
      expect(e.reason).toBe("mutated");
      expect(e.variant).toBe(13);
      expect(e.message).toContain('"close"');
      expect(Array.from(close)).toEqual(Array.from(before));
    });
  }
  it("the frozen column record refuses a new column", async () => {
    const addsColumn = (c: Record<string, Float64Array>): Float64Array => {
      c["extra"] = new Float64Array(1);
      return new Float64Array((c["close"] as Float64Array).length);
    };
    const e = await failure(sweepStrategy(addsColumn as never, { ...common, workers: 0 }));
    expect(e.reason).toBe("threw");
    expect(e.variant).toBe(0);
  });
});

describe("a well-behaved strategy", () => {
  it("gives the same numbers on the calling thread and on 2 workers", { timeout: scaledMs(60_000) }, async () => {
    const a = (await sweepStrategy(clean, { ...common, workers: 0 })).toDataFrame();
    const b = (await sweepStrategy(clean, { ...common, workers: 2 })).toDataFrame();
    expect(b.shape[0]).toBe(24);
    expect(b.values).toEqual(a.values);
  });
});

describe("a strategy that never ends on one variant", () => {
  it("abort() ends the sweep (aborted: true), its runaway worker terminated; the pool works after", { timeout: scaledMs(60_000) }, async () => {
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 500);
    const r = await sweepStrategy(runaway, { ...common, workers: 2, signal: ac.signal });
    console.log(`reliability: runaway variant, abort at 500 ms: sweep ended after ${Date.now() - t0} ms, aborted ${r.aborted}, ${r.length} rows`);
    expect(r.aborted).toBe(true);
    const again = await sweepStrategy(clean, { ...common, workers: 2 });
    expect(again.toDataFrame().shape[0]).toBe(24);
  });

  it("variantTimeoutMs ends it with StrategyFailedError (timeout) naming the variant", { timeout: scaledMs(60_000) }, async () => {
    const e = await failure(sweepStrategy(runaway, { ...common, workers: 2, variantTimeoutMs: 1000 }));
    expect(e.reason).toBe("timeout");
    expect(e.variant).toBeLessThanOrEqual(13);
    expect(e.message).toMatch(/variantTimeoutMs/);
  });

  it("variantTimeoutMs without workers is refused", async () => {
    await expect(sweepStrategy(clean, { ...common, workers: 0, variantTimeoutMs: 1000 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(sweepStrategy(clean, { ...common, workers: 2, variantTimeoutMs: -1 })).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it("a process that aborts such a sweep exits by itself", { timeout: scaledMs(120_000) }, () => {
    const child = spawnSync(process.execPath, [bundleChild(join(here, "helpers", "runawaySweep.ts"))], { encoding: "utf8", timeout: scaledMs(100_000) });
    console.log(`reliability: runaway sweep process: ${child.stdout.trim()}; exit ${child.status} ${child.signal ?? ""}`);
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout).toMatch(/^aborted true rows \d+ after \d+/);
  });
});

/**
 * The race of issue 29's flaky run, made deterministic: with workers the data columns are one shared
 * memory, so the block check of a variant running in another thread can see (and put back) the change
 * variant 13 made, and variant 13's own block then sees nothing. The strategy orders the threads through
 * control words kept in the shared buffer of its `flag` column, past the column's end (not a data value,
 * so not checked): variant 13 waits until a later block has started (its per-block check taken), changes
 * close[5], and waits until another thread has put it back; the later block's first variant waits until
 * the change is made. Every wait is bounded (10 s), so a broken order ends instead of hanging. On
 * main before the fix this rejected every time with a plain Error blaming the later block.
 */
const racing = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  const close = c["close"] as Float64Array;
  const flag = c["flag"] as Float64Array;
  const k = p["k"] as number;
  const targets = Float64Array.from(close, (_, i) => (i % (k + 2) === 0 ? 1 : 0));
  if (k < 13) return targets;
  // ctl[0]: 0 before the change, 1 changed, 2 variant 13 done; ctl[1]: 1 once a variant > 13 ran
  const ctl = new Int32Array(flag.buffer, flag.byteOffset + flag.byteLength, 2);
  const until = Date.now() + 10_000;
  if (k === 13) {
    if (Atomics.load(ctl, 0) !== 0) {
      close[5] = close[5]! * 2; // called again (the blame): change it, no waiting
      return targets;
    }
    while (Atomics.load(ctl, 1) === 0 && Date.now() < until) Atomics.wait(ctl, 1, 0, 20);
    const was = close[5]!;
    close[5] = was * 2;
    Atomics.store(ctl, 0, 1);
    Atomics.notify(ctl, 0);
    while (close[5] !== was && Date.now() < until) Atomics.wait(ctl, 0, 1, 5);
    Atomics.store(ctl, 0, 2);
    Atomics.notify(ctl, 0);
    return targets;
  }
  Atomics.store(ctl, 1, 1);
  Atomics.notify(ctl, 1);
  while (Atomics.load(ctl, 0) === 0 && Date.now() < until) Atomics.wait(ctl, 0, 0, 20);
  // given a `strict` column, a later variant throws on the changed price ("a later block's variant throws on the changed column" below)
  if (c["strict"] !== undefined && close[5]! > 150) throw new Error("close[5] is not a price");
  return targets;
};

/** `flag`: zeros over a shared buffer with two control words past its end (racing's). */
function flagColumn(): Float64Array {
  return new Float64Array(new SharedArrayBuffer(8 * n + 8), 0, n);
}

describe("a strategy that changes its input while another thread's block runs (the race, ordered)", () => {
  // 24, 40, 100 variants on 2 workers: blocks of 2, 3 and 7 variants (variant 13 last, in the middle, last of its block)
  for (const count of [24, 40, 100]) {
    it(`2 workers, ${count} variants: StrategyFailedError (mutated) naming variant 13, every time; the caller's data is unchanged`, { timeout: scaledMs(60_000) }, async () => {
      const before = Float64Array.from(close);
      const flag = flagColumn();
      const e = await failure(sweepStrategy(racing, { data: { time, close, flag }, grid: { k: Array.from({ length: count }, (_, i) => i) }, periodsPerYear: 8760, workers: 2 }));
      expect(e.reason).toBe("mutated");
      expect(e.variant).toBe(13);
      expect(e.params).toEqual({ k: 13 });
      expect(e.message).toContain('"close"');
      expect(Array.from(close)).toEqual(Array.from(before));
    });
  }
  it("1 worker (no race): StrategyFailedError (mutated) naming variant 13", { timeout: scaledMs(60_000) }, async () => {
    const e = await failure(sweepStrategy(mutates, { ...common, workers: 1 }));
    expect(e.reason).toBe("mutated");
    expect(e.variant).toBe(13);
  });
});

/**
 * Other failures of a block on workers, ordered the same way: the variant reported is the one at fault.
 * `throwsTwice`: variants 13 and 20 throw; 13 waits (bounded) until a variant after 20's block runs (in 20's
 * thread, after its failure was posted), so 20's failure reaches the pool first (before the fix the sweep
 * reported variant 20; the calling thread stops at 13).
 * `racing` given a `strict` column: variant 13 changes close[5] (about 100 -> 200); a variant of the later block
 * throws when it finds close[5] above 150, so that block fails by throwing (its variant is not at fault).
 */
const throwsTwice = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  const flag = c["flag"] as Float64Array;
  const k = p["k"] as number;
  const ctl = new Int32Array(flag.buffer, flag.byteOffset + flag.byteLength, 2);
  if (k === 20) throw new Error("variant 20 fails");
  if (k > 21) {
    // a block after 20's runs in 20's thread: 20's failure was posted to the pool
    Atomics.store(ctl, 0, 1);
    Atomics.notify(ctl, 0);
  }
  if (k === 13) {
    const until = Date.now() + 10_000;
    while (Atomics.load(ctl, 0) === 0 && Date.now() < until) Atomics.wait(ctl, 0, 0, 20);
    throw new Error("variant 13 fails");
  }
  return Float64Array.from(c["close"] as Float64Array, (_, i) => (i % (k + 2) === 0 ? 1 : 0));
};

describe("other failures of a block on workers (ordered): the variant at fault is reported", () => {
  it("variants 13 and 20 throw, 20 first: StrategyFailedError (threw) naming 13, the lowest, as on the calling thread", { timeout: scaledMs(60_000) }, async () => {
    const flag = flagColumn();
    const e = await failure(sweepStrategy(throwsTwice, { data: { time, close, flag }, grid, periodsPerYear: 8760, workers: 2 }));
    expect(e.reason).toBe("threw");
    expect(e.variant).toBe(13);
    expect(e.message).toContain("variant 13 fails");
    // on the calling thread 20 never runs before 13: its wait is skipped (the control word set beforehand)
    const ready = flagColumn();
    new Int32Array(ready.buffer, 8 * n, 2)[0] = 1;
    const here = await failure(sweepStrategy(throwsTwice, { data: { time, close, flag: ready }, grid, periodsPerYear: 8760, workers: 0 }));
    expect(here.variant).toBe(13);
  });
  it("a later block's variant throws on the changed column: StrategyFailedError (mutated) naming 13, not the thrower", { timeout: scaledMs(60_000) }, async () => {
    const before = Float64Array.from(close);
    const e = await failure(sweepStrategy(racing, { data: { time, close, flag: flagColumn(), strict: new Float64Array(n) }, grid, periodsPerYear: 8760, workers: 2 }));
    expect(e.reason).toBe("mutated");
    expect(e.variant).toBe(13);
    expect(Array.from(close)).toEqual(Array.from(before));
  });
});

describe("a strategy whose targets the backtest refuses on one variant", () => {
  const short = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
    const t = Float64Array.from(c["close"] as Float64Array, (_, i) => (i % ((p["k"] as number) + 2) === 0 ? 1 : 0));
    return p["k"] === 13 ? t.subarray(0, 10) : t;
  };
  const text = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): unknown =>
    p["k"] === 13 ? "abc" : Float64Array.from(c["close"] as Float64Array, (_, i) => (i % ((p["k"] as number) + 2) === 0 ? 1 : 0));
  for (const [name, fn, said] of [["10 of 400 targets", short, "one value per bar (400), got 10"], ["a string", text, "must be an array of numbers, got abc"]] as const) {
    for (const workers of [0, 2]) {
      it(`${name}, ${workers} workers: InvalidArgumentError (position) naming variant 13`, { timeout: scaledMs(60_000) }, async () => {
        const e = await sweepStrategy(fn as never, { ...common, workers }).then(() => undefined, (x: unknown) => x);
        expect(e).toBeInstanceOf(InvalidArgumentError);
        expect((e as InvalidArgumentError).argument).toBe("position");
        expect((e as Error).message).toContain(said);
        expect((e as Error).message).toContain("returned by the strategy on variant 13 (k 13)");
      });
    }
  }
});
