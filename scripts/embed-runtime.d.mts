/** The runtime's source files, by name, in name order. */
export function runtimeSources(): { name: string; content: string }[];
/** Writes src/render/code/runtime-files.generated.ts; returns true when it changed. */
export function embedRuntime(): boolean;
