import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { parseCoin } from "../domain/coins.js";
import type { QueryValue } from "./transport/createTransport.js";

/** Extra query parameters: plain string, number or boolean values (undefined is skipped). */
export type QueryParams = Readonly<Record<string, QueryValue | undefined>>;

/**
 * Check query parameters before any request: a plain object whose values are
 * strings, finite numbers or booleans (undefined values are dropped); a
 * `coin` value must be a tracked coin (lower case accepted, sent upper case).
 * @throws InvalidArgumentError naming the function, parameter, value and what is allowed
 * @example checkQueryParams("squeeze", { coin: "sol", window: 5 }) // { coin: "SOL", window: 5 }
 */
export function checkQueryParams(where: string, params: unknown): Record<string, QueryValue> {
  if (params === undefined || params === null) return {};
  if (typeof params !== "object" || Array.isArray(params)) {
    throw new InvalidArgumentError("params", `${where}: params must be an object of query parameters, got ${JSON.stringify(params)}`);
  }
  const out: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const ok = typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
    if (!ok) {
      const got = typeof value === "number" ? String(value) : (JSON.stringify(value) ?? typeof value);
      throw new InvalidArgumentError(key, `${where}: parameter ${key} must be a string, finite number or boolean, got ${got}`);
    }
    out[key] = key === "coin" ? parseCoin(value, where) : value;
  }
  return out;
}
