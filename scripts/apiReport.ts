/**
 * `npm run api:report`: write the public API report, `docs/api.md`, and the
 * export index between `<!-- api:start -->` and `<!-- api:end -->` in the
 * README, from the TypeScript sources of every entry point in package.json's
 * "exports" (a `types` target `./dist/X.d.ts` is read from `src/X.ts`).
 *
 * Each export is listed with its kind and signature, as the TypeScript
 * compiler (the installed `typescript`) sees it: functions by their call
 * signatures, constants by their type, classes by their constructor,
 * interfaces and type aliases by their declaration (comments removed). A test
 * (test/docs/apiReport.test.ts) fails when the committed files differ from what
 * this script writes, so every change to the public surface shows in review.
 *
 * Usage: tsx scripts/apiReport.ts <package.json> <api.md> [README.md] [--check]
 *   --check  write nothing; exit 1 and name the stale files when they differ.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { OPTION_TABLES } from "../src/options/optionTables.js";

/** One entry point: the import specifier and its source file. */
export interface EntryPoint {
  readonly specifier: string;
  readonly source: string;
}

/** One exported name of an entry point. */
export interface ApiExport {
  readonly name: string;
  /** function, const, class, interface, type or enum. */
  readonly kind: string;
  /** The source folder it comes from, relative to the package root (e.g. `src/api`). */
  readonly folder: string;
  readonly signature: string;
  readonly isValue: boolean;
}

export interface ApiReport {
  readonly entries: ReadonlyArray<{ readonly entry: EntryPoint; readonly exports: readonly ApiExport[] }>;
}

export const README_START = "<!-- api:start -->";
export const README_END = "<!-- api:end -->";

/** The entry points named by package.json "exports" (`types` condition), in their order. */
export function entryPoints(packageJsonPath: string): EntryPoint[] {
  const pkg = JSON.parse(readFileSync(packageJsonPath, "utf8")) as { name: string; exports?: Record<string, unknown> };
  const out: EntryPoint[] = [];
  for (const [key, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target !== "object" || target === null) continue;
    const types = (target as { types?: unknown }).types;
    if (typeof types !== "string") continue;
    const m = /^\.\/dist\/(.+)\.d\.ts$/.exec(types);
    if (m === null) throw new Error(`apiReport: exports["${key}"].types must be ./dist/<path>.d.ts, got ${types}`);
    out.push({ specifier: key === "." ? pkg.name : `${pkg.name}/${key.replace(/^\.\//, "")}`, source: `src/${m[1]}.ts` });
  }
  if (out.length === 0) throw new Error(`apiReport: ${packageJsonPath} has no "exports" entry with a types condition`);
  return out;
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
const NO_TRUNCATION = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

function describeSymbol(checker: ts.TypeChecker, name: string, exported: ts.Symbol, root: string): ApiExport[] {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const decl = symbol.declarations?.[0];
  if (decl === undefined) throw new Error(`apiReport: export ${name} has no declaration`);
  const folder = relative(root, dirname(decl.getSourceFile().fileName)).split("\\").join("/");
  const out: ApiExport[] = [];
  const flags = symbol.flags;
  if (flags & ts.SymbolFlags.Class) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
    const ctors = type.getConstructSignatures().map((s) => `constructor${checker.signatureToString(s, undefined, NO_TRUNCATION)}`);
    const base = (decl as ts.ClassDeclaration).heritageClauses?.map((h) => " " + h.getText()).join("") ?? "";
    out.push({ name, kind: "class", folder, isValue: true, signature: `class ${name}${base} { ${ctors.join("; ")} }` });
  } else if (flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
    const calls = type.getCallSignatures();
    const isConstFn = flags & ts.SymbolFlags.Variable && calls.length > 0 && type.getProperties().length === 0;
    if (flags & ts.SymbolFlags.Function || isConstFn) {
      const lines = calls.map((s) => `function ${name}${checker.signatureToString(s, undefined, NO_TRUNCATION)};`);
      out.push({ name, kind: "function", folder, isValue: true, signature: lines.join("\n") });
    } else {
      // The full type, unless it is very long (a zod schema's type); then the compiler's own abbreviation.
      const full = checker.typeToString(type, decl, NO_TRUNCATION);
      const shown = full.length <= 400 ? full : checker.typeToString(type, decl, ts.TypeFormatFlags.None);
      out.push({ name, kind: "const", folder, isValue: true, signature: `const ${name}: ${shown};` });
    }
  }
  const typeDecl = symbol.declarations?.find(
    (d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d) || ts.isEnumDeclaration(d),
  );
  if (typeDecl !== undefined) {
    const kind = ts.isInterfaceDeclaration(typeDecl) ? "interface" : ts.isEnumDeclaration(typeDecl) ? "enum" : "type";
    const text = printer.printNode(ts.EmitHint.Unspecified, typeDecl, typeDecl.getSourceFile()).replace(/^export\s+/, "");
    out.push({ name, kind, folder, isValue: false, signature: text });
  }
  if (out.length === 0) throw new Error(`apiReport: cannot describe export ${name} (symbol flags ${flags})`);
  return out;
}

/** Every export of every entry point, sorted by folder then name. */
export function buildApiReport(packageJsonPath: string): ApiReport {
  const root = dirname(resolve(packageJsonPath));
  const entries = entryPoints(packageJsonPath);
  const parsed = ts.getParsedCommandLineOfConfigFile(resolve(root, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(`apiReport: tsconfig.json: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    },
  });
  if (parsed === undefined) throw new Error("apiReport: cannot read tsconfig.json");
  const program = ts.createProgram({ rootNames: entries.map((e) => resolve(root, e.source)), options: { ...parsed.options, noEmit: true } });
  const checker = program.getTypeChecker();
  return {
    entries: entries.map((entry) => {
      const file = program.getSourceFile(resolve(root, entry.source));
      if (file === undefined) throw new Error(`apiReport: ${entry.source} (entry point ${entry.specifier}) does not exist`);
      const moduleSymbol = checker.getSymbolAtLocation(file);
      const exports = moduleSymbol === undefined ? [] : checker.getExportsOfModule(moduleSymbol);
      const described = exports.flatMap((s) => describeSymbol(checker, s.getName(), s, root));
      described.sort((a, b) => (a.folder === b.folder ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.folder < b.folder ? -1 : 1));
      return { entry, exports: described };
    }),
  };
}

/** The report as Markdown (docs/api.md). */
export function renderApiMarkdown(report: ApiReport): string {
  const lines = [
    "# API report",
    "",
    "Every export of every entry point of `market-intel-lab`, with its kind and signature as the TypeScript compiler sees",
    "it. Generated by `npm run api:report` (scripts/apiReport.ts) from package.json \"exports\" and the sources; do not edit",
    "by hand. `test/docs/apiReport.test.ts` fails when this file is not current, so a change to the public surface always",
    "shows in review.",
    "",
  ];
  for (const { entry, exports } of report.entries) {
    const values = exports.filter((e) => e.isValue).length;
    lines.push(`## \`${entry.specifier}\``, "", `Source: \`${entry.source}\`; ${values} values, ${exports.length - values} types.`, "");
    let folder = "";
    for (const e of exports) {
      if (e.folder !== folder) {
        if (folder !== "") lines.push("```", "");
        folder = e.folder;
        lines.push(`### ${entry.specifier}: \`${folder}\``, "", "```ts");
      }
      lines.push(e.signature);
    }
    if (folder !== "") lines.push("```", "");
  }
  lines.push(...renderOptionTable());
  return lines.join("\n");
}

/**
 * The option table: every option of every public options object that checkOptions checks
 * (src/options/optionTables.ts), its unit, default and the scale a mistake is refused in.
 */
export function renderOptionTable(): string[] {
  const cell = (s: string): string => s.replaceAll("|", "\\|");
  const scale = { fraction: "percent refused", bps: "fraction refused", ms: "seconds refused" } as const;
  const lines = [
    "## Options",
    "",
    "Every option of the public options objects, checked once where it enters (src/options/checkOptions.ts): an unknown key is",
    "refused with the nearest valid name; a number in the wrong scale (a percent where a fraction is meant, a fraction where",
    "basis points are meant, seconds where milliseconds are meant) is refused with the value probably meant; `null` and",
    "`undefined` mean unset (the default below). Written from the same specs the check uses.",
    "",
    "| function | option | unit | default | scale check |",
    "|---|---|---|---|---|",
  ];
  for (const { fn, specs } of OPTION_TABLES) {
    for (const [name, spec] of Object.entries(specs)) {
      lines.push(`| ${cell(fn)} | \`${name}\` | ${cell(spec.unit)} | ${cell(spec.default)} | ${spec.scale !== undefined ? scale[spec.scale] : ""} |`);
    }
  }
  lines.push("");
  return lines;
}

/** The README's export index (between the api markers): the values of each entry point by folder. */
export function renderReadmeIndex(report: ApiReport): string {
  const lines = [
    README_START,
    "<!-- generated by npm run api:report from the same sources as docs/api.md; do not edit by hand -->",
    "",
    "| entry point | folder | functions, classes and constants |",
    "|---|---|---|",
  ];
  for (const { entry, exports } of report.entries) {
    const byFolder = new Map<string, string[]>();
    for (const e of exports) {
      if (!e.isValue) continue;
      const list = byFolder.get(e.folder) ?? [];
      list.push(`\`${e.name}\``);
      byFolder.set(e.folder, list);
    }
    for (const [folder, names] of byFolder) lines.push(`| \`${entry.specifier}\` | \`${folder}\` | ${names.join(", ")} |`);
  }
  lines.push("", "Their types (options, results, records) are listed with their fields in [docs/api.md](docs/api.md).", README_END);
  return lines.join("\n");
}

/** `readme` with its api block replaced by `index`; throws when the markers are missing. */
export function withReadmeIndex(readme: string, index: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`apiReport: README has no ${README_START} ... ${README_END} block`);
  return readme.slice(0, start) + index + readme.slice(end + README_END.length);
}

function main(argv: readonly string[]): number {
  const check = argv.includes("--check");
  const [pkgPath, apiPath, readmePath] = argv.filter((a) => a !== "--check");
  if (pkgPath === undefined || apiPath === undefined) {
    process.stderr.write("usage: tsx scripts/apiReport.ts <package.json> <api.md> [README.md] [--check]\n");
    return 2;
  }
  const report = buildApiReport(pkgPath);
  const wanted: Array<[string, string]> = [[apiPath, renderApiMarkdown(report)]];
  if (readmePath !== undefined) wanted.push([readmePath, withReadmeIndex(readFileSync(readmePath, "utf8"), renderReadmeIndex(report))]);
  const stale = wanted.filter(([path, text]) => {
    try {
      return readFileSync(path, "utf8") !== text;
    } catch {
      return true;
    }
  });
  if (check) {
    for (const [path] of stale) process.stderr.write(`${path} is not current: run npm run api:report\n`);
    return stale.length === 0 ? 0 : 1;
  }
  for (const [path, text] of stale) writeFileSync(path, text);
  const counts = report.entries.map((e) => `${e.entry.specifier} ${e.exports.length}`).join(", ");
  process.stdout.write(`api report: ${counts}; ${stale.length === 0 ? "unchanged" : "wrote " + stale.map(([p]) => p).join(", ")}\n`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
