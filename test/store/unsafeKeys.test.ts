import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { mergeSweeps } from "../../src/research/index.js";
import { openStore } from "../../src/store/index.js";

// The one rule (src/errors/safeKey.ts) wherever a name from a file is followed: __proto__,
// constructor and prototype are refused with a typed error. replayManifest's case is in manifest.test.ts.
const UNSAFE = ["__proto__", "constructor", "prototype"];

describe("names that reach Object.prototype are refused", () => {
  it("store: a metric named __proto__/constructor/prototype is refused, never read from the coverage file's prototype", async () => {
    const dir = mkdtempSync(join(tmpdir(), "milab-unsafe-"));
    try {
      const store = openStore(dir);
      for (const name of UNSAFE) {
        expect(() => store.coverage(name)).toThrow(InvalidArgumentError);
        expect(() => store.coverage(name)).toThrow(/store: .* refused/);
        await expect(store.saveHistory({ metricId: name, time: [0], value: [1] })).rejects.toThrow(InvalidArgumentError);
      }
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("mergeSweeps: a shard whose components name __proto__/constructor/prototype is refused", () => {
    for (const name of UNSAFE) {
      const shard = JSON.parse(
        `{"format":"market-intel-lab/sweep@2","fingerprint":"${"0".repeat(64)}","components":[${JSON.stringify(name)}],"total":1,"aborted":false,"periodsPerYear":8760,` +
          `"columns":{"variant":[0],${JSON.stringify(`w_${name}`)}:[1],"threshold":[0.5],"totalReturn":[0],"sharpeRatio":[0],"maxDrawdown":[0],"trades":[0],"turnover":[0],"exposure":[0]}}`,
      );
      expect(() => mergeSweeps([shard])).toThrow(InvalidArgumentError);
      expect(() => mergeSweeps([shard])).toThrow(/mergeSweeps: .* refused/);
    }
  });
});
