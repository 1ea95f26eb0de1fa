import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * The catalog's metric id format: 1 to 128 ASCII letters, digits, `_` or `-`
 * (every id of the snapshot catalog, e.g. `btc_price`, `eth_basefee_gwei`).
 * Spaces, slashes, dots and anything else are refused, so an id can never
 * change the path or another parameter of a request.
 */
export const METRIC_ID_FORMAT = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Validate a metric id against {@link METRIC_ID_FORMAT} (surrounding spaces trimmed).
 * @throws InvalidArgumentError naming `where`, the id and the allowed characters.
 * @example parseMetricId(" btc_price ", "history") // "btc_price"
 */
export function parseMetricId(value: unknown, where: string, argument = "metricId"): string {
  const id = typeof value === "string" ? value.trim() : value;
  if (typeof id === "string" && METRIC_ID_FORMAT.test(id)) return id;
  const shown = typeof value === "string" && value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}... (${value.length} chars)` : JSON.stringify(value);
  throw new InvalidArgumentError(
    argument,
    `${where}: ${argument} must be a catalog metric id (1-128 letters, digits, _ or -, e.g. "btc_price"), got ${shown}`,
  );
}
