/**
 * `cosmos-modeler import <postgres URL | schema.sql> [--out DIR] [--dialect D] [--force] [--json]`:
 * drafts the workload from an existing relational database and starts the interview session
 * in DIR with it (workload.yaml, cosmosdb_requirements.md, .cosmos-modeler/session.json).
 */
import { resolve } from "node:path";
import { Option } from "commander";
import type { CommandRegistration } from "../support/command.js";
import { importDatabase } from "../../import/import-database.js";
import { REQUIRED_PRIVILEGES } from "../../import/postgres/catalog-queries.js";
import { isConnectionUrl, redactConnectionUrl } from "../../import/postgres/connection-url.js";
import { SQL_DIALECTS, type SqlDialect } from "../../import/snapshot/snapshot.js";
import { formatFieldPath } from "../../session/import-record.js";
import { startImportedSession } from "../../session-store/import-session.js";
import { checkOutputPath } from "../../files/output-path.js";
import { DDL_INPUT, readInputFile } from "../../files/io.js";
import { EXIT_OK, printJson, printText } from "../support/output.js";

export const register: CommandRegistration = (program) => {
  program
    .command("import")
    .description(
      "draft the workload from an existing database (PostgreSQL URL) or a DDL file, for the interview to continue",
    )
    .argument(
      "<source>",
      "postgres://user@host:port/database (password in PGPASSWORD or ~/.pgpass), or a schema .sql file",
    )
    .option(
      "--out <dir>",
      "session folder to write (workload.yaml, cosmosdb_requirements.md, .cosmos-modeler/)",
      ".",
    )
    .addOption(
      new Option("--dialect <dialect>", "SQL dialect of a DDL file (default: recognised)").choices([
        ...SQL_DIALECTS,
      ]),
    )
    .option("--force", "replace a session that already exists in the folder")
    .option("--json", "print one JSON document on stdout")
    .addHelpText(
      "after",
      `\nA live import runs only catalog and statistics queries, in a read-only transaction. It needs:\n${REQUIRED_PRIVILEGES.map((p) => `  - ${p}`).join("\n")}`,
    )
    .action(
      async (
        source: string,
        options: { out: string; dialect?: SqlDialect; force?: boolean; json?: boolean },
      ) => {
        await checkOutputPath("--out", options.out, "folder");
        const dir = resolve(options.out);
        const result = await importDatabase(source, {
          ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
          readFile: (path) => readInputFile(path, DDL_INPUT),
          now: new Date().toISOString(),
        });
        const saved = await startImportedSession(dir, result.draft, result.record, {
          replace: options.force === true,
          replaceHint: "Pass --force to replace it",
        });
        const shown = isConnectionUrl(source) ? redactConnectionUrl(source) : source;
        if (options.json === true) {
          printJson({
            ok: true,
            source: shown,
            dir,
            summary: result.summary,
            filesUpdated: saved.filesUpdated,
            notes: result.record.notes,
            unmapped: result.record.unmapped,
            facts: result.record.facts.map((fact) => ({ ...fact, field: formatFieldPath(fact.path) })),
            openItems: saved.readiness.reasons,
          });
        } else {
          const s = result.summary;
          const lines = [
            `Imported ${result.record.source}: ${s.entities} entities, ${s.relationships} relationships, ${s.accessPatterns} access patterns` +
              (s.statementsRead > 0
                ? ` (from ${s.statementsRead} statements, ${s.statementsIgnored} of them not data access)`
                : "") +
              ".",
            ...result.record.notes.map((note) => `  ${note}`),
            `Wrote ${saved.filesUpdated.map((f) => resolve(dir, f)).join(", ")} (the session is kept in ${resolve(dir, ".cosmos-modeler")}).`,
          ];
          if (result.record.unmapped.length > 0) {
            lines.push(`Not imported, for you to review (also listed in cosmosdb_requirements.md):`);
            for (const item of result.record.unmapped)
              lines.push(`  - ${item.kind} ${item.name}: ${item.reason}`);
          }
          lines.push(
            `Next: cosmos-modeler interview --dir ${options.out} (asks the peak rates and what the database cannot tell), or point the MCP server at the folder.`,
          );
          printText(`${lines.join("\n")}\n`);
        }
        process.exitCode = EXIT_OK;
      },
    );
};
