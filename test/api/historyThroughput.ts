/**
 * Throughput of the client's history data path, end to end: HTTP on
 * 127.0.0.1 + body read + JSON.parse + envelope check + parseHistory, for
 * 43 200-point responses (30 days of minutes) in every served form.
 * Two sources:
 * - "static": the replay server's bodies, recorded once and then served as
 *   bytes by a bare node:http server (what a remote service costs the client);
 * - "replay": the replay server itself, in this same process, so its JSON
 *   generation (about half the time) is counted against the client too.
 * Run: `TZ=UTC npx tsx test/api/historyThroughput.ts` (target >= 1e6 points/s).
 * The machine is shared: expect run-to-run noise of +-30 %.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "../../src/api/index.js";
import { parseHistory } from "../../src/api/schemas/index.js";
import { startReplayServer } from "../../src/server/index.js";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
const VARIANTS = ["wrapped", "array", "pairs", "columnar", "rows"];
const ROUNDS = 10;
const replay = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 0 });

const recorded = new Map<string, Buffer>();
for (const v of VARIANTS) {
  const res = await fetch(`${replay.url}/v1/history?metric_id=btc_price&hours=720&_variant=${v}`);
  recorded.set(v, Buffer.from(await res.arrayBuffer()));
}
const staticServer = createServer((req, res) => {
  const v = new URL(req.url ?? "/", "http://x").searchParams.get("_variant") ?? "wrapped";
  const body = recorded.get(v) ?? Buffer.from("{}");
  res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
});
await new Promise<void>((r) => staticServer.listen(0, "127.0.0.1", r));
const staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`;

async function measure(baseUrl: string, label: string): Promise<number> {
  const client = createClient({ baseUrl, cacheTtlMs: 0, rateLimitPerMinute: 100_000 });
  let worst = Number.POSITIVE_INFINITY;
  for (const variant of VARIANTS) {
    const q = { metricId: "btc_price", hours: 720, extraParams: { _variant: variant } };
    await client.history(q); // warm-up
    const times: number[] = [];
    let points = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      const h = await client.history(q);
      times.push(performance.now() - t0);
      points = h.time.length;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] as number;
    const rate = points / (median / 1000);
    worst = Math.min(worst, rate);
    const body = JSON.parse((recorded.get(variant) as Buffer).toString("utf8")) as unknown;
    const p0 = performance.now();
    for (let i = 0; i < ROUNDS; i++) parseHistory(body);
    const parseMs = (performance.now() - p0) / ROUNDS;
    const mb = ((recorded.get(variant) as Buffer).length / 1e6).toFixed(1);
    console.log(
      `${label} ${variant.padEnd(8)} ${points} points, ${mb} MB: median ${median.toFixed(1)} ms = ${(rate / 1e6).toFixed(2)}e6 points/s (parseHistory alone ${parseMs.toFixed(1)} ms)`,
    );
  }
  return worst;
}

const staticWorst = await measure(staticUrl, "static");
const replayWorst = await measure(replay.url, "replay");
console.log(`slowest form: static ${(staticWorst / 1e6).toFixed(2)}e6 points/s, replay ${(replayWorst / 1e6).toFixed(2)}e6 points/s (target >= 1e6)`);
staticServer.closeAllConnections();
staticServer.close();
await replay.close();
process.exit(staticWorst >= 1e6 ? 0 : 1);
