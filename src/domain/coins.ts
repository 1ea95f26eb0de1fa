import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** The four assets the Market Intelligence API tracks. */
export const COINS = ["BTC", "ETH", "SOL", "HYPE"] as const;

/** One of the tracked assets, upper case. */
export type Coin = (typeof COINS)[number];

/** True when `value` is a tracked coin in canonical (upper-case) form. */
export function isCoin(value: unknown): value is Coin {
  return typeof value === "string" && (COINS as readonly string[]).includes(value);
}

/**
 * Validate and canonicalise a coin ticker (lower case is accepted).
 * @throws InvalidArgumentError naming the allowed values.
 * @example parseCoin("eth", "history") // "ETH"
 */
export function parseCoin(value: unknown, where: string): Coin {
  const upper = typeof value === "string" ? value.trim().toUpperCase() : value;
  if (isCoin(upper)) return upper;
  throw new InvalidArgumentError(
    "coin",
    `${where}: coin must be one of ${COINS.join(", ")} (lower case accepted), got ${JSON.stringify(value)}`,
  );
}
