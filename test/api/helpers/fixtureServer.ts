/**
 * A tiny real HTTP server on 127.0.0.1 for the client's tests: each request is
 * recorded (path, query, headers) and answered by a scripted handler, so tests
 * can count requests and inject faults (status codes, Retry-After, delays,
 * oversized or malformed bodies, chunked streams, dropped connections).
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface RecordedRequest {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly rawUrl: string;
}

/** How to answer one request. `body` objects are JSON-encoded; strings are sent as is. */
export interface Scripted {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  readonly delayMs?: number;
  /** Send the body in these many chunks without Content-Length (chunked encoding). */
  readonly chunks?: number;
  /** Drop the connection without answering. */
  readonly destroy?: boolean;
  /** Send the headers and the first half of the body, then wait this long before the rest. */
  readonly stallMs?: number;
}

export type Handler = (req: RecordedRequest, index: number) => Scripted | Promise<Scripted>;

export interface FixtureServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "fixtures", "api");

/** Parsed `fixtures/api/<endpoint>/<variant>.json`. */
export function fixture(endpoint: string, variant: string): unknown {
  return JSON.parse(readFileSync(join(root, endpoint, `${variant}.json`), "utf8"));
}

function write(res: ServerResponse, s: Scripted): void {
  const text = typeof s.body === "string" ? s.body : JSON.stringify(s.body ?? {});
  const headers: Record<string, string> = { "content-type": "application/json", ...s.headers };
  if (s.stallMs !== undefined) {
    res.writeHead(s.status ?? 200, headers);
    res.write(text.slice(0, text.length >> 1));
    const timer = setTimeout(() => {
      if (!res.destroyed) res.end(text.slice(text.length >> 1));
    }, s.stallMs);
    res.on("close", () => clearTimeout(timer));
    return;
  }
  if (s.chunks !== undefined && s.chunks > 1) {
    res.writeHead(s.status ?? 200, headers);
    const size = Math.ceil(text.length / s.chunks);
    for (let i = 0; i < text.length; i += size) res.write(text.slice(i, i + size));
    res.end();
    return;
  }
  if (headers["content-length"] === undefined) headers["content-length"] = String(Buffer.byteLength(text));
  res.writeHead(s.status ?? 200, headers);
  res.end(text);
}

/** Start the server; `handler` decides each answer (index = 0-based request count). */
export async function startFixtureServer(handler: Handler): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fixture.local");
    const rec: RecordedRequest = { path: url.pathname, query: url.searchParams, headers: req.headers, rawUrl: req.url ?? "" };
    const index = requests.length;
    requests.push(rec);
    void (async () => {
      const s = await handler(rec, index);
      if (s.delayMs !== undefined) await new Promise((r) => setTimeout(r, s.delayMs));
      if (s.destroy === true) {
        req.socket.destroy();
        return;
      }
      if (!res.destroyed) write(res, s);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Map a request path to its fixture directory name (`/v1/signals/whale-flow` -> `whale-flow`). */
export function fixtureName(path: string): string {
  if (path === "/v3/analytics/query") return "analytics";
  return path.split("/").filter(Boolean).pop() ?? "";
}
