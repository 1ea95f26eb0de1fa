import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { openStore, type Store } from "../../src/store/index.js";

// 2026-11-01T00:00:00Z
const T0 = Date.UTC(2026, 10, 1);

describe("store.query is read-only over the store's views by default", () => {
  let root: string;
  let store: Store;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "milab-query-"));
    store = openStore(join(root, "store"));
    await store.saveHistory({ metricId: "btc_price", time: [T0, T0 + 60_000], value: [1, 2] });
    writeFileSync(join(root, "secret.csv"), "a,b\n1,2\n");
  });
  afterAll(() => {
    store.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("a SELECT over the views works (and WITH, FROM-first, DESCRIBE)", async () => {
    expect(Array.from<unknown>((await store.queryColumns("select count(*)::double as n from history")).n ?? [])).toEqual([2]);
    expect(Array.from<unknown>((await store.queryColumns("with x as (from history) select sum(price) as s from x")).s ?? [])).toEqual([3]);
    expect((await store.queryColumns("describe history")).column_name).toContain("price");
  });

  const attacks: [string, (root: string) => string][] = [
    ["read_csv of a file outside the store", (r) => `select * from read_csv('${join(r, "secret.csv")}')`],
    ["read_csv('/etc/passwd')", () => "select * from read_csv('/etc/passwd')"],
    ["read_text", () => "select * from read_text('/etc/passwd')"],
    ["glob", () => "select * from glob('/etc/*')"],
    ["read_parquet through ..", (r) => `select * from read_parquet('${join(r, "store")}/../secret.csv')`],
    ["COPY ... TO", (r) => `copy (select 1 as a) to '${join(r, "out.csv")}'`],
    ["COPY inside a SELECT's CTE", (r) => `with x as (select 1) copy x to '${join(r, "out.csv")}'`],
    ["ATTACH", (r) => `attach '${join(r, "other.db")}' as other`],
    ["several statements", () => "select 1; select 2"],
    ["a SELECT then a DROP", () => "select 1; drop view history"],
    ["DROP VIEW", () => "drop view history"],
    ["CREATE", () => "create table t as select 1"],
    ["INSTALL", () => "install httpfs"],
    ["LOAD", () => "load httpfs"],
    ["SET", () => "set enable_external_access = true"],
    ["an http URL", () => "select * from 'https://example.com/x.parquet'"],
  ];
  for (const [name, sql] of attacks) {
    it(`refuses ${name} with a typed error and leaves the store working`, async () => {
      const err = await store.queryColumns(sql(root)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as Error).message).toMatch(/^store\.query: /);
      expect(existsSync(join(root, "out.csv"))).toBe(false);
      expect(existsSync(join(root, "other.db"))).toBe(false);
      expect(Array.from<unknown>((await store.queryColumns("select count(*)::double as n from history")).n ?? [])).toEqual([2]);
    });
  }

  it("{ trusted: true } runs any SQL on its own DuckDB, and cannot weaken the default", async () => {
    const rows = await store.queryColumns(`select a from read_csv('${join(root, "secret.csv")}')`, { trusted: true });
    expect(Array.from<unknown>(rows.a ?? [])).toEqual([1]);
    await store.queryColumns("drop view history", { trusted: true });
    await expect(store.queryColumns(`select * from read_csv('${join(root, "secret.csv")}')`)).rejects.toThrow(/reads only the store's own views/);
    expect(Array.from<unknown>((await store.queryColumns("select count(*)::double as n from history")).n ?? [])).toEqual([2]);
    // the trusted engine's views come back on its next query
    expect(Array.from<unknown>((await store.queryColumns("select count(*)::double as n from history", { trusted: true })).n ?? [])).toEqual([2]);
  });

  it("bad options", async () => {
    await expect(store.queryColumns("select 1", { trusted: "yes" as never })).rejects.toThrow("store.query: trusted must be true or false");
  });
});

describe("store.query over odd folders", () => {
  for (const name of ["s?", "s*", "s[a]"]) {
    it(`a store at ${JSON.stringify(name)} reads its own rows, never a sibling's`, async () => {
      const root = mkdtempSync(join(tmpdir(), "milab-query-glob-"));
      try {
        const sibling = openStore(join(root, "sa"));
        await sibling.saveHistory({ metricId: "btc_price", time: [T0], value: [99] });
        sibling.close();
        const store = openStore(join(root, name));
        await store.saveHistory({ metricId: "btc_price", time: [T0, T0 + 60_000], value: [1, 2] });
        const rows = await store.queryColumns("select price from history order by time");
        expect(Array.from<unknown>(rows.price ?? [])).toEqual([1, 2]);
        await expect(store.queryColumns(`select * from read_parquet('${join(root, name)}/../sa/**/*.parquet')`)).rejects.toThrow(InvalidArgumentError);
        store.close();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }

  it("an empty endpoint folder gets no view and breaks no query", async () => {
    const root = mkdtempSync(join(tmpdir(), "milab-query-empty-"));
    try {
      mkdirSync(join(root, "endpoint=x", "day=2026-11-01"), { recursive: true });
      const store = openStore(root);
      await store.saveHistory({ metricId: "btc_price", time: [T0], value: [1] });
      expect(Array.from<unknown>((await store.queryColumns("select price from history")).price ?? [])).toEqual([1]);
      await expect(store.queryColumns("select * from x")).rejects.toThrow(/views: history$/);
      store.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
