import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { createPanel, type Panel } from "../data/Panel.js";

/** A real-data fixture: the columns plus what the file says about itself. */
export interface RealFixture {
  readonly panel: Panel;
  readonly source: string;
  readonly intervalMs: number;
  readonly timeIs: string;
}

/**
 * Read `fixtures/real/<name>.json.gz` (resolved relative to this module, so
 * it works from src, from dist and from the installed package).
 * @internal
 */
export function readRealFixture(name: string): RealFixture {
  const url = new URL(`../../fixtures/real/${name}.json.gz`, import.meta.url);
  const body = JSON.parse(gunzipSync(readFileSync(url)).toString("utf8")) as {
    source: string;
    interval_ms: number;
    time_is: string;
    columns: Record<string, number[]>;
  };
  const { time, ...values } = body.columns;
  return { panel: createPanel(time ?? [], values), source: body.source, intervalMs: body.interval_ms, timeIs: body.time_is };
}
