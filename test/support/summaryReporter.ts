import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints one plain closing line, `Tests: N passed, N failed, N skipped`, after
 * vitest's own summary, so CI logs (and tools that read closing lines) get an
 * unambiguous count.
 */
export class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      if (m.state() === "failed" && [...m.children.allTests()].length === 0) failed++;
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
