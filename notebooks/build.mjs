#!/usr/bin/env node
/**
 * `npm run notebooks:build`: regenerate `notebooks/NN-name.ipynb` from its
 * readable source `notebooks/src/NN-name.md`, keeping the outputs of cells
 * whose source did not change (so an unchanged notebook stays byte-identical).
 *
 * Source format: Markdown. Each fenced block opened with ```ts becomes a code
 * cell; the text between fences becomes markdown cells, split further at a
 * line `<!-- cell -->`. Cell ids are derived from the notebook name and cell
 * index, so rebuilding gives stable diffs.
 *
 * Usage: node notebooks/build.mjs [names...]   (default: every notebooks/src/*.md)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** Split a Markdown source into notebook cells `{kind: "markdown" | "code", text}`. */
export function parseSource(md) {
  const cells = [];
  const lines = md.replace(/\r\n/g, "\n").split("\n");
  let buf = [];
  let inCode = false;
  const flush = (kind) => {
    const text = buf.join("\n").replace(/^\n+|\s+$/g, "");
    if (text !== "" || kind === "code") cells.push({ kind, text });
    buf = [];
  };
  for (const line of lines) {
    if (!inCode && /^```ts\s*$/.test(line)) {
      flush("markdown");
      inCode = true;
    } else if (inCode && /^```\s*$/.test(line)) {
      flush("code");
      inCode = false;
    } else if (!inCode && line.trim() === "<!-- cell -->") {
      flush("markdown");
    } else {
      buf.push(line);
    }
  }
  if (inCode) throw new Error("unclosed ```ts fence");
  flush("markdown");
  return cells;
}

function sourceLines(text) {
  const parts = text.split("\n");
  return parts.map((line, i) => (i < parts.length - 1 ? line + "\n" : line));
}

/** Build the notebook object for `name` (without extension) from its source, reusing outputs of unchanged code cells in `previous`. */
export function buildNotebook(name, md, previous) {
  const old = new Map();
  for (const cell of previous?.cells ?? []) {
    if (cell.cell_type === "code") old.set([].concat(cell.source).join(""), cell);
  }
  const cells = parseSource(md).map((c, i) => {
    const id = `${name.replace(/[^A-Za-z0-9-]/g, "-")}-${String(i).padStart(2, "0")}`;
    if (c.kind === "markdown") return { cell_type: "markdown", id, metadata: {}, source: sourceLines(c.text) };
    const kept = old.get(c.text);
    return {
      cell_type: "code",
      execution_count: kept?.execution_count ?? null,
      id,
      metadata: {},
      outputs: kept?.outputs ?? [],
      source: sourceLines(c.text),
    };
  });
  return {
    cells,
    metadata: {
      kernelspec: { display_name: "TypeScript (tslab, market-intel-lab)", language: "typescript", name: "tslab" },
      language_info: { codemirror_mode: { mode: "typescript", name: "javascript", typescript: true }, file_extension: ".ts", mimetype: "text/typescript", name: "typescript", version: "5.0" },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const srcDir = join(here, "src");
  const wanted = process.argv.slice(2).map((a) => basename(a).replace(/\.(md|ipynb)$/, ""));
  const names = readdirSync(srcDir)
    .filter((f) => f.endsWith(".md"))
    .map((f) => f.slice(0, -3))
    .filter((n) => wanted.length === 0 || wanted.includes(n))
    .sort();
  for (const name of names) {
    const target = join(here, `${name}.ipynb`);
    const previous = existsSync(target) ? JSON.parse(readFileSync(target, "utf8")) : undefined;
    const nb = buildNotebook(name, readFileSync(join(srcDir, `${name}.md`), "utf8"), previous);
    writeFileSync(target, JSON.stringify(nb, null, 1) + "\n");
    console.log(`built ${target} (${nb.cells.length} cells)`);
  }
}
