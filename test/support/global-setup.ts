/**
 * Runs once before any test file (vitest `globalSetup`): builds dist/ when it is older than a
 * source file, so that the end-to-end tests, which run in parallel, find the built CLI and never
 * rebuild it under each other's feet. `npm test` builds first, so this only checks the times.
 */
import { ensureBuilt } from "./built-cli.js";

export default function setup(): void {
  ensureBuilt();
}
