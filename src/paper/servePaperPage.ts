import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { equityChart } from "../report/equityChart.js";
import { escapeHtml } from "../report/escapeHtml.js";
import { positionsChart } from "../report/positionsChart.js";
import type { LedgerRow, PaperEvent } from "./PaperLedger.js";

/** What the live page shows: a paper trader's rows, events and status line (PaperTrader's). */
export interface PaperPageSource {
  readonly dir: string;
  readonly rows: readonly LedgerRow[];
  readonly events: readonly PaperEvent[];
  status(): string;
}

/** Options of {@link servePaperPage}. */
export interface PaperPageOptions {
  /** TCP port, 0 = any free port [0]. */
  readonly port?: number;
  /** Loopback interface only [127.0.0.1]. */
  readonly host?: string;
  /** Least real time between two redraws pushed to the page, ms [500]. */
  readonly refreshMs?: number;
}

/** A running live page. */
export interface PaperPage {
  readonly url: string;
  /** Stop the server and end every open event stream. */
  close(): Promise<void>;
}

/** The state pushed to the page: the status line, the charts as SVG, the alarms (newest first). */
interface PageState {
  readonly bars: number;
  readonly status: string;
  readonly equitySvg: string;
  readonly positionSvg: string;
  readonly alarms: readonly { readonly at: string; readonly kind: string; readonly bar: number | null; readonly message: string }[];
}

/** The page: a few lines of inline script that put each pushed state in place; no asset from anywhere else. */
function pageHtml(title: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#212529;max-width:960px}
h1{font-size:18px;margin:0 0 4px} #status{font-family:ui-monospace,monospace;background:#f1f3f5;padding:6px 8px;border-radius:4px}
figure{margin:16px 0} figcaption{font-weight:600;margin-bottom:4px} #alarms li{margin:2px 0} .kind{font-weight:600} .none{color:#868e96}
#conn{float:right;font-size:12px;color:#868e96}
</style></head>
<body>
<span id="conn">connecting…</span>
<h1>${escapeHtml(title)}</h1>
<div id="status">waiting for the first bar…</div>
<figure id="equity"><figcaption>Equity</figcaption><div class="chart"></div></figure>
<figure id="position"><figcaption>Position (weight held at each close)</figcaption><div class="chart"></div></figure>
<h2 style="font-size:16px">Alarms</h2>
<ul id="alarms"><li class="none">none</li></ul>
<script>
const $ = (id) => document.getElementById(id);
const es = new EventSource("/events");
es.onopen = () => { $("conn").textContent = "live"; };
es.onerror = () => { $("conn").textContent = "reconnecting…"; };
es.addEventListener("state", (e) => {
  const s = JSON.parse(e.data);
  document.body.dataset.bars = String(s.bars);
  $("status").textContent = s.status;
  if (s.equitySvg) $("equity").querySelector(".chart").innerHTML = s.equitySvg;
  if (s.positionSvg) $("position").querySelector(".chart").innerHTML = s.positionSvg;
  const ul = $("alarms");
  ul.replaceChildren();
  if (s.alarms.length === 0) { const li = document.createElement("li"); li.className = "none"; li.textContent = "none"; ul.append(li); }
  for (const a of s.alarms) {
    const li = document.createElement("li");
    const k = document.createElement("span"); k.className = "kind"; k.textContent = a.kind;
    li.append(k, (a.bar === null ? "" : " bar " + a.bar) + " (" + a.at + "): " + a.message);
    ul.append(li);
  }
});
</script>
</body></html>
`;
}

/**
 * Serve a live page of a paper trader on 127.0.0.1: its status line, its equity and position
 * drawn by the tearsheet's own charts (equityChart, positionsChart: SVG rendered here), and its
 * alarms, pushed to the page by server-sent events (`/events`, one `state` event on connect and
 * one per redraw, at most every `refreshMs` while bars or events arrive). The page loads nothing
 * but itself (its script and style are inline; a Content-Security-Policy forbids other hosts).
 * `/state` answers the same state as JSON.
 * @throws InvalidArgumentError on a host that is not a loopback address or a bad port
 * @example
 * const page = await servePaperPage(paper, { port: 0 });
 * console.log(page.url); // http://127.0.0.1:53817/
 */
export async function servePaperPage(source: PaperPageSource, options: PaperPageOptions = {}): Promise<PaperPage> {
  const where = "servePaperPage";
  const host = options.host ?? "127.0.0.1";
  if (host !== "127.0.0.1" && host !== "::1" && host !== "localhost") throw new InvalidArgumentError("host", `${where}: host must be a loopback address (127.0.0.1, ::1), got ${host}: the page shows your ledger without authentication`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new InvalidArgumentError("port", `${where}: port must be an integer 0..65535, got ${String(port)}`);
  const refreshMs = options.refreshMs ?? 500;
  if (!(refreshMs >= 0) || !Number.isFinite(refreshMs)) throw new InvalidArgumentError("refreshMs", `${where}: refreshMs must be a duration >= 0 in ms, got ${String(refreshMs)}`);

  let state: PageState | undefined;
  let drawn = -1; // rows + events when `state` was drawn
  let drawing: Promise<PageState> | undefined;
  const draw = async (): Promise<PageState> => {
    const rows = source.rows;
    const n = rows.length;
    const mark = n + source.events.length;
    const time = Float64Array.from(rows, (r) => r.time);
    const [equitySvg, positionSvg] =
      n >= 2
        ? await Promise.all([equityChart({ time, series: { equity: Float64Array.from(rows, (r) => r.equity) } }, { height: 200 }), positionsChart({ time, series: { position: Float64Array.from(rows, (r) => r.exposure) } }, { height: 140 })])
        : ["", ""];
    const alarms = source.events
      .filter((e) => e.kind !== "restart")
      .slice(-50)
      .reverse()
      .map((e) => ({ at: new Date(e.at).toISOString(), kind: e.kind, bar: e.bar ?? null, message: e.message }));
    const next: PageState = { bars: n, status: source.status(), equitySvg, positionSvg, alarms };
    state = next;
    drawn = mark;
    return next;
  };
  const current = async (): Promise<PageState> => {
    if (state !== undefined && drawn === source.rows.length + source.events.length) return state;
    drawing ??= draw().finally(() => (drawing = undefined));
    return drawing;
  };

  const streams = new Set<ServerResponse>();
  const send = (res: ServerResponse, s: PageState): void => {
    res.write(`event: state\ndata: ${JSON.stringify(s)}\n\n`);
  };
  const timer = setInterval(() => {
    if (streams.size === 0 || drawing !== undefined || drawn === source.rows.length + source.events.length) return;
    void current().then((s) => {
      for (const res of streams) send(res, s);
    }, () => undefined);
  }, Math.max(refreshMs, 10));
  timer.unref();

  const title = `milab paper: ${source.dir}`;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET") {
      res.writeHead(405, { allow: "GET" }).end();
    } else if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(pageHtml(title));
    } else if (path === "/state") {
      void current().then((s) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(s)));
    } else if (path === "/events") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
      res.write("retry: 1000\n\n");
      streams.add(res);
      req.on("close", () => streams.delete(res));
      void current().then((s) => send(res, s), () => undefined);
    } else {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.family === "IPv6" ? `[${addr.address}]` : addr.address}:${addr.port}/`;
  return {
    url,
    async close() {
      clearInterval(timer);
      for (const res of streams) res.end();
      streams.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections(); // a browser gone without closing its socket must not hold the exit
      await closed;
    },
  };
}
