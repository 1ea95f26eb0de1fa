import { vi } from "vitest";
import { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS, scaledMs } from "./timeScale.js";

// A setup file: runs before each test file is collected, so every test and hook
// without a timeout of its own gets vitest's base timeout scaled to the load at
// that moment (test/support/timeScale.ts). vitest resets it after the file.
vi.setConfig({ testTimeout: scaledMs(TEST_TIMEOUT_MS), hookTimeout: scaledMs(HOOK_TIMEOUT_MS) });
