/**
 * A fresh process's first readParquet call (store.bench.ts spawns it): loads
 * the codecs (WebAssembly compile and start-up) and reads argv[2] once.
 * Prints `<wall ms> <values>`.
 */
import { readParquet } from "../../src/store/readParquet.js";

const t0 = performance.now();
const p = await readParquet(process.argv[2] as string);
const ms = performance.now() - t0;
process.stdout.write(`${ms} ${p.time.length * (Object.keys(p.columns).length + 1)}\n`);
