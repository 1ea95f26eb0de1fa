import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { createPanel, type Panel } from "../data/Panel.js";
import { packageInfo } from "../store/packageVersion.js";

/** A real-data fixture: the columns plus what the file says about itself. */
export interface RealFixture {
  readonly panel: Panel;
  readonly source: string;
  readonly intervalMs: number;
  readonly timeIs: string;
}

/**
 * Read `fixtures/real/<name>.json.gz` under the package root (packageInfo: the
 * same from src, from the bundled dist/ and from the installed package).
 * @internal
 */
export function readRealFixture(name: string): RealFixture {
  const url = join(packageInfo().root, "fixtures", "real", `${name}.json.gz`);
  const body = JSON.parse(gunzipSync(readFileSync(url)).toString("utf8")) as {
    source: string;
    interval_ms: number;
    time_is: string;
    columns: Record<string, number[]>;
  };
  const { time, ...values } = body.columns;
  return { panel: createPanel(time ?? [], values), source: body.source, intervalMs: body.interval_ms, timeIs: body.time_is };
}
