import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
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
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Simulator seed; default 42. Same seed, start and clock give byte-identical responses. */
  readonly seed?: number;
  /** Epoch ms where the simulated history begins; default 31 days before the clock's first reading, floored to the minute. */
  readonly start?: number;
  /** "Now", epoch ms; default Date.now. Fix it for reproducible tests and notebooks. */
  readonly clock?: () => number;
  /** Per-client requests per sliding minute before 429; default 60 (the live public tier); 0 = unlimited. */
  readonly rateLimitPerMinute?: number;
  /** Fault injection (tests). */
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

/**
 * Start the replay server: a local HTTP implementation of every endpoint of the
 * Market Intelligence API, fed by the seeded simulator, for offline notebooks,
 * demos and tests.
 * @example
 * const server = await startReplayServer({ seed: 7, clock: () => Date.UTC(2026, 10, 1) });
 * const client = createClient({ baseUrl: server.url });
 * await server.close();
 */
export async function startReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
  const clock = options.clock ?? Date.now;
  const seed = options.seed ?? 42;
  const start = options.start ?? Math.floor(clock() / 60_000) * 60_000 - 31 * 86_400_000;
  const market = new MarketClock(seed, start, clock);
  const limiter = new SlidingWindowLimiter(options.rateLimitPerMinute ?? 60);
  const faults = new FaultPlan(options.faults);
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
    const headerFault = req.headers["x-replay-fault"];
    const fault = faults.decide(Array.isArray(headerFault) ? headerFault[0] : headerFault);
    const delay = faults.latencyMs + (fault.kind === "slow" ? fault.ms : 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (fault.kind === "reset") {
      req.socket.destroy();
      return 0;
    }
    if (fault.kind === "status") {
      const extra: Record<string, string> = fault.status === 429 ? { "Retry-After": "1" } : {};
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
