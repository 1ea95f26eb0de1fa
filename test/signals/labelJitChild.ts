/**
 * Child script of test/signals/labelJit.test.ts (bundled, run under `node --trace-opt --trace-deopt`:
 * test/support/v8Trace.ts): the users' path's first step in a fresh process, the replay's label
 * column read first (the streamed label loop, labelGroup), REPLAYS times over N seeded bars, each
 * replay building its model again as every call does, with a pause of PAUSE ms between replays (the
 * arguments, default 3, 200k and 500). Prints
 * "phase replay <r>" before each, so that the test can tell from V8's trace when the loop was
 * optimised and when its code was thrown away.
 */
import { replayComposite } from "../../src/signals/index.js";
import { THRESHOLD, generateBars } from "../bench/backtestData.js";

const replays = Number(process.argv[2] ?? 3);
const n = Number(process.argv[3] ?? 200_000);
const pauseMs = Number(process.argv[4] ?? 500);
const c = generateBars(n, 42);
const cols = { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas };
let check = 0;
for (let r = 0; r < replays; r++) {
  // A pause between replays: V8 installs a loop compiled in the background at the main thread's next
  // check, so the code made during one replay is in place before the next builds its model.
  if (r > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  console.log(`phase replay ${r}`);
  const label = replayComposite(cols, { threshold: THRESHOLD }).label;
  for (let i = 0; i < label.length; i++) check += label[i] as number;
}
console.log(`phase end ${Number.isFinite(check)}`);
