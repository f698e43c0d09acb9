/**
 * Issue 29, "documents that are true": the README's usage block names every command and every
 * option each command registers, and nothing else; docs/json-output.md names no option a command
 * does not have. The options come from the commands' own registrations (commander), so a flag
 * added, renamed or removed in the code fails here until the documents say the same.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registeredCommands } from "../../src/cli/run-cli.js";
import { root } from "../interview/terminal.js";

const readme = readFileSync(join(root, "README.md"), "utf8");

/** The README's usage block: `cosmos-modeler <command> ...` lines, each with its options. */
function usageBlock(): Map<string, Set<string>> {
  const block = /```sh\n(cosmos-modeler check[\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const usage = new Map<string, Set<string>>();
  for (const line of block.split("\n")) {
    const match = /^cosmos-modeler ([a-z][a-z-]*)(.*)$/.exec(line.replace(/\s+#.*$/, ""));
    if (match === null) continue;
    const options = new Set((match[2] ?? "").match(/--[a-z][a-z-]*/g) ?? []);
    usage.set(match[1] ?? "", options);
  }
  return usage;
}

describe("the README's usage block", () => {
  it("lists every command and every option of each, as the code registers them", async () => {
    const usage = usageBlock();
    const commands = await registeredCommands();
    expect([...usage.keys()].sort()).toEqual(commands.map((c) => c.name).sort());
    for (const command of commands) {
      const documented = [...(usage.get(command.name) ?? [])].sort();
      expect(documented, command.name).toEqual(command.options.filter((o) => o !== "--help").sort());
    }
  });

  it("names in docs/json-output.md only options some command has", async () => {
    const all = new Set((await registeredCommands()).flatMap((c) => c.options));
    for (const flag of ["--version", "--debug", "--help"]) all.add(flag);
    const text = readFileSync(join(root, "docs", "json-output.md"), "utf8");
    const named = new Set(text.match(/(?<![\w'-])--[a-z][a-z-]*/g) ?? []);
    expect([...named].filter((flag) => !all.has(flag))).toEqual([]);
  });
});
