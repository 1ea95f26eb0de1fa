/**
 * The simulation kernel, the one definition of the engine (internal; `backtest`,
 * `backtestPortfolio` and the research sweep all run it).
 *
 * Entry point: `runKernel(state, coins, targets, targetBase, lo, hi, series)`
 * advances a {@link KernelState} over bars lo..hi-1. A run is one call over
 * [0, n) or consecutive blocks [0, a), [a, b), ..., [z, n): the state carries
 * everything between blocks, so targets (and any per-bar series) can be computed
 * and consumed block by block in reused cache-sized buffers. After bar n-1 the
 * state holds the run's accumulators: `equity` (final), `sumReturns`,
 * `sumSquaredReturns`, `maxDrawdown`, `trades`, `turnover`, `netExposure`,
 * `grossExposure`, `ruinIndex`. Per-bar series are written only where a buffer is
 * given (`NO_SERIES`: none, so nothing of length n is touched), and the accumulators
 * other than the final equity, trades and turnover only when `settings.accumulate` is not
 * false. Optional execution rules are specialised inside the same loop: intrabar exits
 * (stop-loss, take-profit, liquidation: exitsInBar, only when one is set), market impact in
 * the fill rule (only for a coin with an impact scale); with none set the numbers are those
 * of the plain run.
 *
 * Layout: spanLoop.ts holds the bar loop and the per-coin rules (funding, mark, fill,
 * weights) written once as the source of a function, compiled per shape of run (modes and
 * series as constants: LoopShape), for one coin (its numbers in local variables) and for many
 * (the state's arrays); runKernel.ts the entry point and the
 * rules called out of line (fees, the trade ledger, ruin); exitsInBar.ts the intrabar exits.
 * The account is kept as its value at the reference prices, moved by each event (see
 * KernelState.value). `npx tsx test/bench/engineFingerprint.ts` records every series and
 * trade of 87 runs across the modes (and checks each sweep variant against a plain backtest), to compare before and after a change.
 *
 * The default mode of a sweep variant (fill next_close, fractional units, every-bar
 * rebalancing, fee + slippage on |w_i - w_{i-1}|, target +1 / -1 / 0 by labelCode):
 * @example
 * const st = new KernelState(1, { n, initialCash: 1, costBps: 7, nextOpen: false, whole: false, everyBar: true }, undefined);
 * const coin = kernelCoin({ close, funding });
 * const w = new Float64Array(BLOCK);
 * for (let lo = 0; lo < n; lo += BLOCK) {
 *   const hi = Math.min(n, lo + BLOCK);
 *   for (let i = lo; i < hi; i++) w[i - lo] = labelCode(composite(i), threshold); // the caller's composite
 *   runKernel(st, [coin], [w], lo, lo, hi, NO_SERIES); // or { ...NO_SERIES, base: lo, returns: buf }
 * }
 * st.equity; st.sumReturns; st.maxDrawdown; st.trades; // = backtest({ close, funding, signal, feeBps, slippageBps, initialCash: 1 })
 * @internal
 */
export { KernelState, type KernelSettings } from "./KernelState.js";
export { kernelCoin, NO_SERIES, runKernel, runVariants, type KernelCoin, type KernelSeries } from "./runKernel.js";
export type { VariantSignalSource } from "./spanLoop.js";
export { inlineExpression } from "./inlineExpression.js";
