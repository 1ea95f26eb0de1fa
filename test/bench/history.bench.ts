/**
 * `npm run bench -- history`: fetch, validate, parse and align 30 days of
 * one-minute history (720 h = 43 200 points) for 4 coins x 5 metrics into one
 * wide DataFrame: 864 000 points, 20 concurrent /v1/history requests.
 * Two sources, each measured over several rounds (median and best shown):
 * - "replay": the replay server started in this process (rate limit off), so
 *   its JSON generation shares the CPU with the client (the setup);
 * - "static": the same 20 bodies, generated once and then served as bytes by
 *   a bare node:http server in this process (what a remote service costs the
 *   client: only the client's own work is timed).
 * Stages: load = HTTP + body read + parse into Float64Arrays + alignment into
 * a Panel (loadHistoryPanel; the service's own body shape is read straight
 * from its bytes by scanHistoryBytes, any other shape by JSON.parse +
 * parseHistory); frame = Panel -> danfo DataFrame (toDataFrame). Also the process's CPU time (user + system, all threads),
 * which a busy shared machine inflates less than wall time. Peak memory:
 * process.memoryUsage() sampled every 5 ms.
 * Env: BENCH_ROUNDS (default 5). Target: >= 1e6 points/s end to end.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { createClient } from "../../src/api/index.js";
import { toDataFrame } from "../../src/data/index.js";
import { loadHistoryPanel } from "../../src/load/index.js";
import { startReplayServer } from "../../src/server/index.js";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
const COINS = ["BTC", "ETH", "SOL", "HYPE"];
const METRICS = ["price", "perp_price", "funding_rate", "imbalance", "basis_bps"];
const HOURS = 720;
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5);

let peakRss = 0;
let peakHeap = 0;
const sample = (): void => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};
const sampler = setInterval(sample, 5);

const replay = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 0 });
const bodies = new Map<string, Buffer>();
for (const coin of COINS) {
  for (const m of METRICS) {
    const res = await fetch(`${replay.url}/v1/history?coin=${coin}&metric_id=${m}&metric=${m}&hours=${HOURS}`);
    bodies.set(`${coin}|${m}`, Buffer.from(await res.arrayBuffer()));
  }
}
const bytes = [...bodies.values()].reduce((s, b) => s + b.length, 0);
const staticServer = createServer((req, res) => {
  const q = new URL(req.url ?? "/", "http://x").searchParams;
  const body = bodies.get(`${q.get("coin")}|${q.get("metric_id")}`) ?? Buffer.from("{}");
  res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
});
await new Promise<void>((r) => staticServer.listen(0, "127.0.0.1", r));
const staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`;

interface Round {
  cpu: number;
  load: number;
  frame: number;
  points: number;
  shape: [number, number];
}

async function round(baseUrl: string): Promise<Round> {
  const client = createClient({ baseUrl, cacheTtlMs: 0, rateLimitPerMinute: 1_000_000 });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const { panel } = await loadHistoryPanel(client, { coin: COINS, metricId: METRICS, hours: HOURS });
  const t1 = performance.now();
  const df = toDataFrame(panel);
  const t2 = performance.now();
  const c = process.cpuUsage(c0);
  let points = 0;
  for (const col of Object.values(panel.columns)) for (let i = 0; i < col.length; i++) if (!Number.isNaN(col[i])) points++;
  sample();
  return { cpu: (c.user + c.system) / 1e6, load: (t1 - t0) / 1000, frame: (t2 - t1) / 1000, points, shape: df.shape as [number, number] };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const fmt = (s: number): string => `${(s * 1000).toFixed(0)} ms`;
const rate = (points: number, s: number): string => `${(points / s / 1e6).toFixed(2)}e6 points/s`;

console.log(`history benchmark: ${COINS.length} coins x ${METRICS.length} metrics x ${HOURS} h of 1-minute points, ${(bytes / 1e6).toFixed(1)} MB of JSON, load average ${loadavg()[0]?.toFixed(2)} on this machine`);
const results: Record<string, number> = {};
for (const [label, url] of [["static", staticUrl], ["replay", replay.url]] as const) {
  await round(url); // warm-up (JIT, danfo import)
  const rs: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) rs.push(await round(url));
  const total = rs.map((r) => r.load + r.frame);
  const r0 = rs[0] as Round;
  const best = Math.min(...total);
  results[label] = r0.points / median(total);
  console.log(
    `${label.padEnd(6)} ${r0.points} points -> DataFrame ${r0.shape.join(" x ")}: ` +
      `load ${fmt(median(rs.map((r) => r.load)))} + frame ${fmt(median(rs.map((r) => r.frame)))} = ${fmt(median(total))} median ` +
      `(${rate(r0.points, median(total))}; best ${fmt(best)} = ${rate(r0.points, best)}; without the DataFrame ${rate(r0.points, median(rs.map((r) => r.load)))}); ` +
      `CPU time of this process ${fmt(median(rs.map((r) => r.cpu)))} = ${rate(r0.points, median(rs.map((r) => r.cpu)))} per CPU second`,
  );
}
clearInterval(sampler);
sample();
console.log(`load average after the runs: ${loadavg().map((x) => x.toFixed(2)).join(" ")} (1, 5, 15 min) on ${availableParallelism()} CPUs; wall times above that count are shared with other work, compare CPU time`);
console.log(`peak memory: rss ${(peakRss / 2 ** 20).toFixed(0)} MiB, heap used ${(peakHeap / 2 ** 20).toFixed(0)} MiB`);
console.log(`target >= 1e6 points/s end to end: static ${results["static"]! >= 1e6 ? "met" : "NOT met"}, replay ${results["replay"]! >= 1e6 ? "met" : "NOT met"}`);
staticServer.closeAllConnections();
staticServer.close();
await replay.close();
