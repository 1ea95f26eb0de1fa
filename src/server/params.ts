import { toEpochMs } from "../data/toEpochMs.js";
import { COINS, isCoin, type Coin } from "../domain/coins.js";
import { ReplayError } from "./ReplayError.js";

/** Parse an optional `coin` query parameter (case-insensitive); 400 on anything else. */
export function coinParam(query: URLSearchParams): Coin | undefined {
  const raw = query.get("coin");
  if (raw === null || raw === "") return undefined;
  const up = raw.toUpperCase();
  if (!isCoin(up)) throw new ReplayError(400, "bad_coin", `coin must be one of ${COINS.join(", ")}, got ${JSON.stringify(raw)}`);
  return up;
}

/** Parse a comma list of coins (all four when absent). */
export function coinListParam(query: URLSearchParams): Coin[] {
  const raw = query.get("coin") ?? query.get("coins");
  if (raw === null || raw === "") return [...COINS];
  return raw.split(",").map((c) => {
    const up = c.trim().toUpperCase();
    if (!isCoin(up)) throw new ReplayError(400, "bad_coin", `coin must be one of ${COINS.join(", ")}, got ${JSON.stringify(c)}`);
    return up;
  });
}

/** The coins a per-coin endpoint covers: the one asked for, or all four. */
export function coinsOf(query: URLSearchParams): Coin[] {
  const c = coinParam(query);
  return c === undefined ? [...COINS] : [c];
}

/** Parse a time given as ISO 8601 (no offset = UTC) or epoch milliseconds, by the library's one time rule (`toEpochMs`); 400 unless 1970..2099. */
export function timeParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  const t = toEpochMs(raw, { invalid: "nan" });
  if (Number.isNaN(t)) {
    throw new ReplayError(400, "bad_time", `${name} must be ISO 8601 (no offset = UTC) or epoch milliseconds from 1970 to 2099, got ${JSON.stringify(raw)}`);
  }
  return t;
}

/** Parse a bounded positive integer parameter. */
export function intParam(query: URLSearchParams, name: string, dflt: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return dflt;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new ReplayError(400, `bad_${name}`, `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return v;
}
