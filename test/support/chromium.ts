import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";
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

/** `describe` for tests that drive Chromium: skipped (saying why) where it is absent and not required. */
export function describeInChromium(name: string, body: () => void): void {
  if (browser.runs) describe(name, body);
  else describe.skip(`${name} [skipped: ${browser.missing}]`, body);
}
