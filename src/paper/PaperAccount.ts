import { prepareBacktest, type BacktestOptions } from "../backtest/backtest.js";
import { blockTargetsInto } from "../backtest/blockTargetsInto.js";
import { kernelSettings, type Execution } from "../backtest/execution.js";
import { KernelState, runKernel, type KernelSeries } from "../backtest/kernel/index.js";
import { TargetDelay } from "../backtest/TargetDelay.js";
import { TargetStream } from "../backtest/targetPositions.js";

/**
 * Bars of a paper account's kernel run: the run never ends (the kernel fills the decision
 * at every close but the run's last, and closes open trades after it), so a paper bar is
 * booked as bar i of a backtest of any longer run.
 */
const OPEN_ENDED = Number.MAX_SAFE_INTEGER;

/** What the engine booked at one closed bar (the backtest's series at that bar). */
export interface BookedBar {
  /** Target position (fraction of equity) the kernel filled at this bar: the strategy's decision after latency and the carry over a bar without a close. */
  readonly target: number;
  /** Account value at this close, before this close's fill. */
  readonly equity: number;
  /** Simple return of this bar (NaN at bar 0). */
  readonly returns: number;
  /** Units held after this bar's fill. */
  readonly holdings: number;
  /** Net weight held after this bar's fill. */
  readonly exposure: number;
  /** Traded notional / equity at this bar. */
  readonly turnover: number;
  /** Fees (with slippage, spread and impact) of this bar's fills and exits. */
  readonly fees: number;
  /** Funding paid over this bar (positive = paid). */
  readonly fundingPaid: number;
}

/** The fields of {@link BookedBar}, in ledger order. */
export const BOOKED_FIELDS = ["target", "equity", "returns", "holdings", "exposure", "turnover", "fees", "fundingPaid"] as const;

/**
 * The target the engine fills at the last bar of `options` (bar n-1): the backtest's target rule
 * run over the bars [0, n) only (blockTargetsInto: rule, latency, carry), so it sees nothing
 * after bar n-1. Also returns the checked execution and the kernel's view of the bars.
 * @internal
 */
export function decideLast(options: BacktestOptions, where: string): { target: number; exec: Execution; prepared: ReturnType<typeof prepareBacktest> } {
  const prepared = prepareBacktest(options, where);
  const n = prepared.n;
  const buf = new Float64Array(n);
  blockTargetsInto(prepared.rule, new TargetStream(), prepared.exec.delayBars > 0 ? new TargetDelay(prepared.exec.delayBars) : undefined, prepared.coin.close, 0, n, buf);
  return { target: n === 0 ? Number.NaN : (buf[n - 1] as number), exec: prepared.exec, prepared };
}

/**
 * A paper account: the backtest engine's kernel (src/backtest/kernel, the one definition of
 * fills, fees, slippage, funding, stops and ruin) advanced one closed bar at a time. Bar i
 * runs the kernel over [i, i+1) with the target decided at bar i, exactly as a backtest's
 * pass runs that bar (the kernel is resumable block by block; a bar is a block of one), so
 * every booked series equals the backtest's at that bar, except that the decision at the
 * last recorded bar is filled here (a backtest never fills its last bar's decision: it has
 * no bar to hold it over; it does once the next bar is recorded).
 */
export class PaperAccount {
  private readonly st: KernelState;
  private readonly execKey: string;

  /** @param exec the execution rules of the run (from the strategy's backtest options) */
  constructor(exec: Execution) {
    this.st = new KernelState(1, kernelSettings(exec, OPEN_ENDED), undefined);
    this.execKey = JSON.stringify(exec);
  }

  /** Bars booked so far (the next bar to book). */
  get bars(): number {
    return this.st.next;
  }

  /**
   * Book bar i = `bars` from the strategy's backtest options over bars [0, i] (the data up to
   * this bar only): its target, then one kernel step. Throws if the execution rules changed.
   */
  book(options: BacktestOptions, where: string): BookedBar {
    const { target, exec, prepared } = decideLast(options, where);
    const i = this.st.next;
    if (prepared.n !== i + 1) throw new Error(`${where}: internal: booking bar ${i} from ${prepared.n} bars`);
    if (JSON.stringify(exec) !== this.execKey) throw new Error(`${where}: internal: the execution rules changed between bars`);
    const one = (): Float64Array => new Float64Array(1);
    const units = one();
    const out: KernelSeries = { base: i, equity: one(), returns: one(), exposure: one(), turnover: one(), fees: one(), fundingPaid: one(), units: [units], weights: undefined };
    runKernel(this.st, [prepared.coin], [Float64Array.of(target)], i, i, i + 1, out);
    return {
      target,
      equity: (out.equity as Float64Array)[0] as number,
      returns: (out.returns as Float64Array)[0] as number,
      holdings: units[0] as number,
      exposure: (out.exposure as Float64Array)[0] as number,
      turnover: (out.turnover as Float64Array)[0] as number,
      fees: (out.fees as Float64Array)[0] as number,
      fundingPaid: (out.fundingPaid as Float64Array)[0] as number,
    };
  }

  /**
   * Replay bars [0, m) already booked, with their recorded targets (a restart): the kernel over
   * them in one run, returning its series so the caller can check them against the ledger.
   */
  replay(options: BacktestOptions, targets: Float64Array, where: string): Record<(typeof BOOKED_FIELDS)[number], Float64Array> {
    const prepared = prepareBacktest(options, where);
    const m = targets.length;
    if (this.st.next !== 0) throw new Error(`${where}: internal: replay of a used account`);
    const col = (): Float64Array => new Float64Array(m);
    const s = { target: Float64Array.from(targets), equity: col(), returns: col(), holdings: col(), exposure: col(), turnover: col(), fees: col(), fundingPaid: col() };
    const out: KernelSeries = { base: 0, equity: s.equity, returns: s.returns, exposure: s.exposure, turnover: s.turnover, fees: s.fees, fundingPaid: s.fundingPaid, units: [s.holdings], weights: undefined };
    if (m > 0) runKernel(this.st, [prepared.coin], [s.target], 0, 0, m, out);
    return s;
  }
}
