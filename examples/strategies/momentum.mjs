/**
 * An example strategy module for `milab backtest|sweep|paper --strategy`.
 *
 * Momentum: long when the close is above the close `n` bars earlier, flat otherwise.
 * `strategy` is a plain function of the bars' columns (time, open, high, low, close and the
 * coin's metrics, e.g. btc_funding_rate) and the parameters; the position at bar i reads bars
 * 0..i only. It writes into `out` (a column of zeros the engine lends it) and uses nothing from
 * outside its own text, so a sweep can run it in worker threads.
 */
export const strategy = (c, p, out) => {
  const close = c.close;
  for (let i = 0; i < close.length; i++) out[i] = i >= p.n && close[i] > close[i - p.n] ? 1 : 0;
  return out;
};

/** The parameters `milab backtest` and `milab paper` use (override with --params '{"n":40}'). */
export const params = { n: 20 };

/** What `milab sweep --strategy` tries: every n with and without a 2% stop-loss (a backtest option as a parameter). */
export const grid = { n: [5, 10, 20, 40, 80], stopLoss: [null, 0.02] };
