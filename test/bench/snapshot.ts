import { readFileSync, writeFileSync } from "node:fs";

/**
 * The before/after rule of the bench scripts that print a change's outputs (`--write FILE`, then `--compare FILE`):
 * `out` as JSON, typed arrays as arrays, non-finite numbers and -0 as strings (JSON has neither, and a change that
 * turns 0 into -0 must show); written to `write`, and compared byte for byte with `compare`'s file (exit code 1
 * when they differ).
 */
export function writeOrCompare(out: unknown, files: { readonly write?: string | undefined; readonly compare?: string | undefined }): void {
  const number = (x: unknown): unknown => (typeof x === "number" && !Number.isFinite(x) ? String(x) : typeof x === "number" && Object.is(x, -0) ? "-0" : x);
  const json = JSON.stringify(out, (_, v: unknown) => {
    if (ArrayBuffer.isView(v)) v = Array.from(v as Float64Array);
    return Array.isArray(v) ? v.map(number) : number(v);
  });
  if (files.write !== undefined) {
    writeFileSync(files.write, json);
    console.log(`wrote ${json.length} characters to ${files.write}`);
  }
  if (files.compare !== undefined) {
    const same = readFileSync(files.compare, "utf8") === json;
    console.log(same ? `identical to ${files.compare}` : `DIFFERS from ${files.compare}`);
    if (!same) process.exitCode = 1;
  }
}
