/** htmlTable: escaping, numbers, time columns, long tables, DataFrames. Expected HTML written by hand. */
import { describe, expect, it } from "vitest";
import { toDataFrame } from "../../src/data/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { escapeHtml } from "../../src/report/escapeHtml.js";
import { htmlTable, textTable } from "../../src/report/index.js";

describe("escapeHtml", () => {
  it("escapes the five HTML-special characters", () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  });
});

describe("htmlTable", () => {
  it("renders the documented example exactly", () => {
    expect(htmlTable({ coin: ["BTC"], sharpe: [1.234567] })).toBe(
      '<table class="milab-table"><thead><tr><th>coin</th><th class="num">sharpe</th></tr></thead><tbody><tr><td>BTC</td><td class="num">1.235</td></tr></tbody></table>',
    );
  });
  it("escapes column names, text cells and the caption", () => {
    const html = htmlTable({ "<b>": ["<script>alert(1)</script>"] }, { caption: "a & b" });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<th>&lt;b&gt;</th>");
    expect(html).toContain("<caption>a &amp; b</caption>");
  });
  it("shows NaN as a dash and colours signed columns", () => {
    const html = htmlTable({ r: [Number.NaN, -0.5, 0.25, 0] }, { signed: ["r"] });
    expect(html).toContain('<td class="num">–</td>');
    expect(html).toContain('<td class="num neg" style="color:#d9480f">-0.5</td>');
    expect(html).toContain('<td class="num pos" style="color:#2f9e44">0.25</td>');
    expect(html).toContain('<td class="num">0</td>');
  });
  it("formats the time column as UTC date-times (seconds only when not zero)", () => {
    const html = htmlTable({ time: [Date.UTC(2026, 10, 1, 4, 5), Date.UTC(2026, 10, 1, 4, 5, 7)] });
    expect(html).toContain("<td class=\"num\">2026-11-01 04:05</td>");
    expect(html).toContain("<td class=\"num\">2026-11-01 04:05:07</td>");
  });
  it("shows the head and tail of a long table with the count of rows left out", () => {
    const a = Array.from({ length: 100 }, (_, i) => i);
    const html = htmlTable({ a }, { maxRows: 4 });
    expect((html.match(/<tr>/g) ?? []).length).toBe(1 + 4);
    expect(html).toContain("… 96 more rows …");
    expect(html).toContain(">0<");
    expect(html).toContain(">1<");
    expect(html).toContain(">98<");
    expect(html).toContain(">99<");
    expect(html).not.toContain(">2<");
  });
  it("shows every row when the table is exactly maxRows long (boundary)", () => {
    const html = htmlTable({ a: [1, 2, 3] }, { maxRows: 3 });
    expect(html).not.toContain("more rows");
  });
  it("renders an empty table and a one-row table", () => {
    expect(htmlTable({ a: [] })).toBe('<table class="milab-table"><thead><tr><th>a</th></tr></thead><tbody></tbody></table>');
    expect(htmlTable({ a: [7] })).toContain('<td class="num">7</td>');
  });
  it("reads a danfo DataFrame (duck-typed) like plain columns, as textTable does", () => {
    const cols = { coin: ["BTC", "ETH"], value: [1.5, 2.25] };
    const df = toDataFrame(cols);
    expect(htmlTable(df)).toBe(htmlTable(cols));
    expect(textTable(df)).toBe(textTable(cols));
  });
  it("rejects a bad maxRows and unequal columns with typed errors", () => {
    expect(() => htmlTable({ a: [1] }, { maxRows: 0 })).toThrow(InvalidArgumentError);
    expect(() => htmlTable({ a: [1] }, { maxRows: 0 })).toThrow("htmlTable: maxRows must be a positive integer, got 0");
    expect(() => htmlTable({ a: [1], b: [1, 2] })).toThrow('htmlTable: every column must have 1 values, got 2 in "b"');
  });
  it("does not mutate its input", () => {
    const a = Float64Array.of(3, Number.NaN, 1);
    htmlTable({ a }, { maxRows: 2 });
    expect(Array.from(a)).toEqual([3, Number.NaN, 1]);
  });
});
