/**
 * Headless Chromium for the report's browser tests and the README screenshot: Debian's
 * `chromium` package driven by playwright-core (which never downloads a browser of its own).
 * `.ci/run` installs the package; where it is absent the tests skip and say why.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** The browser binary: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM_PATH = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

/** Why the browser tests cannot run here, or undefined when they can. */
export const CHROMIUM_MISSING = existsSync(CHROMIUM_PATH)
  ? undefined
  : `chromium not found at ${CHROMIUM_PATH} (install Debian's package: apt-get install -y chromium, or set CHROMIUM_PATH)`;

// CI installs the browser (.ci/run sets COSMOS_MODELER_CI=1): there a missing browser fails the
// run instead of skipping the tests that need it.
if (CHROMIUM_MISSING !== undefined && process.env["COSMOS_MODELER_CI"] === "1") {
  throw new Error(`the browser tests must run in CI: ${CHROMIUM_MISSING}`);
}

/**
 * Launches headless Chromium with no network services of its own (no updates, sync, QUIC or
 * background requests). Playwright gives every launch a fresh temporary user-data-dir.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
