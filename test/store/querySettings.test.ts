/**
 * What SQL can learn of the machine (issue 31 item 9: duckdb_settings()
 * showed absolute paths): on the restricted engine every setting that names
 * a path names the store's own folder or a folder below it, never the home
 * folder (DuckDB's default secret folder, ~/.duckdb/stored_secrets) or the
 * working directory (its default spill folder `.tmp`, which DuckDB also made
 * readable). The store's folder itself stays visible: DuckDB needs it in
 * allowed_directories, as written (see sqlEngine).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";

const root = mkdtempSync(join(tmpdir(), "milab-qsettings-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("restricted SQL settings", () => {
  it("name no folder outside the store: not the home folder, not the working directory", { timeout: 60_000 }, async () => {
    const store = openStore(root);
    await store.saveHistory({ metricId: "btc_price", time: [0, 60_000], value: [1, 2] });
    const r = await store.queryColumns("select name, value from duckdb_settings()");
    const names = r["name"] as string[];
    const values = (r["value"] as string[]).map(String);
    const withPaths = names.map((n, i) => [n, values[i] as string] as const).filter(([, v]) => v.includes("/"));
    expect(withPaths.map(([n]) => n)).toContain("allowed_directories");
    for (const [name, value] of withPaths) {
      const paths = value.replace(/^\[|\]$/g, "").split(", ").filter((p) => p.startsWith("/"));
      for (const p of paths) expect(`${name}: ${p}`).toMatch(new RegExp(`^${name}: ${resolve(root).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(/|$)`));
    }
    const all = values.join("\n");
    if (homedir().length > 1 && !resolve(root).startsWith(homedir())) expect(all).not.toContain(homedir());
    expect(all).not.toContain(join(process.cwd(), ".tmp"));
    store.close();
  });
});
