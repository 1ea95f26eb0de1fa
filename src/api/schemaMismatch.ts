import type { z } from "zod";
import { SchemaMismatchError } from "../errors/SchemaMismatchError.js";

/**
 * Build the SchemaMismatchError for a body that failed every known shape:
 * `attempts` pairs each variant name with its zod error; the first issue of
 * the first variant gives `path`.
 */
export function schemaMismatch(endpoint: string, attempts: ReadonlyArray<readonly [string, z.ZodError | string]>): SchemaMismatchError {
  const issues: string[] = [];
  let path: string | undefined;
  for (const [variant, error] of attempts) {
    if (typeof error === "string") {
      issues.push(`${variant}: ${error}`);
      path ??= "";
      continue;
    }
    for (const issue of error.issues.slice(0, 5)) {
      const where = issue.path.map(String).join(".");
      path ??= where;
      issues.push(`${variant}: ${where === "" ? "(root)" : where}: ${issue.message}`);
    }
  }
  return new SchemaMismatchError(endpoint, path ?? "", attempts.map(([v]) => v), issues);
}
