import { acceptedPrice } from "../acceptedPrice.js";
import { MAX_AMOUNT } from "../execution.js";
import { costRateOf, fillFee, fillTurnover } from "./fillCost.js";
import { inlineExpression, numberSource } from "./inlineExpression.js";
import type { KernelState } from "./KernelState.js";
import type { KernelCoin, KernelSeries } from "./runKernel.js";

/** The kernel's loop over bars lo..hi-1 of a run (see runKernel). @internal */
export type SpanLoop = (st: KernelState, coins: readonly KernelCoin[], targets: readonly Float64Array[], targetBase: number, lo: number, hi: number, out: KernelSeries) => void;

/**
 * What a run's loop is compiled for: the execution modes, whether it accumulates, which series it
 * writes and (one coin) which optional columns it reads. Every field is fixed for a whole run. @internal
 */
export interface LoopShape {
  readonly one: boolean;
  readonly nextOpen: boolean;
  readonly exits: boolean;
  readonly everyBar: boolean;
  readonly whole: boolean;
  /** Fractional units rebalanced every bar (KernelState.byWeight): a fill's cost is on |w - w_prev| x account value. */
  readonly byWeight: boolean;
  readonly accumulate: boolean;
  readonly equity: boolean;
  readonly returns: boolean;
  readonly exposure: boolean;
  readonly fundingPaid: boolean;
  readonly units: boolean;
  readonly weights: boolean;
  readonly fees: boolean;
  readonly turnover: boolean;
  /** One coin: it has a funding column (many coins: false, read per coin). */
  readonly funding: boolean;
  /** One coin: it has a quoted-spread column (many coins: false, read per coin). */
  readonly spread: boolean;
  /** One coin: it has a market-impact column (many coins: false, read per coin). */
  readonly impact: boolean;
  /**
   * The open trades' books are kept (a trade log is recorded, or intrabar exits read them): without
   * it (a sweep variant) a fill that opens a trade only counts it, and nothing else of the ledger
   * (its P&L, funding, fees, largest size) is moved: none of it feeds back into the account.
   */
  readonly ledger: boolean;
  /** One coin: each close is checked as it is read (KernelSettings.checkClose; rules.badClose throws at the first refused). */
  readonly checkClose: boolean;
}

/** The rules the loop calls out of line (rare events, and small rules shared with exitsInBar). @internal */
export interface SpanRules {
  exitsInBar(st: KernelState, coins: readonly KernelCoin[], i: number, atOpen: boolean, feesOut: Float64Array | undefined, turnoverOut: Float64Array | undefined, j: number): void;
  ruin(st: KernelState, K: number, i: number): void;
  stillFlat(st: KernelState, k: number, w: number): boolean;
  wholeUnits(st: KernelState, k: number, w: number, E: number, p: number): number;
  feeOf(st: KernelState, coin: KernelCoin, k: number, traded: number, E: number, impactBar: number, feesOut: Float64Array | undefined, turnoverOut: Float64Array | undefined, j: number): number;
  addFee(st: KernelState, k: number, fee: number): void;
  tradeEvent(st: KernelState, k: number, i: number, p: number, old: number, nu: number, heldPrev: number, w: number, fee: number): void;
  /** Throw checkPrices' error for close[i], a price acceptedPrice refused, in the name of `st.settings.checkClose`. */
  badClose(st: KernelState, close: ArrayLike<number>, i: number): void;
}

/**
 * The kernel's bar loop, written once below as the source of a JavaScript function and
 * compiled for each shape of run it meets (LoopShape: the modes and series as literals, so
 * the JIT keeps only the code a run uses), in two forms: for one instrument (`one`: its columns, units, reference price and held
 * weight in local variables, the way a hand-written single-asset loop holds them) and for
 * any number (the same code over the per-coin arrays of the state, a loop over coins
 * where the first has a block). The two differ only in where a coin's numbers live: every
 * rule is written once, in the snippets of this file, so a change to a rule changes both.
 * Why: a loop that reads a coin's state from typed arrays and its columns through
 * `coins[k]` costs about three times one that holds them in locals (the JIT keeps neither
 * in registers), and the one-coin case is the common one (every backtest and sweep variant).
 *
 * The rules, in the order of a bar i:
 * 1. (i >= 1) intrabar exits at the open (exitsInBar, when stopLoss / takeProfit /
 *    maintenanceMargin is set); under next_open, every coin marked to the open (the gap on
 *    the old units), ruin if the account is then worth <= 0 (its value capped at 0), and the last close's decisions
 *    filled at the open, every coin at that account value;
 * 2. funding on the units held over the bar at the bar's starting reference price (longs pay
 *    a positive rate); exits inside the bar's range; each coin marked to its close (a NaN close
 *    keeps the last price): the account value moves by units x price change, which is also the
 *    open trade's P&L;
 * 3. ruin when the account value is <= 0 (runKernel's ruin: everything closed, the value capped
 *    at 0, the loss never exceeding the collateral); equity E = the account value at the close;
 *    the return E / E_prev - 1 (0 when unchanged), its sums, the running peak and the maximum
 *    drawdown (those only when asked for: the returns series or `accumulate`);
 * 4. the decisions of this close: under next_close filled now (every coin at account value E;
 *    not at the last bar, not after ruin), under next_open kept for the next open;
 * 5. each coin's weight at the close, units x reference price / E, and the net and gross
 *    exposure (when asked for: the exposure or weight series, or `accumulate`).
 *
 * The fill rule (FILL below), at price p with account value E:
 * - after an intrabar exit the coin stays flat while the target equals the one in force at the exit;
 * - on-change rebalancing skips a target equal to the held one (a whole-unit target the
 *   account could not yet afford is retried);
 * - fractional units: w E / p units (computed E x (w / p), which keeps the division off the
 *   account value's chain from bar to bar); whole units: floor(E |w| / (p (1 + rate))) units;
 * - cost: rate x traded, the rate (fee + slippage) / 1e4 plus half the last known quoted
 *   spread (carried bar by bar: a NaN keeps the last finite one; costRate), traded |w - w_prev| E under every-bar fractional rebalancing (docs/DESIGN.md),
 *   the notional of the units traded otherwise, plus the square-root market impact (feeOf);
 * - the units change hands at the reference price, so the account value falls by the fee only;
 * - the trade ledger closes on 0 or a flip and opens on leaving 0 or a flip (tradeEvent); a trade
 *   opened (leaving 0, or a flip to a non-zero holding) is counted (KernelState.trades).
 * @internal
 */
export function compileSpanLoop(shape: LoopShape, rules: SpanRules): Peeled<SpanLoop> {
  const { shared, prologue, columns, check, bar, bar0, epilogue } = loopSource(shape, undefined, true);
  const compile = (name: string, body: string): SpanLoop => {
    const source = `${shared} ${prologue}
    for (let i = lo; i < hi; i++) {
      const j = i - outBase;
      ${columns} ${check}
      ${body}
    }
    ${epilogue}`;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the loop's source is generated above, from this file only
    return new Function("rules", `"use strict"; return function ${name}(st, coins, targets, targetBase, lo, hi, out) {${source}\n};`)(rules) as SpanLoop;
  };
  const name = shape.one ? "spanLoopOneCoin" : "spanLoopManyCoins";
  return { first: compile(`${name}Bar0`, bar0), rest: compile(name, bar) };
}

/**
 * A generated loop as two functions compiled from the same source text: `first` runs bar 0 alone
 * (its first close read, no open or close events), `rest` bars 1 and later (no test of the bar
 * index). Why: the loop is called span by span, and bar 0 runs once per run, before V8 keeps any
 * feedback for a new function (it allocates none during its first few bars of work); a bar-0
 * branch inside the hot loop was then code V8 had never seen run, optimised as a deoptimisation
 * point, and the next run's bar 0 deoptimised the loop, often while its on-stack-replacement
 * compile was in flight, after which V8 ran the slower OSR code for the rest of the process
 * (issue 32: 7 of 10 fresh processes, and every process after a short warm-up run). The caller
 * runs `first` over [0, 1) then `rest` from bar 1 (runKernel's spans).
 * @internal
 */
export interface Peeled<F> {
  readonly first: F;
  readonly rest: F;
}

/**
 * How a generated loop over several one-coin accounts (compileVariantLoop) computes each account's
 * target: source text run once per bar before the accounts (`bar`, which may read `i`, the
 * coin's columns `close0`, `funding0` and its close at bar i, `close_i`), and the expression of account s's target at that bar
 * (`target(s)`), with what its locals need before and after the span (`prologue`, `epilogue`).
 * @internal
 */
export interface VariantSignalSource {
  readonly prologue: string;
  readonly bar: string;
  readonly epilogue: string;
  target(s: number): string;
  /**
   * Source text reading the coin's columns at bar i in place of the loop's own (`close_i`, and
   * `funding_i` when the coin has funding), from where the signal holds the same numbers (a sweep's
   * plan: one buffer for every column of a bar). Its values must be the coin's `close[i]` and `funding[i]`.
   */
  readonly columns?: string;
  /**
   * The loop's parameters (`P`) for the priming bars (kernel/primingBars.ts): columns of the kinds
   * the run reads whose targets follow the priming bars' signs, so that a new loop runs its common
   * branches before V8 optimises it (runVariants). Absent, or undefined returned: not primed there.
   */
  readonly priming?: () => unknown;
}

/** The loop over several one-coin accounts, lo..hi-1 of a run: `signal` computes their targets (see compileVariantLoop). @internal */
export type VariantLoop = (sts: readonly KernelState[], coins: readonly KernelCoin[], params: unknown, lo: number, hi: number, out: KernelSeries) => void;

/**
 * The span loop for `accounts` one-coin accounts (KernelStates, each its own run: the
 * variants of a sweep) over the same coin, in one pass over the bars: the coin's columns are
 * read once per bar, the signal's `bar` source computes what the accounts share (a composite's
 * scores, once per bar) and each account's target, then each account's bar is the one-coin
 * bar of {@link compileSpanLoop}, the same source with the account's locals renamed (suffix
 * `_s`), so every rule is still written once. The shape must be a one-coin shape, with no
 * per-bar series for more than one account (a sweep reads the accumulators; one account, a
 * backtest, writes its series into `out`); keep `accounts` <= 8 (a larger function
 * falls out of V8's optimisation). `params` is passed to the signal's source as `P`.
 * @internal
 */
export function compileVariantLoop(shape: LoopShape, accounts: number, signal: VariantSignalSource, rules: SpanRules): Peeled<VariantLoop> {
  if (!shape.one || (accounts > 1 && anySeries(shape))) {
    throw new Error("compileVariantLoop: a one-coin shape is required, without per-bar series for more than one account");
  }
  // The fee written in place for one account (a backtest); several (a sweep's pass) call feeOf:
  // four copies of it made the pass ~2% slower (test/bench/sweepProfile.ts), one made a backtest ~4% faster.
  const { shared, prologue, columns, check, bar, bar0, epilogue, idle } = loopSource(shape, "tw", accounts === 1);
  const each = (part: string): string => Array.from({ length: accounts }, (_, s) => renameAccount(part, s)).join("\n");
  const states = Array.from({ length: accounts }, (_, s) => `const st_${s} = sts[${s}];`).join(" ");
  const targets = Array.from({ length: accounts }, (_, s) => `const tw_${s} = ${signal.target(s)};`).join(" ");
  const compile = (name: string, body: string): VariantLoop => {
    // An idle account's bar (see loopSource) only moves its reference price to the close.
    const account = idle === undefined ? `{ ${body} }` : `if (${idle}) { if (close_i === close_i) l0 = close_i; } else { ${body} }`;
    // One loop: the signal's part then each account's bar. (Two loops per span, the signal's targets
    // into a span buffer first as the bench's hand-written floor does, measured the same here.)
    const source = `const st = sts[0], targets = undefined, targetBase = 0, P = params; ${states}
    ${shared} ${each(prologue)} ${signal.prologue}
    for (let i = lo; i < hi; i++) {
      const j = i - outBase;
      ${signal.columns ?? columns} ${check}
      ${signal.bar}
      ${targets}
      ${each(account)}
    }
    ${each(epilogue)} ${signal.epilogue}`;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the loop's source is generated above and by the caller's signal
    return new Function("rules", `"use strict"; return function ${name}(sts, coins, params, lo, hi, out) {${source}\n};`)(rules) as VariantLoop;
  };
  return { first: compile(`variantLoop${accounts}Bar0`, bar0), rest: compile(`variantLoop${accounts}`, bar) };
}

/** Whether a shape writes any per-bar series. */
function anySeries(shape: LoopShape): boolean {
  return shape.equity || shape.returns || shape.exposure || shape.fundingPaid || shape.units || shape.weights || shape.fees || shape.turnover;
}

/** The names of one account's locals in the loop's source (its state, book and running numbers). */
const ACCOUNT = /(?<![\w$.])(st|units|last|held|pending|stopped|maxUnits|tradePnl|tradeFunding|value|sums|spread|baseRate|q0|l0|h0|pnl0|funded0|maxu0|V|E|peak|maxDrawdown|ddFloor|sumReturns|sumSquaredReturns|netExposure|grossExposure|ruined|tw)(?![\w$])/g;

/** Account s's copy of a part of the one-coin source: its locals suffixed `_s`. */
function renameAccount(part: string, s: number): string {
  return part.replace(ACCOUNT, `$1_${s}`);
}

/**
 * The source of the loop, in parts: `shared` (the run's constants, series and coin columns),
 * the account's locals loaded (`prologue`), one bar `i` (`bar`, with `j` = i - out.base), and
 * the locals saved back (`epilogue`). The target of a coin at bar i is `targets[k][i - targetBase]`,
 * or for one coin the local named `target` when it is given (variantLoop). `inlineFee`: a fill's fee
 * is written in place where it can be (FEE below), else feeOf is called.
 */
function loopSource(shape: LoopShape, target: string | undefined, inlineFee: boolean): { shared: string; prologue: string; columns: string; check: string; bar: string; bar0: string; epilogue: string; idle: string | undefined } {
  const one = shape.one;
  // A setting of the shape is written into the source as a literal, so the JIT drops the code of
  // every mode the run does not use; a series not asked for is the literal undefined.
  const flag = (b: boolean): string => (b ? "true" : "false");
  const series = (asked: boolean, name: string): string => (asked ? `out.${name}` : "undefined");
  // Where a coin's numbers live: locals for one coin, the state's arrays (index k) for many.
  const Q = one ? "q0" : "units[k]";
  const L = one ? "l0" : "last[k]";
  const H = one ? "h0" : "held[k]";
  const col = (name: string): string => (one ? `${name}0` : `coin.${name}`);
  // A coin's close and funding rate at bar i: for one coin read once per bar (`columns`, before
  // every account's bar), for many read per coin.
  const CLOSE = one ? "close_i" : "coin.close[i]";
  const PNL = one ? "pnl0" : "tradePnl[k]";
  const FUNDED = one ? "funded0" : "tradeFunding[k]";
  const MAXU = one ? "maxu0" : "maxUnits[k]";
  const TARGET = one ? "target0" : "targets[k]";
  const TARGET_AT = target ?? `${TARGET}[t]`;
  // The arrays hold the truth around every rule called out of line (they read and write them).
  const save = one ? "units[0] = q0; last[0] = l0; held[0] = h0; tradePnl[0] = pnl0; tradeFunding[0] = funded0; maxUnits[0] = maxu0;" : "";
  const load = one ? "q0 = units[0]; l0 = last[0]; h0 = held[0]; pnl0 = tradePnl[0]; funded0 = tradeFunding[0]; maxu0 = maxUnits[0]; ruined = st.ruinIndex >= 0;" : "ruined = st.ruinIndex >= 0;";
  const each = (body: string): string => (one ? `{ const k = 0; const coin = coin0; ${body} }` : `for (let k = 0; k < K; k++) { const coin = coins[k]; ${body} }`);
  const mark = (price: string): string => `{ const c = ${price}; if (c === c) { if (${Q} !== 0) { const d = ${Q} * (c - ${L}); V += d; ${shape.ledger ? `${PNL} += d;` : ""} } ${L} = c; } }`;
  // A fill's fee, booked with its turnover (feeOf); for one coin without a spread or impact column
  // (its cost rate the base rate plus the spread it started with, no impact), feeOf's rules written in place.
  const FEE = (impactBar: string): string =>
    inlineFee && one && !shape.spread && !shape.impact
      ? `let fee = 0;
        if (traded !== 0) {
          fee = ${inlineExpression(fillFee, [inlineExpression(costRateOf, ["baseRate", "spread[k]"]), "traded", "0"])};
          ${shape.fees ? "feesOut[j] += fee;" : ""}
          const to = ${inlineExpression(fillTurnover, ["traded", "fE"])};
          sums[5] += to;
          ${shape.turnover ? "turnoverOut[j] += to;" : ""}
        }`
      : `const fee = traded === 0 ? 0 : rules.feeOf(st, coin, k, traded, fE, ${impactBar}, feesOut, turnoverOut, j);`;
  const FILL = (w: string, p: string, e: string, impactBar: string): string => `{
    const fw = ${w}, fp = ${p}, fE = ${e};
    if (${shape.exits ? "!(stopped[k] === 1 && rules.stillFlat(st, k, fw))" : "true"}) {
      const old = ${Q}, heldPrev = ${H};
      if (${shape.everyBar ? "true" : `fw !== heldPrev${shape.whole ? " || (fw !== 0 && old === 0)" : ""}`}) {
        const nu = ${shape.whole ? "rules.wholeUnits(st, k, fw, fE, fp)" : "fE * (fw / fp)"};
        const traded = ${shape.byWeight ? "Math.abs(fw - heldPrev) * fE" : "Math.abs(nu - old) * fp"};
        ${FEE(impactBar)}
        ${H} = fw; ${L} = fp; ${Q} = nu;
        if (old > 0 ? !(nu > 0) : old < 0 ? !(nu < 0) : nu > 0 || nu < 0) { ${shape.ledger ? `${save} rules.tradeEvent(st, k, i, fp, old, nu, heldPrev, fw, fee); ${load}` : ""} if (nu !== 0) st.trades++; }
        ${shape.ledger ? `else if (nu !== 0) { if (fee !== 0) rules.addFee(st, k, fee); const a = Math.abs(nu); if (a > ${MAXU}) ${MAXU} = a; }` : ""}
        V -= fee;
      }
    }
  }`;
  // Code of a mode the run does not use is left out of the source (a smaller function compiles
  // faster and stays optimised); `when(c, code)` is the code when c holds.
  const when = (c: boolean, code: string): string => (c ? `{ ${code} }` : "");
  const weighing = shape.accumulate || shape.exposure || shape.weights;
  // The drawdown's division skipped where it cannot lower the maximum drawdown: ddFloor is
  // peak x (1 + maxDrawdown) raised by peak x 1e-9, far above the rounding of its terms (<= peak x 1e-15),
  // so E >= ddFloor (peak > 0) gives E / peak - 1 > maxDrawdown in floating point: no change. A NaN
  // floor or E computes it (!(E >= ddFloor)). Recomputed when the peak or the maximum moves (rare);
  // a division a bar fewer in a drawdown, the same numbers.
  const DD_FLOOR = "peak * (1 + maxDrawdown) + peak * 1e-9";
  // Funding per bar: read on every coin of a many-coin run (its own column), on one coin when it has a column.
  const fundings = !one || shape.funding;
  const shared = `
    const n = st.bars, K = coins.length;
    const accumulate = ${flag(shape.accumulate)}, nextOpen = ${flag(shape.nextOpen)}, exits = ${flag(shape.exits)};
    const everyBar = ${flag(shape.everyBar)}, whole = ${flag(shape.whole)}, byWeight = ${flag(shape.byWeight)};
    const equityOut = ${series(shape.equity, "equity")}, returnsOut = ${series(shape.returns, "returns")};
    const exposureOut = ${series(shape.exposure, "exposure")}, fundOut = ${series(shape.fundingPaid, "fundingPaid")};
    const unitsOut = ${series(shape.units, "units")}, weightsOut = ${series(shape.weights, "weights")};
    const feesOut = ${series(shape.fees, "fees")}, turnoverOut = ${series(shape.turnover, "turnover")}, outBase = out.base;
    ${
      one
        ? `const coin0 = coins[0], close0 = coin0.close, open0 = coin0.open;
           const funding0 = ${shape.funding ? "coin0.funding" : "undefined"}, spreadBps0 = ${shape.spread ? "coin0.spreadBps" : "undefined"};`
        : ""
    }
`;
  const prologue = `
    const units = st.units, last = st.last, held = st.held, pending = st.pending, stopped = st.stopped, maxUnits = st.maxUnits;
    const tradePnl = st.tradePnl, tradeFunding = st.tradeFunding, value = st.value, sums = st.sums, spread = st.spread, baseRate = st.baseRate;
    ${one ? `${target === undefined ? "const target0 = targets[0];" : ""} let q0 = units[0], l0 = last[0], h0 = held[0], pnl0 = tradePnl[0], funded0 = tradeFunding[0], maxu0 = maxUnits[0];` : ""}
    let V = value[0], E = sums[0], peak = sums[1], maxDrawdown = sums[2], sumReturns = sums[3], sumSquaredReturns = sums[4];
    let ddFloor = ${DD_FLOOR};
    let netExposure = sums[6], grossExposure = sums[7];
    let ruined = st.ruinIndex >= 0;`;
  // A bar's spread carried, then (bar i >= 1) its open and close events, or (bar 0) the first close read.
  const spreadCarry = one && !shape.spread ? "" : each(`const sq = ${col("spreadBps")}; if (sq !== undefined) { const v = sq[i]; if (v === v) spread[k] = v; }`);
  const later = `
        ${when(shape.exits, `value[0] = V; ${save} rules.exitsInBar(st, coins, i, true, feesOut, turnoverOut, j); ${load} V = value[0];`)}
        ${when(
          shape.nextOpen,
          `${each(mark(`${col("open")}[i]`))}
          if (V <= 0 && !ruined) { value[0] = V; ${save} rules.ruin(st, K, i); ${load} V = value[0]; }
          if (!ruined) {
            const Eo = V;
            ${each(`const o = ${col("open")}[i]; if (o === o) ${FILL("pending[k]", "o", "Eo", "i - 1")}`)}
          }`,
        )}
        ${fundings ? "let fpaid = 0;" : ""}
        ${each(`
          ${when(
            fundings,
            `const f = ${col("funding")};
            if (f !== undefined && ${Q} !== 0) {
              const r = ${one ? "funding_i" : "f[i]"};
              if (r === r && r !== 0) { const paid = ${Q} * ${L} * r; V -= paid; fpaid += paid; ${shape.ledger ? `${FUNDED} += paid;` : ""} }
            }`,
          )}
          ${shape.exits ? "" : mark(CLOSE)}`)}
        ${when(fundings && shape.fundingPaid, "if (fpaid !== 0) fundOut[j] = fpaid;")}
        ${when(
          shape.exits,
          `value[0] = V; ${save} rules.exitsInBar(st, coins, i, false, feesOut, turnoverOut, j); ${load} V = value[0];
          ${each(mark(CLOSE))}`,
        )}
        if (V <= 0 && !ruined) { value[0] = V; ${save} rules.ruin(st, K, i); ${load} V = value[0]; }
        const prev = E;
        E = V;
        // The return is 0 on an unchanged bar, which moves no accumulator: the sums gain 0 (they
        // are never -0: no return is), the peak already covers E (E = prev <= peak), and the
        // drawdown E / peak - 1 is the last bar's (already in the minimum) or 0 (the last bar
        // set the peak; the minimum is <= 0). So an unchanged bar (a flat account) skips them.
        ${when(
          shape.accumulate || shape.returns,
          `if (E !== prev) {
            const ret = E / prev - 1;
            ${when(shape.returns, "returnsOut[j] = ret;")}
            ${when(
              shape.accumulate,
              `sumReturns += ret;
              sumSquaredReturns += ret * ret;
              if (E > peak) { peak = E; ddFloor = ${DD_FLOOR}; }
              else if (!(E >= ddFloor)) { const dd = E / peak - 1; if (dd < maxDrawdown) { maxDrawdown = dd; ddFloor = ${DD_FLOOR}; } }`,
            )}
          } ${shape.returns ? "else returnsOut[j] = 0;" : ""}`,
        )}`;
  const first = `
        ${when(shape.returns, "returnsOut[j] = NaN;")}
        ${each(`const c = ${CLOSE}; if (c === c) ${L} = c;`)}`;
  const decisions = `
      ${when(shape.equity, "equityOut[j] = E;")}
      const t = i - targetBase;
      ${shape.nextOpen ? "" : "const fillNow = i < n - 1 && !ruined;"}
      ${weighing ? "let net = 0, gross = 0;" : ""}
      ${each(`
        ${shape.nextOpen ? `pending[k] = ${TARGET_AT};` : `if (fillNow) { const p = ${CLOSE}; if (p === p) ${FILL(`${TARGET_AT}`, "p", "E", "i")} }`}
        ${when(shape.units, `unitsOut[k][j] = ${Q};`)}
        ${when(
          weighing,
          `const wk = ${Q} === 0 || E === 0 ? 0 : (${Q} * ${L}) / E;
          ${when(shape.weights, "weightsOut[k][j] = wk;")}
          net += wk;
          gross += Math.abs(wk);`,
        )}`)}
      ${when(weighing, "netExposure += net; grossExposure += gross;")}
      ${when(shape.exposure, "exposureOut[j] = net;")}
`;
  const bar = `${spreadCarry} { ${later} } ${decisions}`;
  const bar0 = `${spreadCarry} { ${first} } ${decisions}`;
  const epilogue = `
    ${save}
    value[0] = V; sums[0] = E; sums[1] = peak; sums[2] = maxDrawdown; sums[3] = sumReturns; sums[4] = sumSquaredReturns;
    sums[6] = netExposure; sums[7] = grossExposure;`;
  const columns = one ? `const close_i = close0[i]; ${fundings ? "const funding_i = funding0[i];" : ""}` : "";
  // The close just read checked by the engine's price rule (acceptedPrice, its text in place): a branch never
  // taken on good data, instead of a pass over every close before the run (checkPrices; it throws from badClose).
  const check = one && shape.checkClose ? `if (!${inlineExpression(acceptedPrice, ["close_i", numberSource(MAX_AMOUNT)])}) rules.badClose(st, close0, i);` : "";
  // An idle account: flat (no units, no weight held), worth what it was at the last close (E,
  // finite: V - E === 0), and with a target of 0. Under every-bar fractional rebalancing at the close, with no
  // intrabar exits, ledger, spread or per-bar series, its bar moves nothing but the reference
  // price: no funding and no mark (no units), no ruin (its value was checked at the last close),
  // an unchanged value (the return accumulators skip: see above), a fill of E x (0 / p) = 0 units
  // with no fee (|0 - 0| traded) and no trade, a weight of 0. `idle` is that condition (one coin
  // only, else undefined); compileVariantLoop runs only the price's update when it holds.
  const idle =
    one && target !== undefined && shape.byWeight && shape.everyBar && !shape.nextOpen && !shape.exits && !shape.ledger && !shape.spread && !anySeries(shape)
      ? `${Q} === 0 && ${H} === 0 && ${target} === 0 && V - E === 0`
      : undefined;
  return { shared, prologue, columns, check, bar, bar0, epilogue, idle };
}
