/**
 * `milab paper --serve`: the live page in headless Chromium (playwright-core driving Debian's
 * chromium, as test/report does) while the built CLI paper-trades against a replay server in live
 * mode: status, equity and position charts and alarms arrive by server-sent events and move as the
 * clock does, and the page requests nothing but its own origin. And `milab serve --live`: the
 * replay server's clock moves on by itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient } from "../../src/index.js";
import { MAIN } from "../cli/helpers/runMilab.js";
import { newPage } from "../support/sharedBrowser.js";
import { scaledMs } from "../support/timeScale.js";
import { liveServer, START, tempStore } from "./helpers.js";

vi.setConfig({ testTimeout: 300_000 });

/** Spawn the built milab; resolves with the first stdout match of `pattern` (and the child). */
function spawnUntil(args: readonly string[], pattern: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, MI_BASE_URL: undefined, MI_API_KEY: undefined } as NodeJS.ProcessEnv });
  let out = "";
  let err = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m !== null) resolve({ child, match: m, output: () => out + err, exited });
    });
    void exited.then((c) => reject(new Error(`milab ${args.join(" ")} exited ${c} before printing ${pattern}: ${out}${err}`)));
  });
}

let s: Awaited<ReturnType<typeof liveServer>>;
beforeAll(async () => {
  s = await liveServer();
});
afterAll(async () => s.close());

describe("milab paper --serve, in Chromium", () => {
  it("shows status, equity, position and alarms live by server-sent events, from its own origin only", async () => {
    const store = tempStore();
    const run = await spawnUntil(
      ["paper", "--strategy", new URL("../../examples/strategies/momentum.mjs", import.meta.url).pathname, "--params", '{"n":3}', "--store", store, "--base-url", s.server.url, "--start", String(START - 10 * 60_000), "--bars", "30", "--poll-ms", "20", "--stale-after-ms", "1", "--serve", "0", "--rate-limit", "100000"],
      /live page on (http:\/\/127\.0\.0\.1:\d+\/)/,
    );
    const url = run.match[1] as string;
    const page = await newPage(); // in the worker's one Chromium (test/support/sharedBrowser.ts)
    const external: string[] = [];
    try {
      page.setDefaultTimeout(scaledMs(30_000));
      const origin = new URL(url).origin;
      await page.route("**/*", (route) => {
        if (new URL(route.request().url()).origin === origin) return route.continue();
        external.push(route.request().url());
        return route.abort();
      });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(url, { waitUntil: "load" });
      await page.waitForFunction(() => Number(document.body.dataset["bars"] ?? 0) >= 11);
      expect(await page.textContent("#status")).toMatch(/^11 bars to 2026-11-01T00:00:00\.000Z \| position \S+ \| equity \S+ \| last alarm/);
      expect(await page.locator("#equity svg").count()).toBe(1);
      expect(await page.locator("#position svg").count()).toBe(1);
      expect(await page.textContent("#conn")).toBe("live");
      // the clock moves: new bars reach the open page without a reload
      s.live.advance(5);
      await page.waitForFunction(() => Number(document.body.dataset["bars"] ?? 0) >= 16);
      expect(await page.textContent("#status")).toMatch(/^16 bars to 2026-11-01T00:05:00\.000Z/);
      // an alarm: the feed stops (no new bar for longer than --stale-after-ms) and the page lists it
      await page.waitForFunction(() => [...document.querySelectorAll("#alarms .kind")].some((k) => k.textContent === "stale"));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
    expect(external).toEqual([]);
    s.live.advance(20);
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain("30 bars to 2026-11-01T00:19:00.000Z");
  });
});

describe("milab serve --live", () => {
  it("serves new bars as its clock moves on by itself (one minute of market time every 50 ms)", async () => {
    const run = await spawnUntil(["serve", "--live", "--port", "0", "--clock", "2026-11-01", "--every-ms", "50", "--rate-limit", "0"], /listening on (http:\/\/\S+:\d+)/);
    try {
      expect(run.output()).toContain("live clock from 2026-11-01T00:00:00.000Z, 60000 ms of market time every 50 ms");
      const client = createClient({ baseUrl: run.match[1] as string, cacheTtlMs: 0 });
      const last = async (): Promise<number> => {
        const h = await client.history({ coin: "BTC", metricId: "btc_price", hours: 1 });
        return h.time[h.time.length - 1] as number;
      };
      const a = await last();
      await new Promise((r) => setTimeout(r, 400));
      const b = await last();
      expect(a).toBeGreaterThanOrEqual(START);
      expect(b).toBeGreaterThan(a);
      expect((b - a) % 60_000).toBe(0);
    } finally {
      run.child.kill("SIGINT");
      expect(await run.exited).toBe(0);
    }
  });
});
