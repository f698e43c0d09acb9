// Writes docs/report.png, the README's picture of the report: designs the blogging example with
// the built CLI, opens its report.html in Debian's headless Chromium (through playwright-core,
// which downloads no browser) and photographs the top of the page at 1280 px wide.
// Run: npm run screenshot (needs `apt-get install -y chromium`, or CHROMIUM_PATH).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = mkdtempSync(join(tmpdir(), "cosmos-report-shot-"));
try {
  const design = spawnSync(
    process.execPath,
    [
      join(root, "dist", "cli", "main.js"),
      "design",
      join(root, "examples", "blogging", "workload.yaml"),
      "--out",
      out,
    ],
    { encoding: "utf8" },
  );
  if (design.status !== 0) throw new Error(`design failed:\n${design.stdout}${design.stderr}`);
  const browser = await chromium.launch({
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
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
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1500 }, deviceScaleFactor: 1 });
    await page.goto(pathToFileURL(join(out, "report.html")).href);
    const target = join(root, "docs", "report.png");
    await page.screenshot({ path: target, clip: { x: 0, y: 0, width: 1280, height: 1500 } });
    process.stdout.write(`wrote ${target}\n`);
  } finally {
    await browser.close();
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
