import { createHash } from "node:crypto";
import { ledgerNumber } from "./ledgerNumber.js";

/**
 * What a decision saw, as a digest chained bar by bar: sha256 of the previous bar's digest
 * and this bar's values (time, the price bar, each other metric, in the ledger's column order),
 * hex, first 16 characters. Equal digests at bar i mean the decision at bar i saw the same
 * bars 0..i; reconcile recomputes the chain from the recorded bars.
 * @example seenDigest("", [0, 1, 1, 1, 1]).length // 16
 * @internal
 */
export function seenDigest(previous: string, values: readonly number[]): string {
  return createHash("sha256")
    .update(`${previous}|${JSON.stringify(values.map(ledgerNumber))}`)
    .digest("hex")
    .slice(0, 16);
}
