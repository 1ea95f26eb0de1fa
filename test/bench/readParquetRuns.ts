/**
 * One fresh process of storeForeign.bench.ts: readParquet(argv[2]) once (the
 * first call: parquet-wasm imported, its WebAssembly compiled, its memory
 * grown) and then argv[3] more times (warm). Prints one JSON line: each call's
 * wall and CPU ms (user + system, all threads), the main thread's CPU ms
 * (Linux: /proc/self/task/<pid>/stat, 10 ms ticks; -1 elsewhere), page
 * faults, and the values read.
 */
import { readFileSync } from "node:fs";
import { readParquet } from "../../src/store/readParquet.js";

const path = process.argv[2] as string;
const warm = Number(process.argv[3] ?? 5);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** The main thread's CPU ms: on a machine with a core to spare, a call's wall time is about this plus its waits (the other threads' work runs beside it). */
const mainCpu = (): number => {
  try {
    const fields = (readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1] as string).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
};
const calls: { wallMs: number; cpuMs: number; mainMs: number; faults: number }[] = [];
let values = 0;
for (let r = 0; r <= warm; r++) {
  const f = process.resourceUsage().minorPageFault;
  const c = cpu();
  const m = mainCpu();
  const t = performance.now();
  const p = await readParquet(path);
  calls.push({ wallMs: performance.now() - t, cpuMs: cpu() - c, mainMs: mainCpu() - m, faults: process.resourceUsage().minorPageFault - f });
  values = p.time.length * (Object.keys(p.columns).length + 1);
}
process.stdout.write(`${JSON.stringify({ values, calls }, (_, v: unknown) => (typeof v === "number" && Number.isNaN(v) ? -1 : v))}\n`);
