/**
 * "One time rule, one boundary": every time string or Date enters the library
 * through `toEpochMs` (src/data/toEpochMs.ts). This test parses every source
 * file of src with the TypeScript parser (code only: comments and strings are
 * not matched) and refuses:
 * - `Date.parse(...)` anywhere (it reads offset-less date-times in the
 *   machine's zone);
 * - `new Date(...)` with two or more arguments (the local-time constructor) or
 *   with a string or template literal argument;
 * - `new Date(x)` used for anything but formatting epoch ms
 *   (`.toISOString()`, `.toUTCString()`): `new Date(text).getTime()` is
 *   `Date.parse` in disguise;
 * - the local-zone Date methods (`getHours`, `getTimezoneOffset`, `toLocaleDateString`, ...).
 * `new Date()` (now) is allowed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "..", "src");
const FORMATTERS = new Set(["toISOString", "toUTCString"]);
const LOCAL_ZONE_METHODS = new Set([
  "getFullYear",
  "getMonth",
  "getDate",
  "getDay",
  "getHours",
  "getMinutes",
  "getSeconds",
  "getMilliseconds",
  "getTimezoneOffset",
  "setFullYear",
  "setMonth",
  "setDate",
  "setHours",
  "setMinutes",
  "setSeconds",
  "toLocaleDateString",
  "toLocaleTimeString",
  "toDateString",
  "toTimeString",
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Every violation in one file's code, as `path:line: what`. */
export function timeViolations(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const at = (node: ts.Node, what: string): void => {
    out.push(`${relative(SRC, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "Date" && node.name.text === "parse") {
      at(node, "Date.parse (use toEpochMs)");
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "Date") {
      const args = node.arguments ?? [];
      const arg = args[0];
      if (args.length >= 2) at(node, "new Date(y, m, ...) reads the machine's zone (use Date.UTC or toEpochMs)");
      else if (arg !== undefined && (ts.isStringLiteral(arg) || ts.isTemplateExpression(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
        at(node, "new Date(string) (use toEpochMs)");
      } else if (arg !== undefined) {
        const use = node.parent;
        if (!(ts.isPropertyAccessExpression(use) && use.expression === node && FORMATTERS.has(use.name.text))) {
          at(node, "new Date(x) only to format epoch ms (.toISOString(), .toUTCString()); read times with toEpochMs");
        }
      }
    }
    if (ts.isPropertyAccessExpression(node) && LOCAL_ZONE_METHODS.has(node.name.text) && ts.isCallExpression(node.parent)) {
      at(node, `.${node.name.text}() depends on the machine's time zone (use the UTC methods or epoch ms)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe("one time boundary: no Date.parse / new Date(string) / local-zone Date methods in src", () => {
  it("src has none (every time string goes through toEpochMs)", () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const violations = files.flatMap((f) => timeViolations(f, readFileSync(f, "utf8")));
    expect(violations).toEqual([]);
  });

  it("the check finds each kind of violation and ignores comments, strings and formatting", () => {
    const bad = [
      "const a = Date.parse(s);",
      'const b = new Date("2024-01-01");',
      "const c = new Date(`${d}T00:00`);",
      "const d = new Date(2024, 0, 1);",
      "const e = new Date(text).getTime() + new Date(t);",
      "const f = new Date(ms).getHours();",
      "const g = x.getTimezoneOffset();",
    ];
    expect(bad.map((line) => timeViolations(join(SRC, "x.ts"), line).length)).toEqual([1, 1, 1, 1, 2, 2, 1]);
    const fine = [
      "// Date.parse would read this in local time: new Date(\"2024\")",
      'const s = "Date.parse(x)";',
      "const iso = new Date(ms).toISOString();",
      "const now = new Date();",
      "const t = Date.UTC(2024, 0, 1);",
    ];
    expect(fine.flatMap((line) => timeViolations(join(SRC, "x.ts"), line))).toEqual([]);
  });
});
