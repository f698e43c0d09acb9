/**
 * The data-access runtime of the code cosmos-modeler generates: ordinary TypeScript over
 * `@azure/cosmos`, copied as source next to each generated `data-access.ts` (folder
 * `data-access-runtime/`). It depends on nothing else, so it can be read, reviewed and debugged
 * like the rest of an application.
 */
export * from "./errors.js";
export * from "./key-limits.js";
export * from "./guarded-container.js";
export * from "./templates.js";
export * from "./record-keys.js";
export * from "./sql.js";
export * from "./hash.js";
export * from "./items.js";
export * from "./tasks.js";
export * from "./requests.js";
export * from "./context.js";
export * from "./integrated-cache.js";
export * from "./reads.js";
export * from "./paging.js";
export * from "./search.js";
export * from "./writes.js";
export * from "./moves.js";
export * from "./parameters.js";
export * from "./maintenance.js";
export * from "./change-feed.js";
export * from "./retry.js";
export * from "./checkpoints.js";
export * from "./dead-letters.js";
export * from "./feed-source.js";
export * from "./feed-changes.js";
export * from "./counters.js";
export * from "./removal.js";
export * from "./rewrite.js";
export * from "./increments.js";
export * from "./journal.js";
