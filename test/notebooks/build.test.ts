/**
 * notebooks/build.mjs: Markdown sources -> .ipynb cells. Expected cells are
 * written out by hand from the format's rules (```ts fences are code cells,
 * text between them markdown, split at `<!-- cell -->`).
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM helper without types
import { buildNotebook, parseSource } from "../../notebooks/build.mjs";

type Cell = { kind: "markdown" | "code"; text: string };
const parse = parseSource as (md: string) => Cell[];

describe("parseSource", () => {
  it("gives no cells for an empty source", () => {
    expect(parse("")).toEqual([]);
  });

  it("turns text into one markdown cell, trimmed", () => {
    expect(parse("\n# Title\n\nprose\n\n")).toEqual([{ kind: "markdown", text: "# Title\n\nprose" }]);
  });

  it("turns ```ts fences into code cells between markdown cells, in order", () => {
    const md = "# T\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nafter\n```ts\nb\n```\n";
    expect(parse(md)).toEqual([
      { kind: "markdown", text: "# T" },
      { kind: "code", text: "const a = 1;\n\nconst b = 2;" },
      { kind: "markdown", text: "after" },
      { kind: "code", text: "b" },
    ]);
  });

  it("keeps other fences (```sh) inside markdown", () => {
    expect(parse("run:\n```sh\nnpm start\n```\n")).toEqual([{ kind: "markdown", text: "run:\n```sh\nnpm start\n```" }]);
  });

  it("splits markdown at <!-- cell --> and accepts CRLF line ends", () => {
    expect(parse("a\r\n<!-- cell -->\r\nb\r\n")).toEqual([
      { kind: "markdown", text: "a" },
      { kind: "markdown", text: "b" },
    ]);
  });

  it("keeps an empty code cell", () => {
    expect(parse("```ts\n```")).toEqual([{ kind: "code", text: "" }]);
  });

  it("throws on an unclosed fence", () => {
    expect(() => parse("```ts\nconst a = 1;\n")).toThrow(/unclosed/);
  });
});

describe("buildNotebook", () => {
  const md = "# T\n```ts\nconst a = 1;\nconsole.log(a);\n```\n";

  it("writes nbformat 4.5 cells with stable ids, source lines and the tslab kernel", () => {
    const nb = buildNotebook("01-x", md, undefined);
    expect(nb.nbformat).toBe(4);
    expect(nb.nbformat_minor).toBe(5);
    expect(nb.metadata.kernelspec.name).toBe("tslab");
    expect(nb.cells).toEqual([
      { cell_type: "markdown", id: "01-x-00", metadata: {}, source: ["# T"] },
      { cell_type: "code", execution_count: null, id: "01-x-01", metadata: {}, outputs: [], source: ["const a = 1;\n", "console.log(a);"] },
    ]);
  });

  it("keeps outputs of unchanged code cells and drops those of changed ones", () => {
    const previous = buildNotebook("01-x", md, undefined);
    previous.cells[1].outputs = [{ output_type: "stream", name: "stdout", text: ["1\n"] }];
    previous.cells[1].execution_count = 1;
    const same = buildNotebook("01-x", md, previous);
    expect(same.cells[1].outputs).toEqual([{ output_type: "stream", name: "stdout", text: ["1\n"] }]);
    expect(same.cells[1].execution_count).toBe(1);
    const changed = buildNotebook("01-x", md.replace("1;", "2;"), previous);
    expect(changed.cells[1].outputs).toEqual([]);
    expect(changed.cells[1].execution_count).toBeNull();
  });

  it("does not modify the previous notebook", () => {
    const previous = buildNotebook("01-x", md, undefined);
    const copy = JSON.parse(JSON.stringify(previous));
    buildNotebook("01-x", "# other\n", previous);
    expect(previous).toEqual(copy);
  });
});
