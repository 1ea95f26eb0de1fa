/**
 * The paper-trading done-when runs, too long for `npm test` (test/paper runs shorter ones):
 *   npx tsx scripts/paperLive.ts [bars=2000] [everyMs=50] [cases, e.g. stops-1m,function-1h]
 * 1. Six paper traders (a function strategy, the composite with a regime filter, a strategy with
 *    stop-loss and funding; one-minute and one-hour bars) against two replay servers in live mode,
 *    one bar per `everyMs`, until each ledger holds `bars` bars; each reconciled with backtest.
 * 2. The stop-loss case in a child process, kill -9 ten times at random moments and restarted,
 *    compared with the uninterrupted ledger of step 1.
 * 3. The function case against a server with fault injection (5xx, 429, malformed and truncated
 *    bodies, resets): reconciled; every bar without a close reported as a gap and filled nothing.
 * Prints one line per check and exits non-zero if any fails.
 */
import { paperTrade, readLedger, type LedgerRow, type PaperTrader } from "../src/index.js";
import { liveServer, tempStore } from "../test/paper/helpers.js";
import { paperCase } from "../test/paper/paperCases.js";
import { killAndRestart } from "../test/paper/killAndRestart.js";
import { loadavg } from "node:os";
import { join } from "node:path";
const uptime = (): string => loadavg().map((x) => x.toFixed(2)).join(" ");

const bars = Number(process.argv[2] ?? 2000);
const everyMs = Number(process.argv[3] ?? 50);
/** Step 1's cases (comma-separated) [all six]; step 2 needs stops-1m. */
const only = process.argv[4]?.split(",");
let failed = 0;
const check = (what: string, ok: boolean, detail: string): void => {
  if (!ok) failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}: ${detail}`);
};
const booked = (rows: readonly LedgerRow[]): string => JSON.stringify(rows.map(({ bookedAt: _b, late: _l, ...r }) => r));
console.log(`paperLive: ${bars} bars, one bar per ${everyMs} ms; load ${uptime()}`);

const minute = await liveServer({ everyMs });
const t0 = performance.now();
const traders: [string, PaperTrader][] = [];
// one group per bar length, each against its own server started just before it (the clock runs from then)
let hour: Awaited<ReturnType<typeof liveServer>> | undefined;
for (let group of [["function-1m", "composite-1m", "stops-1m"], ["function-1h", "composite-1h", "stops-1h"]]) {
  const batch: [string, PaperTrader][] = [];
  group = group.filter((g) => only === undefined || only.includes(g));
  if (group.length === 0) continue;
  if (group[0]!.endsWith("-1h")) hour = await liveServer({ everyMs, stepMs: 3_600_000 });
  for (const name of group) {
    const c = paperCase(name);
    const s = name.endsWith("-1h") ? (hour as NonNullable<typeof hour>) : minute;
    batch.push([name, await paperTrade(c.strategy, { ...c.options, client: s.client, store: tempStore(), bars, pollMs: 10 })]);
  }
  await Promise.all(batch.map(([, t]) => t.run()));
  traders.push(...batch);
}
for (const [name, t] of traders) {
  const r = t.reconcile();
  const late = t.rows.filter((x) => x.late).length;
  const gaps = t.rows.filter((x) => x.close !== x.close).length;
  check(`${name} ledger = backtest`, r.equal && t.rows.length === bars, `${t.rows.length} bars, ${r.compared} numbers compared, equal ${r.equal}${r.first ? ` first difference ${JSON.stringify(r.first)}` : ""}; ${t.rows.filter((x) => x.traded !== 0).length} fills, ${late} booked late, ${gaps} bars without a close (each a gap event: ${t.events.filter((e) => e.kind === "gap").length}); ${t.status()}`);
}
console.log(`step 1 took ${((performance.now() - t0) / 1000).toFixed(1)} s; load ${uptime()}`);

const t1 = performance.now();
const stops = traders.find(([n]) => n === "stops-1m")?.[1];
const restarts = (dir: string): number => readLedger(dir).events.filter((e) => e.kind === "restart").length;
if (stops === undefined) console.log("step 2 skipped: it compares with the stops-1m ledger of step 1, not among the cases");
else {
  const kstore = tempStore();
  const killed = await killAndRestart(minute.server.url, kstore, "stops-1m", bars, 10, 2029, 3000);
  check("10 x kill -9 + restart = uninterrupted ledger", killed.code === 0 && killed.stderr === "" && booked(killed.rows) === booked(readLedger(stops.dir).rows), `${killed.rows.length} bars, last exit ${killed.code}, stderr ${JSON.stringify(killed.stderr.slice(0, 200))}, ${killed.rows.filter((x) => x.late).length} rows booked late, ${restarts(join(kstore, "paper=stops-1m"))} restarts in its event table`);
  console.log(`step 2 took ${((performance.now() - t1) / 1000).toFixed(1)} s; load ${uptime()}`);
}
for (const [, t] of traders) t.close();

const t2 = performance.now();
const faulty = await liveServer({ everyMs, faults: { errorRate: 0.05, malformedRate: 0.03, truncateRate: 0.02, resetRate: 0.02, seed: 5 } });
const fc = paperCase("function-1m");
const f = await paperTrade(fc.strategy, { ...fc.options, client: faulty.client, store: tempStore(), bars, pollMs: 10, staleAfterMs: 500 });
await f.run();
const r = f.reconcile();
const noClose = f.rows.filter((x) => x.close !== x.close);
const gapEvents = new Set(f.events.filter((e) => e.kind === "gap").map((e) => e.bar));
check(
  "fault injection: ledger = backtest, no fill without a price, every gap reported",
  r.equal && noClose.every((x) => x.traded === 0 && x.fees === 0 && gapEvents.has(x.bar)) && gapEvents.size === noClose.length,
  `${f.rows.length} bars, equal ${r.equal}, ${noClose.length} bars without a close (${gapEvents.size} gap events), ${f.events.filter((e) => e.kind === "feedError").length} failed polls, ${f.events.filter((e) => e.kind === "stale").length} stale alarms, ${f.rows.filter((x) => x.late).length} bars booked late`,
);
f.close();
console.log(`step 3 took ${((performance.now() - t2) / 1000).toFixed(1)} s; load ${uptime()}`);
await Promise.all([minute.close(), hour?.close(), faulty.close()]);
console.log(failed === 0 ? "all checks hold" : `${failed} check(s) failed`);
process.exit(failed === 0 ? 0 : 1);
