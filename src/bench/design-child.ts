/**
 * Child process of the design speed bench: `node design-child.js <workload file> <repetitions>`
 * loads the workload, designs it that many times and prints one JSON line: the wall time of each
 * design in ms (design alone: loading is not timed), the patterns and the containers designed.
 */
import { readFileSync } from "node:fs";
import { formatIssue } from "../common/issues.js";
import { designModel } from "../design/design-model.js";
import { loadWorkload } from "../workload/load-workload.js";

const [file, repetitions] = process.argv.slice(2);
if (file === undefined) throw new Error("usage: design-child.js <workload file> <repetitions>");
const loaded = loadWorkload(readFileSync(file, "utf8"), { file });
if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
const times: number[] = [];
let containers = 0;
for (let run = 0; run < Number(repetitions ?? 1); run++) {
  const start = performance.now();
  containers = designModel(loaded.value).model.containers.length;
  times.push(performance.now() - start);
}
process.stdout.write(
  `${JSON.stringify({ times, patterns: loaded.value.accessPatterns.length, containers })}\n`,
);
