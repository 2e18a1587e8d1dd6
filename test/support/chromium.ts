import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";

/**
 * Debian's chromium, driven by playwright-core (playwright cannot download its own browsers
 * here). CI installs the package; a machine without it fails the test with a message that says
 * how to get it, rather than skipping.
 */
export const chromiumPath = process.env.TOOLSCORE_CHROMIUM ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `no Chromium at ${chromiumPath}: install it (apt-get install -y chromium) or set TOOLSCORE_CHROMIUM`,
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}
