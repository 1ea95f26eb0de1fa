/**
 * One paper case of scripts/paperLive.ts alone (less contention for the CPU than the six together):
 *   npx tsx scripts/paperOne.ts <function|composite|stops>-<1m|1h>
 * 2000 bars against a replay server in live mode at one bar per 50 ms; prints one JSON line
 * (equal to backtest, bars, numbers compared, bars without a close, bars booked late, fills, seconds, load).
 */
import { paperTrade } from "../src/index.js";
import { liveServer, tempStore } from "../test/paper/helpers.js";
import { paperCase } from "../test/paper/paperCases.js";
import { loadavg } from "node:os";
const name = process.argv[2]!;
const s = await liveServer({ everyMs: 50, stepMs: name.endsWith("-1h") ? 3_600_000 : 60_000 });
const c = paperCase(name);
const t = await paperTrade(c.strategy, { ...c.options, client: s.client, store: tempStore(), bars: 2000, pollMs: 10 });
const t0 = performance.now();
await t.run();
const r = t.reconcile();
console.log(name, JSON.stringify({ equal: r.equal, bars: t.rows.length, compared: r.compared, gaps: t.rows.filter((x) => x.close !== x.close).length, late: t.rows.filter((x) => x.late).length, fills: t.rows.filter((x) => x.traded !== 0).length, seconds: ((performance.now() - t0) / 1000).toFixed(1), load: loadavg().map((x) => x.toFixed(1)).join(" ") }));
t.close(); await s.close();
