import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A response was valid JSON but matched none of the shapes the client knows
 * for that endpoint. `path` is the first offending field (e.g.
 * `signals.0.composite_score`), `variantsTried` the shape names that were
 * attempted, `issues` one line per problem.
 * @example
 * catch (e) { if (e instanceof SchemaMismatchError) console.log(e.endpoint, e.path, e.variantsTried); }
 */
export class SchemaMismatchError extends MarketIntelError {
  /** Endpoint path, e.g. `/v1/signals/composite`. */
  readonly endpoint: string;
  /** Dotted path of the first offending field ("" for the whole body). */
  readonly path: string;
  /** Shape variants attempted, e.g. `["observed", "documented"]`. */
  readonly variantsTried: readonly string[];
  /** One human-readable line per problem, prefixed by its variant. */
  readonly issues: readonly string[];

  constructor(endpoint: string, path: string, variantsTried: readonly string[], issues: readonly string[]) {
    super(
      "SCHEMA_MISMATCH",
      `${endpoint}: the response matches none of the known shapes (${variantsTried.join(", ")}); ` +
        `first problem at ${path === "" ? "(root)" : path}: ${issues.slice(0, 3).join("; ")}. ` +
        `The service may have changed its format: use client.raw("${endpoint}") to inspect the body and report it`,
    );
    this.endpoint = endpoint;
    this.path = path;
    this.variantsTried = variantsTried;
    this.issues = issues;
  }
}
