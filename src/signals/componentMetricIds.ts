import { parseCoin } from "../domain/coins.js";
import type { ComponentName } from "./weights.js";

/**
 * The catalog metric ids of `/v1/history` (and the analytics `metrics`
 * dataset) that hold a coin's composite component values: `<coin>_imbalance`
 * (bid share), `<coin>_funding_rate` (hourly, decimal), `<coin>_basis_bps`,
 * `<coin>_momentum_5m_pct` and, for every coin, `eth_basefee_live` (gwei).
 * Pass it as `columns` to {@link replayComposite} to replay a history panel
 * whose columns are named by metric id.
 * @throws InvalidArgumentError for an unknown coin
 * @example componentMetricIds("btc").funding // "btc_funding_rate"
 */
export function componentMetricIds(coin: string): Readonly<Record<ComponentName, string>> {
  const p = parseCoin(coin, "componentMetricIds").toLowerCase();
  return Object.freeze({
    imbalance: `${p}_imbalance`,
    funding: `${p}_funding_rate`,
    basis_spread: `${p}_basis_bps`,
    momentum_5m: `${p}_momentum_5m_pct`,
    gas: "eth_basefee_live",
  });
}
