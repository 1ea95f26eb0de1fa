/**
 * One fresh process of storeForeign.bench.ts: readParquet(argv[2]) once (the
 * first call: parquet-wasm imported, its WebAssembly compiled, its memory
 * grown) and then argv[3] more times (warm). Prints one JSON line: each call's
 * wall and CPU ms (user + system), page faults, and the values read.
 */
import { readParquet } from "../../src/store/readParquet.js";

const path = process.argv[2] as string;
const warm = Number(process.argv[3] ?? 5);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const calls: { wallMs: number; cpuMs: number; faults: number }[] = [];
let values = 0;
for (let r = 0; r <= warm; r++) {
  const f = process.resourceUsage().minorPageFault;
  const c = cpu();
  const t = performance.now();
  const p = await readParquet(path);
  calls.push({ wallMs: performance.now() - t, cpuMs: cpu() - c, faults: process.resourceUsage().minorPageFault - f });
  values = p.time.length * (Object.keys(p.columns).length + 1);
}
process.stdout.write(`${JSON.stringify({ values, calls })}\n`);
