import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { isLoopbackAddress } from "./isLoopbackAddress.js";
import { coinParam, coinsOf } from "./params.js";
import { FaultPlan, type FaultOptions } from "./faults.js";
import { MarketClock, type ReplayContext } from "./ReplayContext.js";
import { ReplayError } from "./ReplayError.js";
import { SlidingWindowLimiter } from "./rateLimiter.js";
import { analytics } from "./endpoints/analytics.js";
import { composite } from "./endpoints/composite.js";
import { history } from "./endpoints/history.js";
import { PreparedJson } from "./PreparedJson.js";
import * as minor from "./endpoints/minor.js";
import { regime } from "./endpoints/regime.js";
import { snapshot } from "./endpoints/snapshot.js";
import { volatility } from "./endpoints/volatility.js";
import { whaleFlow } from "./endpoints/whaleFlow.js";

/** Options of {@link startReplayServer}; every one has a default. */
export interface ReplayServerOptions {
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number;
  /**
   * Interface to bind; default 127.0.0.1 (loopback only: nothing off this machine can reach it).
   * Any other address (e.g. `0.0.0.0`, a LAN address) makes the server reachable from other
   * machines, and it has no authentication; the returned `loopback` says which it is
   * (`milab serve` warns on stderr when it is not).
   */
  readonly host?: string;
  /** Simulator seed; default 42. Same seed, start and clock give byte-identical responses. */
  readonly seed?: number;
  /** Epoch ms where the simulated history begins; default 31 days before the clock's first reading, floored to the minute. */
  readonly start?: number;
  /** "Now", epoch ms; default Date.now. Fix it for reproducible tests and notebooks. */
  readonly clock?: () => number;
  /** Per-client requests per sliding minute before 429; default 60 (the live public tier); 0 = unlimited. */
  readonly rateLimitPerMinute?: number;
  /** Fault injection (tests): when given (even `{}`), seeded fault rates apply and the `X-Replay-Fault` request header is obeyed; when omitted, the header is ignored [off]. */
  readonly faults?: FaultOptions;
  /** Default shape variant per endpoint key (e.g. `{ history: "array", snapshot: "documented" }`); `?_variant=` overrides per request. */
  readonly variants?: Readonly<Record<string, string>>;
  /** Called after each response, e.g. for logging. */
  readonly onRequest?: (info: { method: string; path: string; status: number; ms: number }) => void;
}

/** A running replay server. */
export interface ReplayServer {
  /** Base URL, e.g. `http://127.0.0.1:49152`. */
  readonly url: string;
  readonly port: number;
  /** True when bound to a loopback address (127.0.0.0/8, ::1): only this machine can reach it. */
  readonly loopback: boolean;
  /** Stop listening and close open connections. */
  close(): Promise<void>;
}

type Handler = (ctx: ReplayContext, variant: string, query: URLSearchParams, path: string) => unknown;

/** The 17 GET paths of the spec's endpoint table, keyed by path, with the key used for `variants`. */
export const REPLAY_ROUTES: Readonly<Record<string, { key: string; handler: Handler }>> = {
  "/v1/snapshot": { key: "snapshot", handler: (c, v) => snapshot(c, v) },
  "/v1/signals/volatility": { key: "volatility", handler: (c, v, q) => volatility(c, v, coinsOf(q)) },
  "/v1/signals/whale-flow": { key: "whaleFlow", handler: (c, v, q) => whaleFlow(c, v, coinsOf(q), coinParam(q) !== undefined) },
  "/v1/signals/composite": { key: "composite", handler: (c, _v, q) => composite(c, coinsOf(q)) },
  "/v3/signals/regime": { key: "regime", handler: (c, v, q) => regime(c, v, coinsOf(q)) },
  "/v1/signals/liquidations": { key: "liquidations", handler: (c, _v, q) => minor.liquidations(c, coinsOf(q)) },
  "/v3/signals/safety": { key: "safety", handler: (c) => minor.safety(c) },
  "/v1/history": { key: "history", handler: (c, v, q) => history(c, v, q) },
  "/v1/signals/spreads": { key: "spreads", handler: (c, _v, q) => minor.spreads(c, coinsOf(q)) },
  "/v1/signals/correlation": { key: "correlation", handler: (c) => minor.correlation(c) },
  "/v1/signals/depth": { key: "depth", handler: (c, _v, q) => minor.depth(c, coinsOf(q)) },
  "/v1/signals/imbalance": { key: "imbalance", handler: (c, _v, q) => minor.imbalance(c, coinsOf(q)) },
  "/v1/signals/priority-gas": { key: "priorityGas", handler: (c) => minor.priorityGas(c) },
  "/v3/signals/squeeze": { key: "squeeze", handler: (c, _v, q) => minor.squeeze(c, coinsOf(q)) },
  "/v3/signals/arbitrage": { key: "arbitrage", handler: (c, _v, q) => minor.arbitrage(c, coinsOf(q)) },
  "/v3/signals/smart-money": { key: "smartMoney", handler: (c, _v, q) => minor.smartMoney(c, coinsOf(q)) },
  "/v3/analytics/query": { key: "analytics", handler: (c, v, q, p) => analytics(c, v, q, p) },
};

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

function bad(name: string, rule: string, value: unknown): never {
  const shown = typeof value === "function" ? "a function" : typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
  throw new InvalidArgumentError(name, `startReplayServer: ${name} must be ${rule}, got ${shown}`);
}

function checkNumber(name: string, value: unknown, rule: string, ok: (x: number) => boolean): void {
  if (value !== undefined && (typeof value !== "number" || !ok(value))) bad(name, rule, value);
}

/**
 * Check every option before the server starts.
 * @throws InvalidArgumentError naming the option, the value and what is allowed
 */
function checkOptions(o: ReplayServerOptions): void {
  if (typeof o !== "object" || o === null) bad("options", "an object", o);
  checkNumber("port", o.port, "an integer 0..65535 (0 picks a free port)", (x) => Number.isInteger(x) && x >= 0 && x <= 65_535);
  if (o.host !== undefined && (typeof o.host !== "string" || o.host.trim() === "")) bad("host", 'a non-empty interface address such as "127.0.0.1"', o.host);
  checkNumber("seed", o.seed, "a finite number", Number.isFinite);
  checkNumber("start", o.start, "an epoch ms time (finite)", Number.isFinite);
  if (o.clock !== undefined && typeof o.clock !== "function") bad("clock", "a function returning epoch ms", o.clock);
  if (o.clock !== undefined && !Number.isFinite(o.clock())) bad("clock", "a function returning a finite epoch ms", o.clock());
  checkNumber("rateLimitPerMinute", o.rateLimitPerMinute, "an integer >= 0 (0 = unlimited)", (x) => Number.isInteger(x) && x >= 0);
  if (o.variants !== undefined && (typeof o.variants !== "object" || o.variants === null || Array.isArray(o.variants))) bad("variants", "an object of endpoint key -> variant name", o.variants);
  if (o.onRequest !== undefined && typeof o.onRequest !== "function") bad("onRequest", "a function", o.onRequest);
  const f = o.faults;
  if (f === undefined) return;
  if (typeof f !== "object" || f === null || Array.isArray(f)) bad("faults", "an object of fault options", f);
  checkNumber("faults.latencyMs", f.latencyMs, "a number of ms 0..60000", (x) => x >= 0 && x <= 60_000);
  checkNumber("faults.errorStatus", f.errorStatus, "an HTTP error status 400..599", (x) => Number.isInteger(x) && x >= 400 && x <= 599);
  checkNumber("faults.seed", f.seed, "a finite number", Number.isFinite);
  let total = 0;
  for (const name of ["errorRate", "malformedRate", "truncateRate", "resetRate"] as const) {
    checkNumber(`faults.${name}`, f[name], "a probability 0..1", (x) => x >= 0 && x <= 1);
    total += f[name] ?? 0;
  }
  if (total > 1 + 1e-12) bad("faults", "rates that add up to at most 1", total);
}

/**
 * Start the replay server: a local HTTP implementation of every endpoint of the
 * Market Intelligence API, fed by the seeded simulator, for offline notebooks,
 * demos and tests. It binds to loopback unless `host` says otherwise; on any
 * other address it is reachable from other machines, without authentication
 * (the result's `loopback` is then false).
 * @throws InvalidArgumentError naming a bad option, before listening
 * @example
 * const server = await startReplayServer({ seed: 7, clock: () => Date.UTC(2026, 10, 1) });
 * const client = createClient({ baseUrl: server.url });
 * await server.close();
 */
export async function startReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
  checkOptions(options);
  const clock = options.clock ?? Date.now;
  const seed = options.seed ?? 42;
  const start = options.start ?? Math.floor(clock() / 60_000) * 60_000 - 31 * 86_400_000;
  const market = new MarketClock(seed, start, clock);
  const limiter = new SlidingWindowLimiter(options.rateLimitPerMinute ?? 60);
  const faults = new FaultPlan(options.faults);
  const faultsOn = options.faults !== undefined;
  const variants = options.variants ?? {};

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const url = new URL(req.url ?? "/", "http://replay.local");
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(res, 405, errorBody("method_not_allowed", `only GET is supported, got ${req.method ?? "?"}`), { Allow: "GET" });
      return 405;
    }
    const wait = limiter.take(req.socket.remoteAddress ?? "?", Date.now());
    if (wait > 0) {
      const seconds = Math.max(1, Math.ceil(wait / 1000));
      send(res, 429, errorBody("rate_limited", `rate limit of ${options.rateLimitPerMinute ?? 60} requests per minute exceeded; retry in ${seconds} s`), {
        "Retry-After": String(seconds),
      });
      return 429;
    }
    const headerFault = faultsOn ? req.headers["x-replay-fault"] : undefined;
    let fault = faultsOn ? faults.decide(Array.isArray(headerFault) ? headerFault[0] : headerFault) : ({ kind: "none" } as const);
    if (fault.kind === "redirect") {
      // One hop: the followed request (marked `_redirected`) is answered normally.
      if (fault.to !== "same-origin" || !url.searchParams.has("_redirected")) {
        const next = new URL(url.pathname + url.search, fault.to === "cross-origin" ? `http://localhost:${(req.socket.localPort ?? 0).toString()}` : "http://x");
        if (fault.to === "same-origin") next.searchParams.set("_redirected", "1");
        const location = fault.to === "cross-origin" ? next.toString() : next.pathname + next.search;
        send(res, 302, errorBody("redirect", `moved to ${location}`), { Location: location });
        return 302;
      }
      fault = { kind: "none" };
    }
    url.searchParams.delete("_redirected");
    const delay = faults.latencyMs + (fault.kind === "slow" ? fault.ms : 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (fault.kind === "reset") {
      req.socket.destroy();
      return 0;
    }
    if (fault.kind === "status") {
      const extra: Record<string, string> = fault.retryAfter ? { "Retry-After": "1" } : {};
      send(res, fault.status, errorBody("injected_fault", `injected HTTP ${fault.status}`), extra);
      return fault.status;
    }
    const route = REPLAY_ROUTES[url.pathname.replace(/\/+$/, "") || "/"];
    if (route === undefined) {
      send(res, 404, errorBody("not_found", `no endpoint at ${url.pathname}; known: ${Object.keys(REPLAY_ROUTES).join(", ")}`));
      return 404;
    }
    const variant = url.searchParams.get("_variant") ?? variants[route.key] ?? "observed";
    let body: string;
    try {
      const out = route.handler(market.context(), variant, url.searchParams, url.pathname);
      body = out instanceof PreparedJson ? out.json : JSON.stringify(out);
    } catch (err) {
      if (err instanceof ReplayError) {
        send(res, err.status, errorBody(err.code, err.message));
        return err.status;
      }
      throw err;
    }
    if (fault.kind === "malformed") body = `<html>upstream error</html>${body.slice(0, 20)}`;
    if (fault.kind === "truncate") {
      // Announce the full length, send half, then cut the connection.
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
      res.write(body.slice(0, Math.floor(body.length / 2)));
      setImmediate(() => res.destroy());
      return 200;
    }
    if (fault.kind === "slow-body") {
      // Headers and half the body now, the rest after `ms`.
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
      const half = Math.floor(body.length / 2);
      res.write(body.slice(0, half));
      const timer = setTimeout(() => res.end(body.slice(half)), fault.ms);
      res.on("close", () => clearTimeout(timer));
      return 200;
    }
    send(res, 200, req.method === "HEAD" ? "" : body, { "Cache-Control": "public, max-age=45" });
    return 200;
  };

  const server = createServer((req, res) => {
    const t0 = performance.now();
    handle(req, res)
      .then((status) => options.onRequest?.({ method: req.method ?? "?", path: req.url ?? "", status, ms: performance.now() - t0 }))
      .catch((err: unknown) => {
        if (!res.headersSent) send(res, 500, errorBody("internal", err instanceof Error ? err.message : String(err)));
        else res.destroy();
      });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === "IPv6" ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    port,
    loopback: isLoopbackAddress(address),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
