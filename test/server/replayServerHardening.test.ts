/**
 * Issue 13 defect 9 (server part): the replay server obeys `X-Replay-Fault`
 * only when fault injection was asked for at start, and refuses bad options
 * before it listens.
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { startReplayServer, type ReplayServerOptions } from "../../src/server/index.js";

const NOW = Date.UTC(2026, 10, 23, 12);
const get = (url: string, fault: string): Promise<Response> => fetch(`${url}/v1/snapshot`, { headers: { "x-replay-fault": fault }, redirect: "manual" });

describe("replay server fault header", () => {
  it("is ignored when the server was started without faults", async () => {
    const server = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 0 });
    try {
      for (const fault of ["503", "429", "malformed", "redirect-loop"]) {
        const res = await get(server.url, fault);
        expect(res.status, fault).toBe(200);
        expect(((await res.json()) as { metrics: unknown[] }).metrics.length).toBeGreaterThan(0);
      }
    } finally {
      await server.close();
    }
  });

  it("is obeyed when faults were asked for (even `{}`): statuses, Retry-After or not, redirects", async () => {
    const server = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 0, faults: {} });
    try {
      expect((await get(server.url, "503")).status).toBe(503);
      const limited = await get(server.url, "429");
      expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "1"]);
      const bare = await get(server.url, "429-no-retry-after");
      expect([bare.status, bare.headers.get("retry-after")]).toEqual([429, null]);
      const hop = await get(server.url, "redirect");
      expect([hop.status, hop.headers.get("location")]).toEqual([302, "/v1/snapshot?_redirected=1"]);
      const cross = await get(server.url, "redirect-cross");
      expect(cross.headers.get("location")).toBe(`${server.url.replace("127.0.0.1", "localhost")}/v1/snapshot`);
      expect((await fetch(`${server.url}/v1/snapshot?_redirected=1`, { headers: { "x-replay-fault": "redirect" } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe("startReplayServer options", () => {
  it.each<[string, ReplayServerOptions]>([
    ["port", { port: -1 }],
    ["port", { port: 70_000 }],
    ["port", { port: 1.5 }],
    ["host", { host: "" }],
    ["seed", { seed: Number.NaN }],
    ["start", { start: Infinity }],
    ["clock", { clock: 5 as never }],
    ["clock", { clock: () => Number.NaN }],
    ["rateLimitPerMinute", { rateLimitPerMinute: -1 }],
    ["rateLimitPerMinute", { rateLimitPerMinute: 2.5 }],
    ["faults.errorRate", { faults: { errorRate: 1.5 } }],
    ["faults.resetRate", { faults: { resetRate: -0.1 } }],
    ["faults", { faults: { errorRate: 0.6, resetRate: 0.6 } }],
    ["faults.latencyMs", { faults: { latencyMs: -5 } }],
    ["faults.errorStatus", { faults: { errorStatus: 200 } }],
    ["variants", { variants: "array" as never }],
    ["onRequest", { onRequest: "log" as never }],
  ])("refuses a bad %s before listening", async (argument, options) => {
    const err = await startReplayServer(options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).argument).toBe(argument);
    expect((err as Error).message).toMatch(new RegExp(`^startReplayServer: ${argument.replace(".", "\\.")} must be`));
  });

  it("listens on 127.0.0.1 (loopback) by default, and says so", async () => {
    const server = await startReplayServer({ clock: () => NOW });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.loopback).toBe(true);
    await server.close();
  });

  it.each([
    ["localhost", true],
    ["127.0.0.2", true],
    ["0.0.0.0", false],
  ])("host %s: loopback is %s (the address it bound)", async (host, loopback) => {
    const server = await startReplayServer({ clock: () => NOW, host });
    try {
      expect(server.loopback).toBe(loopback);
    } finally {
      await server.close();
    }
  });
});
