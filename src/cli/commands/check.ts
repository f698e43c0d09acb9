/**
 * `cosmos-modeler check <workload> [--json]`: loads a workload file and lists every issue.
 * Exit status 0 when it loads (warnings allowed), 1 when it has errors, 2 on wrong usage.
 */
import type { CommandRegistration } from "../support/command.js";
import { issueToJson } from "../../common/issues.js";
import { checkWorkloadText, summarize } from "../../workload/check-report.js";
import { inputName, readInputFile, WORKLOAD_INPUT } from "../../files/io.js";
import { EXIT_INPUT_ERROR, EXIT_OK, printJson, printText, reportIssues } from "../support/output.js";

export const register: CommandRegistration = (program) => {
  program
    .command("check")
    .description("validate a workload file and list its issues")
    .argument("<workload>", "workload file (YAML or JSON), or - for standard input")
    .option("--json", "print one JSON document on stdout")
    .action(async (file: string, options: { json?: boolean }) => {
      const report = checkWorkloadText(await readInputFile(file, WORKLOAD_INPUT), inputName(file));
      if (options.json === true) {
        printJson({ ...report, issues: report.issues.map(issueToJson) });
      } else {
        reportIssues(report.issues);
        printText(`${summarize(report)}\n`);
      }
      process.exitCode = report.ok ? EXIT_OK : EXIT_INPUT_ERROR;
    });
};
