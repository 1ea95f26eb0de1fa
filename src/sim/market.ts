import { COINS, type Coin } from "../domain/coins.js";
import { createRng } from "../random/prng.js";

/** One coin's simulated one-minute path. Every array has `minutes` entries. */
export interface CoinPath {
  /** Spot OHLC (USD) and volume (coins) of each minute bar; bar i covers [time_i, time_i + 60 s). */
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  /** Perpetual-swap mark price at the close (USD). */
  readonly perp: Float64Array;
  /** (perp - spot) / spot at the close, in basis points. */
  readonly basisBps: Float64Array;
  /** Hourly funding rate in force during the minute (decimal per hour); changes on the hour. */
  readonly funding: Float64Array;
  /** Bid share of book depth near mid at the close (0..1). */
  readonly imbalance: Float64Array;
  /** Open interest in USD. */
  readonly openInterestUsd: Float64Array;
}

/** A simulated market: four coins plus chain-wide series, at one-minute resolution. */
export interface SimMarket {
  readonly seed: number;
  /** Epoch ms of the first bar (a whole minute). */
  readonly start: number;
  readonly minutes: number;
  /** Bar open times, epoch ms. */
  readonly time: Float64Array;
  readonly coins: Readonly<Record<Coin, CoinPath>>;
  /** Ethereum base fee in gwei. */
  readonly baseFeeGwei: Float64Array;
  /** Hidden market state: 0 calm, 1 trending up, 2 trending down, 3 volatile. */
  readonly state: Uint8Array;
}

interface CoinParams {
  price: number;
  annualVol: number;
  /** Loading on the common factor (correlation with it). */
  loading: number;
  basisMeanBps: number;
  oiUsd: number;
}

/** Price levels and risk of each coin, chosen to look like late-2025 markets. */
export const COIN_PARAMS: Readonly<Record<Coin, CoinParams>> = {
  BTC: { price: 95_000, annualVol: 0.5, loading: 0.92, basisMeanBps: 3, oiUsd: 3.2e10 },
  ETH: { price: 3_400, annualVol: 0.65, loading: 0.9, basisMeanBps: 4, oiUsd: 1.4e10 },
  SOL: { price: 180, annualVol: 0.85, loading: 0.86, basisMeanBps: 5, oiUsd: 4.5e9 },
  HYPE: { price: 35, annualVol: 1.1, loading: 0.55, basisMeanBps: 7, oiUsd: 1.6e9 },
};

const MINUTES_PER_YEAR = 525_600;
const STATE_VARIANCE = [0.55, 1, 1, 2.4];
const STATE_DRIFT = [0, 0.035, -0.035, 0];
const SWITCH_PROBABILITY = 1 / 1500;
const JUMP_PROBABILITY = 1 / 4000;
const IMBALANCE_EDGE = 0.045;

/**
 * Simulate `minutes` one-minute bars from `start` (floored to the minute).
 *
 * Model: a common factor with GARCH(1,1) variance (alpha .06, beta .92) scaled by
 * a hidden Markov state (calm, trending up/down, volatile; mean stay about 25 h)
 * drives correlated coin returns (loadings BTC .92, ETH .90, SOL .86, HYPE .55);
 * rare jumps; book imbalance follows an AR(1) latent whose previous value adds a
 * small drift to the next return (the real edge signal evaluation should find);
 * basis is an AR(1) in bps pushed by momentum; funding is reset each hour from the
 * last hour's basis; the base fee is a log AR(1) with spikes.
 *
 * The generator draws a fixed number of random numbers per minute, so a longer
 * simulation with the same seed and start has the shorter one as its exact prefix.
 * @example simulateMarket({ seed: 42, start: Date.UTC(2026, 0, 1), minutes: 1440 }).coins.BTC.close[1439]
 */
export function simulateMarket(options: { seed: number; start: number; minutes: number }): SimMarket {
  const { seed } = options;
  const minutes = Math.max(0, Math.floor(options.minutes));
  const start = Math.floor(options.start / 60_000) * 60_000;
  const rng = createRng(seed);
  const time = new Float64Array(minutes);
  const state = new Uint8Array(minutes);
  const baseFeeGwei = new Float64Array(minutes);
  const paths = {} as Record<Coin, CoinPath>;
  const alloc = (): Float64Array => new Float64Array(minutes);
  for (const coin of COINS) {
    paths[coin] = {
      open: alloc(), high: alloc(), low: alloc(), close: alloc(), volume: alloc(),
      perp: alloc(), basisBps: alloc(), funding: alloc(), imbalance: alloc(), openInterestUsd: alloc(),
    };
  }
  const last = COINS.map((c) => COIN_PARAMS[c].price);
  const latent = COINS.map(() => 0);
  const basis = COINS.map((c) => COIN_PARAMS[c].basisMeanBps);
  const basisHourSum = COINS.map(() => 0);
  const funding = COINS.map(() => 0.0000125);
  const oi = COINS.map((c) => COIN_PARAMS[c].oiUsd);
  let h = 1;
  let prevShock = 0;
  let regime = 0;
  let logGas = Math.log(0.6);

  for (let i = 0; i < minutes; i++) {
    const t = start + i * 60_000;
    time[i] = t;
    if (rng.uniform() < SWITCH_PROBABILITY) regime = Math.floor(rng.uniform() * 4) % 4;
    else rng.uniform();
    state[i] = regime;
    h = 0.02 * (STATE_VARIANCE[regime] ?? 1) + 0.06 * prevShock * prevShock * h + 0.92 * h;
    const z = rng.normal();
    prevShock = z;
    const newHour = t % 3_600_000 === 0;

    for (let c = 0; c < COINS.length; c++) {
      const coin = COINS[c] as Coin;
      const p = COIN_PARAMS[coin];
      const path = paths[coin];
      const sigma = p.annualVol / Math.sqrt(MINUTES_PER_YEAR);
      const e = rng.normal();
      const jumpDraw = rng.uniform();
      const jumpSize = rng.normal();
      const hiDraw = rng.normal();
      const loDraw = rng.normal();
      const latentNoise = rng.normal();
      const basisNoise = rng.normal();
      const fundingNoise = rng.normal();

      const vol = sigma * Math.sqrt(h);
      let r = vol * (p.loading * z + Math.sqrt(1 - p.loading * p.loading) * e);
      r += sigma * (STATE_DRIFT[regime] ?? 0) + IMBALANCE_EDGE * sigma * (latent[c] ?? 0);
      if (jumpDraw < JUMP_PROBABILITY) r += 12 * sigma * jumpSize;

      const open = last[c] ?? p.price;
      const close = open * Math.exp(r);
      path.open[i] = open;
      path.close[i] = close;
      path.high[i] = Math.max(open, close) * Math.exp(Math.abs(hiDraw) * vol * 0.35);
      path.low[i] = Math.min(open, close) * Math.exp(-Math.abs(loDraw) * vol * 0.35);
      path.volume[i] = (p.oiUsd / p.price / 2000) * (1 + (2 * Math.abs(r)) / sigma);
      last[c] = close;

      const x = 0.97 * (latent[c] ?? 0) + Math.sqrt(1 - 0.97 * 0.97) * latentNoise;
      latent[c] = x;
      path.imbalance[i] = Math.min(0.98, Math.max(0.02, 0.5 + 0.25 * Math.tanh(0.9 * x)));

      const b = 0.995 * (basis[c] ?? 0) + 0.005 * p.basisMeanBps + 0.6 * basisNoise + 2000 * r;
      basis[c] = b;
      path.basisBps[i] = b;
      path.perp[i] = close * (1 + b / 1e4);

      if (newHour && i > 0) {
        const avgBasis = (basisHourSum[c] ?? 0) / 60;
        funding[c] = 0.5 * (funding[c] ?? 0) + 0.5 * (0.0000125 + avgBasis * 2e-6) + 0.00001 * fundingNoise;
        basisHourSum[c] = 0;
      }
      basisHourSum[c] = (basisHourSum[c] ?? 0) + b;
      path.funding[i] = funding[c] ?? 0;
      oi[c] = (oi[c] ?? p.oiUsd) * Math.exp(0.002 * latentNoise - 0.0000001 * Math.log((oi[c] ?? p.oiUsd) / p.oiUsd));
      path.openInterestUsd[i] = oi[c] ?? p.oiUsd;
    }

    const gasNoise = rng.normal();
    const spike = rng.uniform();
    logGas = 0.998 * logGas + 0.002 * Math.log(0.6) + 0.03 * gasNoise + (spike < 1 / 3000 ? 1.2 : 0);
    baseFeeGwei[i] = Math.exp(logGas);
  }
  return { seed, start, minutes, time, coins: paths, baseFeeGwei, state };
}
