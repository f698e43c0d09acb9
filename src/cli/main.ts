#!/usr/bin/env node
/**
 * The `cosmos-modeler` command line: a thin layer over the pure core (STYLE.md rule 1).
 * Each command lives in `commands/`; `run-cli.ts` wires them and turns failures into exit codes.
 */
import { runCli } from "./run-cli.js";

process.exitCode = await runCli(process.argv);
