/**
 * Documentation resolves inside the repository: every relative link in the
 * README, the notebooks (the .ipynb markdown cells and their notebooks/src
 * sources), docs/ and the fixtures' READMEs points at a file that exists (and,
 * for `file.md#anchor`, at a heading that exists), and no tracked file refers
 * to the project's shared folder or to this machine's absolute paths, which a
 * clone does not have.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function listMarkdown(): string[] {
  const inDir = (dir: string, ext: string): string[] =>
    existsSync(join(root, dir)) ? readdirSync(join(root, dir)).filter((f) => f.endsWith(ext)).map((f) => join(dir, f)) : [];
  return [
    "README.md",
    ...inDir("docs", ".md"),
    ...inDir("notebooks", ".md"),
    ...inDir("notebooks", ".ipynb"),
    ...inDir(join("notebooks", "src"), ".md"),
    ...inDir(join("fixtures", "api"), ".md"),
    ...inDir(join("fixtures", "real"), ".md"),
  ];
}

/** The Markdown text of a file (for a notebook, its markdown cells), without code blocks or code spans. */
function markdownOf(file: string): string {
  const raw = readFileSync(join(root, file), "utf8");
  const text = file.endsWith(".ipynb")
    ? (JSON.parse(raw) as { cells: { cell_type: string; source: string | string[] }[] }).cells
        .filter((c) => c.cell_type === "markdown")
        .map((c) => [c.source].flat().join(""))
        .join("\n\n")
    : raw;
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const headings = [...markdownOf(file).matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!.replace(/`/g, "")));
  return new Set(headings);
}

/** Relative link targets `[text](target)` and `<img src>`-free Markdown; external and mail links skipped. */
function relativeLinks(file: string): string[] {
  const targets = [...markdownOf(file).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe("documentation links", () => {
  const files = listMarkdown();

  it("finds the documents to check", () => {
    expect(files).toEqual(expect.arrayContaining(["README.md", join("docs", "DESIGN.md"), join("docs", "api.md"), join("docs", "market-intelligence-api.md")]));
    expect(files.filter((f) => f.endsWith(".ipynb")).length).toBeGreaterThanOrEqual(6);
  });

  it.each(listMarkdown())("every relative link in %s resolves", (file) => {
    const broken: string[] = [];
    for (const target of relativeLinks(file)) {
      const [path, anchor] = target.split("#") as [string, string | undefined];
      // A notebook source's links are written for the notebook it builds (notebooks/NN.ipynb), one folder up.
      const base = dirname(file) === join("notebooks", "src") ? "notebooks" : dirname(file);
      const dest = path === "" ? join(root, file) : resolve(join(root, base), decodeURI(path));
      if (!dest.startsWith(root) || !existsSync(dest)) {
        broken.push(`${target} (no file ${relative(root, dest)})`);
        continue;
      }
      if (anchor !== undefined && anchor !== "" && /\.(md|ipynb)$/.test(dest) && !anchorsOf(relative(root, dest)).has(anchor)) {
        broken.push(`${target} (no heading #${anchor} in ${relative(root, dest)})`);
      }
    }
    expect(broken, `${file}: broken links`).toEqual([]);
  });

  it("no tracked file refers to the shared folder or to absolute paths of this machine", () => {
    const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter((f) => f !== "");
    expect(tracked.length).toBeGreaterThan(100);
    // Built from parts so this file does not match itself.
    const forbidden = [["..", "shared"].join("/"), ["", "work", ""].join("/")];
    const hits: string[] = [];
    for (const file of tracked) {
      if (/\.(gz|png|jpg|ico)$/.test(file) || !existsSync(join(root, file))) continue;
      const text = readFileSync(join(root, file), "utf8");
      for (const needle of forbidden) if (text.includes(needle)) hits.push(`${file}: ${needle}`);
    }
    expect(hits).toEqual([]);
  });
});
