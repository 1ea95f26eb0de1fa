/**
 * Child script of test/backtest/settingsMap.test.ts (bundled, run under `node --allow-natives-syntax`:
 * test/support/v8Trace.ts): CALLS fused backtest passes (prepareBacktest + runPass, as backtest() makes
 * them, the closes checked in the generated loop) over N seeded bars, each with its own settings object as
 * every call builds; prints "changes <k>": how many calls' run settings (KernelState.settings, the copy
 * runPass makes with the close check's `where`) had another hidden class than the call before's
 * (V8's %HaveSameMap), then "phase end true".
 */
import { prepareBacktest, runPass } from "../../src/backtest/backtest.js";
import { replayComposite } from "../../src/signals/index.js";
import { FEE_BPS, SLIPPAGE_BPS, THRESHOLD, generateBars } from "../bench/backtestData.js";

const calls = Number(process.argv[2] ?? 40);
const n = Number(process.argv[3] ?? 5_000);
const c = generateBars(n, 42);
const cols = { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas };
const base = { close: c.close, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 };
const equity = new Float64Array(n);
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's natives syntax is not TypeScript
const sameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as (a: object, b: object) => boolean;
let previous: object | undefined;
let changes = 0;
for (let k = 0; k < calls; k++) {
  const p = prepareBacktest({ ...base, signal: replayComposite(cols, { threshold: THRESHOLD }) }, "backtest");
  const out = { base: 0, equity, returns: undefined, turnover: undefined, exposure: undefined, fees: undefined, fundingPaid: undefined, units: undefined, weights: undefined };
  const settings = runPass(p.rule, p.coin, p.settings, 0, out, undefined, "backtest").state.settings;
  if (previous !== undefined && !sameMap(settings, previous)) changes++;
  previous = settings;
}
console.log(`changes ${changes}`);
console.log(`phase end ${Number.isFinite(equity[n - 1] as number)}`);
