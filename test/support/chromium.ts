import { chromium } from "playwright-core";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { describe } from "vitest";
import { chromiumPath, optionalTool } from "./optional-tools.js";

export { chromiumPath };

/**
 * Debian's chromium, driven by playwright-core (playwright cannot download its own browsers
 * here). Where it is missing the browser tests are skipped, with the reason in their names and
 * a line at the start of the run, unless the run requires it (CI, `TOOLSCORE_REQUIRE_CHROMIUM=1`):
 * then they run and fail with the message below.
 */
const browser = optionalTool("chromium");

export async function launchChromium(): Promise<Browser> {
  if (!browser.present) throw new Error(browser.missing);
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

/**
 * How long a browser wait may take: a loaded machine slows Chromium far past Playwright's 30 s
 * default, so waits follow the suite's test timeout (300 s), ending a little before it.
 */
export const browserWaitMs = 240_000;

/** A page whose waits (selectors, clicks, navigation) may take {@link browserWaitMs}. */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(browserWaitMs);
  page.setDefaultNavigationTimeout(browserWaitMs);
  return page;
}

/** `describe` for tests that drive Chromium: skipped (saying why) where it is absent and not required. */
export function describeInChromium(name: string, body: () => void): void {
  if (browser.runs) describe(name, body);
  else describe.skip(`${name} [skipped: ${browser.missing}]`, body);
}
