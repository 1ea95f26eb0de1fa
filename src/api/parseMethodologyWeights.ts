const ALIASES: Readonly<Record<string, string>> = {
  imbalance: "imbalance",
  funding: "funding",
  basis: "basis_spread",
  basis_spread: "basis_spread",
  momentum: "momentum_5m",
  momentum_5m: "momentum_5m",
  gas: "gas",
  volatility: "volatility",
  correlation: "correlation",
};

const PATTERN = /\b(imbalance|funding|basis(?:[ _]spread)?|momentum(?:[ _]5m)?|gas|volatility|correlation)\b[^\d%,;]{0,20}?(\d+(?:\.\d+)?)\s*%/gi;

/**
 * Component weights stated in the composite's `methodology` text, as
 * fractions keyed by component name ("imbalance 30%" -> `{imbalance: 0.3}`;
 * "basis" -> `basis_spread`, "momentum" -> `momentum_5m`). When the text
 * states no weight, returns no weights (`{}`) with `source: "default"`: the
 * client only reads the text; the composite model's defaults live with the
 * signals (src/signals DEFAULT_WEIGHTS), which decide what an absent weighting means.
 * @example parseMethodologyWeights("imbalance 30%, funding 25%, basis 20%, momentum 15%, gas 10%").weights.basis_spread // 0.2
 */
export function parseMethodologyWeights(text: string): { weights: Record<string, number>; source: "methodology" | "default" } {
  const weights: Record<string, number> = {};
  for (const m of text.matchAll(PATTERN)) {
    const name = ALIASES[(m[1] ?? "").toLowerCase().replace(" ", "_")];
    if (name !== undefined && weights[name] === undefined) weights[name] = Number(m[2]) / 100;
  }
  return { weights, source: Object.keys(weights).length === 0 ? "default" : "methodology" };
}
