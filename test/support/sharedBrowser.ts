/**
 * One headless Chromium (Debian's, driven by playwright-core) per test worker process, shared by every
 * test file that reads a page in a browser. The suite runs its files in a few long-lived worker processes
 * (vitest.config.ts: isolate false), so this module, and the browser it launched, outlive a file: eight
 * files launched a Chromium of their own (about 1 s of CPU and 1-5 s of wall each on the 2-core machine).
 * A file takes a fresh page (its own browser context: no cookies, storage or cache shared with another
 * page) and closes it when done; the browser is never closed by a file. Playwright kills the browser when
 * the worker process exits; a browser that crashed or disconnected is launched again on the next call.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { scaledMs } from "./timeScale.js";

export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

let launched: Promise<Browser> | undefined;

/** The worker's browser, launched on first use (a launch that failed is tried again on the next call). */
export function sharedBrowser(): Promise<Browser> {
  if (launched === undefined) {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`sharedBrowser: Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium, as .ci/run does) or set CHROMIUM_PATH`);
    }
    const current: Promise<Browser> = chromium
      .launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"], timeout: scaledMs(180_000) })
      .then(
        (browser) => {
          browser.on("disconnected", () => {
            if (launched === current) launched = undefined;
          });
          return browser;
        },
        (err: unknown) => {
          if (launched === current) launched = undefined;
          throw err;
        },
      );
    launched = current;
  }
  return launched;
}

/** A new page in a context of its own in the worker's browser; close it (page.close() closes its context too). */
export async function newPage(options: Parameters<Browser["newPage"]>[0] = {}): Promise<Page> {
  return (await sharedBrowser()).newPage(options);
}
