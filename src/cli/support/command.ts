/** What every `commands/*.ts` exports: a function that adds its command to the program. */
import type { Command } from "commander";

/** Registers one command; each `commands/*.ts` exports one of these. */
export type CommandRegistration = (program: Command) => void;
