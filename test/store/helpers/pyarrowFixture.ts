/**
 * The columns of the two Parquet files pyarrow itself wrote into fixtures/parquet/
 * (read by test/store/pyarrowParquet.test.ts, written by writePyarrowFixtures.ts):
 * one definition, so the test checks the files against the values that went in.
 */
import { join } from "node:path";
import { mulberry32 } from "../../support/mulberry32.js";

/** Rows in each file. */
export const N = 5000;

/** The folder and the two files: pandas' to_parquet defaults, and small pages with 5 row groups. */
export const FIXTURE_DIR = join(import.meta.dirname, "../../../fixtures/parquet");
export const DEFAULTS_FILE = join(FIXTURE_DIR, "pyarrow-25-defaults.parquet");
export const SMALL_PAGES_FILE = join(FIXTURE_DIR, "pyarrow-25-small-pages.parquet");
/** The write settings of the small-pages file (pyarrow's write_table keywords). */
export const SMALL_PAGES = { row_group_size: 1000, data_page_size: 4096, dictionary_pagesize_limit: 2048 } as const;

/** The time column (epoch ms with parts of a ms, before and after 1970) and the float64 columns a, b, c. */
export function pyarrowFixtureColumns(): { time: Float64Array; a: Float64Array; b: Float64Array; c: Float64Array } {
  const rand = mulberry32(320);
  // Times from before 1970 to after it, with parts of a ms (a negative ns count's quotient and remainder).
  const time = Float64Array.from({ length: N }, (_, i) => (i - N / 2) * 60_000 - 0.001 + (i % 7) * 0.000123);
  // Repeated values (a dictionary), then full-precision ones; NaN (null in the file), -0, a subnormal, the largest double.
  const a = Float64Array.from({ length: N }, (_, i) => (i % 13 === 4 ? Number.NaN : i < 2000 ? Math.round(rand() * 50) / 4 : (rand() - 0.5) * 1e6));
  a[5] = -0;
  a[6] = 5e-324;
  a[7] = 1.7976931348623157e308;
  const b = Float64Array.from({ length: N }, () => Math.round(rand() * 1e8) / 1e4);
  const c = new Float64Array(N).fill(42);
  return { time, a, b, c };
}
