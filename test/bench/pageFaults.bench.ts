/**
 * `npm run bench -- pageFaults`: issue 32's fresh-memory cost. The backtest bench's fused call
 * (`backtest({ signal: replayComposite(...) })`, the equity column, 2e6 seeded bars) ten times in
 * one process, each call's process CPU time and minor page faults
 * (process.resourceUsage().minorPageFault) measured around it, two ways: a fresh equity column
 * per call (the default), and the caller's column reused (`into: { equity }`). Each way in
 * BENCH_FAULTS_PROCS fresh processes (default 3, alternating); prints per way the median faults
 * of calls 2-10, their best and median CPU, and the load. Both ways' equity must be equal, bit for bit.
 *
 * One child: `tsx pageFaults.bench.ts child fresh|into BARS` prints one JSON line.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { backtest } from "../../src/backtest/index.js";
import { replayComposite } from "../../src/signals/index.js";
import { FEE_BPS, SLIPPAGE_BPS, THRESHOLD, generateBars } from "./backtestData.js";

const CALLS = 10;

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function child(kind: string, n: number): void {
  const c = generateBars(n, 42);
  const into = kind === "into" ? { equity: new Float64Array(n) } : undefined;
  const calls: { ms: number; faults: number }[] = [];
  let last: Float64Array | undefined;
  for (let k = 0; k < CALLS; k++) {
    const f0 = process.resourceUsage().minorPageFault;
    const t0 = cpu();
    const signal = replayComposite({ imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas }, { threshold: THRESHOLD });
    last = backtest({ close: c.close, signal, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1, ...(into !== undefined ? { into } : {}) }).equity;
    calls.push({ ms: (cpu() - t0) * 1e3, faults: process.resourceUsage().minorPageFault - f0 });
  }
  const eq = last as Float64Array;
  console.log(JSON.stringify({ calls, checksum: eq.reduce((a, x) => a + x, 0), last: eq[n - 1] }));
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
}

function main(): void {
  const n = Math.round(Number(process.env["BENCH_FAULTS_BARS"] ?? 2e6));
  const procs = Number(process.env["BENCH_FAULTS_PROCS"] ?? 3);
  const script = fileURLToPath(import.meta.url);
  console.log(`backtest({ signal: replay }), equity column, ${n} bars, ${CALLS} calls per process, ${procs} fresh processes a way; load ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  const runs: Record<string, { calls: { ms: number; faults: number }[]; checksum: number; last: number }[]> = { fresh: [], into: [] };
  for (let p = 0; p < procs; p++) {
    for (const kind of p % 2 === 0 ? ["fresh", "into"] : ["into", "fresh"]) {
      const res = spawnSync(process.execPath, ["--import", "tsx", script, "child", kind, String(n)], { encoding: "utf8", maxBuffer: 16 << 20, env: { ...process.env, TZ: "UTC" } });
      if (res.status !== 0) throw new Error(`child ${kind} failed: ${res.stderr}`);
      runs[kind]?.push(JSON.parse(res.stdout.trim().split("\n").pop() as string) as { calls: { ms: number; faults: number }[]; checksum: number; last: number });
    }
  }
  for (const [kind, label] of [
    ["fresh", "a fresh equity column per call (default)"],
    ["into", "the caller's column reused (into)"],
  ] as const) {
    const later = (runs[kind] ?? []).flatMap((r) => r.calls.slice(1));
    const firsts = (runs[kind] ?? []).map((r) => r.calls[0] as { ms: number; faults: number });
    console.log(
      `${label.padEnd(42)} calls 2-${CALLS}: page faults median ${median(later.map((c) => c.faults))}, CPU best ${Math.min(...later.map((c) => c.ms)).toFixed(1)} ms, median ${median(later.map((c) => c.ms)).toFixed(1)} ms; first call ${median(firsts.map((c) => c.ms)).toFixed(1)} ms, ${median(firsts.map((c) => c.faults))} faults (median)`,
    );
  }
  const all = [...(runs["fresh"] ?? []), ...(runs["into"] ?? [])];
  const same = all.every((r) => r.checksum === all[0]?.checksum && r.last === all[0]?.last);
  console.log(`equal equity (checksum and last value) in every process: ${same ? "yes" : "NO"}`);
  console.log(`load at the end: ${loadavg().map((x) => x.toFixed(1)).join(" ")} on 2 cores`);
  if (!same) process.exit(1);
}

if (process.argv[2] === "child") child(process.argv[3] as string, Number(process.argv[4]));
else main();
