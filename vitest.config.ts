import { defineConfig } from "vitest/config";
import { SummaryReporter } from "./test/support/summaryReporter.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    env: { TZ: "UTC" },
    reporters: ["default", new SummaryReporter()],
  },
});
