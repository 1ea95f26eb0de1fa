import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../src/api/transport/backoffDelay.js";
import { createRequestMemo } from "../../src/api/transport/createRequestMemo.js";
import { parseMaxAge } from "../../src/api/transport/parseMaxAge.js";
import { redactUrl } from "../../src/api/transport/redactUrl.js";

describe("redactUrl", () => {
  it("redacts credential-like query parameters and the given secrets, leaves the rest", () => {
    expect(redactUrl("http://h/v1/x?coin=BTC&api_key=abc&Token=t")).toBe("http://h/v1/x?coin=BTC&api_key=REDACTED&Token=REDACTED");
    expect(redactUrl("http://h/v1/x?note=my%20key", ["my key"])).toBe("http://h/v1/x?note=REDACTED");
    expect(redactUrl("http://h/v1/x?note=my+key%2F1", ["my key/1"])).toBe("http://h/v1/x?note=REDACTED");
    expect(redactUrl("http://h/v1/x?coin=BTC")).toBe("http://h/v1/x?coin=BTC");
    expect(redactUrl("http://h/v1/x", [""])).toBe("http://h/v1/x");
  });
});

describe("parseMaxAge", () => {
  it("max-age in seconds, no-store/no-cache = 0, otherwise the fallback", () => {
    expect(parseMaxAge("public, max-age=45", 1)).toBe(45_000);
    expect(parseMaxAge("max-age=0", 1)).toBe(0);
    expect(parseMaxAge("no-store", 1000)).toBe(0);
    expect(parseMaxAge("private, no-cache", 1000)).toBe(0);
    expect(parseMaxAge("public", 1000)).toBe(1000);
    expect(parseMaxAge(null, 1000)).toBe(1000);
    expect(parseMaxAge("s-maxage=10", 1000)).toBe(1000); // shared-cache directive, not ours
  });
});

describe("backoffDelay", () => {
  it("doubles per retry, jitter factor 0.5..1.5, capped", () => {
    // Hand-computed: 500 * 2^(n-1) * (0.5 + r).
    expect(backoffDelay(1, 500, 30_000, () => 0.5)).toBe(500);
    expect(backoffDelay(3, 500, 30_000, () => 0.5)).toBe(2000);
    expect(backoffDelay(3, 500, 30_000, () => 0)).toBe(1000);
    expect(backoffDelay(3, 500, 30_000, () => 0.999)).toBe(2998);
    expect(backoffDelay(20, 500, 30_000, () => 0.5)).toBe(30_000);
  });
});

describe("createRequestMemo", () => {
  it("storing a body drops expired ones (no unbounded growth)", async () => {
    let now = 0;
    const memo = createRequestMemo(() => now);
    let calls = 0;
    await memo.run("old", async () => ({ body: ++calls, ttlMs: 10 }));
    now = 20;
    await memo.run("new", async () => ({ body: ++calls, ttlMs: 10 }));
    now = 0; // even if the clock went back, "old" is gone
    expect((await memo.run("old", async () => ({ body: ++calls, ttlMs: 10 }))).source).toBe("network");
  });

  it("failures are not cached; a later call fetches again", async () => {
    const memo = createRequestMemo(() => 0);
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error("x");
    };
    await expect(memo.run("k", failing)).rejects.toThrow("x");
    await expect(memo.run("k", failing)).rejects.toThrow("x");
    expect(calls).toBe(2);
  });

  it("ttl 0 is not cached; a positive ttl is, until it expires", async () => {
    let now = 0;
    const memo = createRequestMemo(() => now);
    let calls = 0;
    const fetcher = (ttlMs: number) => async () => ({ body: ++calls, ttlMs });
    await memo.run("a", fetcher(0));
    expect((await memo.run("a", fetcher(0))).source).toBe("network");
    await memo.run("b", fetcher(100));
    expect(await memo.run("b", fetcher(100))).toEqual({ body: 3, source: "cache" });
    now = 100;
    expect((await memo.run("b", fetcher(100))).source).toBe("network");
  });
});
