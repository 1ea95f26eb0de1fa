/**
 * Writes fixtures/parquet/pyarrow-25-*.parquet with pyarrow itself (pandas' df.to_parquet under Debian's python3;
 * test/support/pyarrowParquet.ts says how pyarrow 25.0.1 was installed). Run once by hand when the fixtures change:
 *   npx tsx test/store/helpers/writePyarrowFixtures.ts
 * The suite reads the committed files and needs no pyarrow (Debian 12 has no python3-pyarrow, and CI reaches only
 * Debian's and npm's registries).
 */
import { mkdirSync } from "node:fs";
import { pyarrowParquet, pyarrowVersion } from "../../support/pyarrowParquet.js";
import { DEFAULTS_FILE, FIXTURE_DIR, pyarrowFixtureColumns, SMALL_PAGES, SMALL_PAGES_FILE } from "./pyarrowFixture.js";

const version = pyarrowVersion();
if (version === undefined) throw new Error("writePyarrowFixtures: Debian's python3 cannot import pyarrow and pandas (see test/support/pyarrowParquet.ts)");
mkdirSync(FIXTURE_DIR, { recursive: true });
const { time, a, b, c } = pyarrowFixtureColumns();
pyarrowParquet(time, { a, b, c }, DEFAULTS_FILE);
pyarrowParquet(time, { a, b, c }, SMALL_PAGES_FILE, SMALL_PAGES);
process.stdout.write(`wrote ${DEFAULTS_FILE} and ${SMALL_PAGES_FILE} with pyarrow ${version}\n`);
