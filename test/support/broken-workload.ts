/**
 * A workload with one error (Q1 names the entity `Nte`, which does not exist): what the CLI
 * tests give a command to see how it rejects input.
 */
export const BROKEN_WORKLOAD = [
  "version: 1",
  "name: Broken",
  "entities:",
  "  Note: { key: noteId, count: 10, avgBytes: 100, attributes: { noteId: string } }",
  "accessPatterns:",
  "  - { id: Q1, name: get, type: read, entity: Nte, where: { noteId: eq }, rps: { avg: 1, peak: 2 } }",
  "",
].join("\n");
