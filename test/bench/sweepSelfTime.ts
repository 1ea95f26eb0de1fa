/**
 * Self time by function of the yardsticks' SMA grid (issue 32, item 3: what a variant costs beyond the user's function
 * and the fused loop): `npx tsx test/bench/sweepSelfTime.ts [BARS] [SWEEPS]`. Runs `sweepStrategy(smaCross)` over the
 * 20 x 20 grid at BARS (5e5) bars SWEEPS (2) times on the calling thread under V8's sampling profiler (node:inspector,
 * 1 ms samples) and prints each function's share of the samples. V8 inlines the user's function into its caller
 * (callStrategy, itself inlined into variantOptions) in some compilations: those samples then fall on variantOptions,
 * not on the user's function (a `node --cpu-prof` run of the built dist/ shows them on the user function's lines in
 * variantOptions' positionTicks). The zeroing of `out` is targetsBuffer. No timing is asserted anywhere.
 */
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { sweepStrategy } from "../../src/research/index.js";
import { FEE_BPS, SLIPPAGE_BPS, generateBars } from "./backtestData.js";
import { smaCross } from "../support/smaCross.js";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const n = Math.round(Number(process.argv[2] ?? 5e5));
const SWEEPS = Number(process.argv[3] ?? 2);
const bars = generateBars(n, 42);
const FAST = Array.from({ length: 20 }, (_, i) => 5 + i);
const SLOW = Array.from({ length: 20 }, (_, i) => 30 + 10 * i);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 1000 });
await session.post("Profiler.start");
const seconds: number[] = [];
for (let r = 0; r < SWEEPS; r++) {
  const t0 = cpu();
  await sweepStrategy(smaCross, { data: { close: bars.close }, grid: { fast: FAST, slow: SLOW }, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, funding: bars.funding_bar, periodsPerYear: 525_600, workers: 0 });
  seconds.push(cpu() - t0);
}
const { profile } = (await session.post("Profiler.stop")) as { profile: { nodes: Node[]; samples: number[] } };
session.disconnect();

const byId = new Map(profile.nodes.map((x) => [x.id, x]));
const counts = new Map<string, number>();
for (const id of profile.samples) {
  const f = (byId.get(id) as Node).callFrame;
  const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").slice(-1)[0] ?? ""}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
const total = profile.samples.length;
console.log(`sweepStrategy(smaCross), 20 x 20 x ${n}, ${SWEEPS} sweeps: ${seconds.map((s) => s.toFixed(2)).join(", ")} s process CPU; load ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
console.log(`self time by function (${total} samples of 1 ms; share of all samples, idle and startup included):`);
for (const [key, c] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${((100 * c) / total).toFixed(1).padStart(5)} %  ${key}`);
console.log("note: samples on variantOptions / callStrategy include the user's function when V8 inlined it there (its loop's lines, in the profile's positionTicks).");
