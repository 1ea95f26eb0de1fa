/**
 * Open a local HTML file in Debian's headless Chromium (via playwright-core; a new page
 * in the worker's one browser, test/support/sharedBrowser.ts),
 * take a full-page screenshot and report what a reader would notice: console
 * errors, page errors, requests that left the file, the size of every SVG.
 */
import { pathToFileURL } from "node:url";
import { newPage } from "../../support/sharedBrowser.js";
import { scaledMs } from "../../support/timeScale.js";

export { CHROMIUM } from "../../support/sharedBrowser.js";

export interface BrowserCheck {
  readonly consoleErrors: string[];
  readonly pageErrors: string[];
  /** URLs requested other than the file itself (a self-contained report requests none). */
  readonly externalRequests: string[];
  /** Rendered width x height of each SVG shown (not display:none), in CSS px. */
  readonly svgSizes: { width: number; height: number }[];
  /** Text of the h1 and h2 headings. */
  readonly headings: string[];
  /** Ids of the sections. */
  readonly sectionIds: string[];
  /** Rows of every table body. */
  readonly tableRows: number;
  readonly screenshotBytes: number;
}

export async function openInBrowser(file: string, screenshot: string): Promise<BrowserCheck> {
  const page = await newPage({ viewport: { width: 1100, height: 900 } }); // the worker's one Chromium (test/support/sharedBrowser.ts)
  try {
    page.setDefaultTimeout(scaledMs(30_000)); // Playwright's 30 s for goto, waits and actions, scaled to the load
    const consoleErrors: string[] = [];
    const pageErrors: string[] = [];
    const externalRequests: string[] = [];
    const url = pathToFileURL(file).href;
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    page.on("request", (r) => {
      if (r.url() !== url) externalRequests.push(r.url());
    });
    await page.goto(url, { waitUntil: "load" });
    // an interactive report draws its charts live after load: wait for every one (or its failure, which logs)
    await page.waitForFunction(() => [...document.querySelectorAll("figure[data-spec]")].every((f) => f.classList.contains("live")), null, { timeout: scaledMs(60_000) });
    const shot = await page.screenshot({ path: screenshot, fullPage: true });
    const info = await page.evaluate(() => ({
      svgSizes: [...document.querySelectorAll("svg")]
        .map((s) => {
          const r = s.getBoundingClientRect();
          return { width: r.width, height: r.height };
        })
        .filter((r) => r.width > 0 || r.height > 0), // shown ones: a live chart's static copy is hidden (it is for print)
      headings: [...document.querySelectorAll("h1, h2")].map((h) => h.textContent ?? ""),
      sectionIds: [...document.querySelectorAll("section")].map((s) => s.id),
      tableRows: document.querySelectorAll("table tbody tr").length,
    }));
    return { consoleErrors, pageErrors, externalRequests, ...info, screenshotBytes: shot.length };
  } finally {
    await page.close();
  }
}
