/**
 * A process that starts a query that would run for hours on a store (argv:
 * store dir), closes the store while it runs, and prints how the query ended.
 * The test checks that it prints `cancelled closed` and exits by itself.
 */
import { QueryCancelledError } from "../../../src/errors/index.js";
import { openStore } from "../../../src/store/index.js";

const store = openStore(process.argv[2] as string);
const pending = store.queryColumns("select count(*) as n from range(100000000000) a where a.range % 7 = 3");
setTimeout(() => store.close(), 300);
try {
  await pending;
  process.stdout.write("finished\n");
} catch (e) {
  process.stdout.write(e instanceof QueryCancelledError ? `cancelled ${e.reason}\n` : `other ${String(e)}\n`);
}
