/**
 * The crash-schedule bench (issue 25): the property of src/test-support/crash-property.ts over
 * the six examples (the design the tool writes and the expert model, both checked in under
 * test/fixtures/examples) and `CRASH_RANDOM` random designs (default 50, drawn in turn from the
 * differential bench's workload sources and designed). Each subject runs once without a crash,
 * then `CRASH_POINTS` single crashes (default 6) and `CRASH_DOUBLES` double crashes (default 2)
 * spread over its maintenance steps. Passes when no schedule fails and every subject passes
 * verify without a crash.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Bench } from "./bench.js";

const RANDOM = Number(process.env["CRASH_RANDOM"] ?? 50);
const POINTS = Number(process.env["CRASH_POINTS"] ?? 6);
const DOUBLES = Number(process.env["CRASH_DOUBLES"] ?? 2);

export const bench: Bench = {
  name: "crash schedules: derived data exact when the change-feed processor dies at any step",
  async run(context) {
    const { runCrashProperty, crashReport } = await import("../test-support/crash-property.js");
    const { workloadSources } = await import("../test-support/workload-sources.js");
    const { startEmbeddedEndpoint } = await import("../verify/endpoint.js");
    const { loadWorkload } = await import("../workload/load-workload.js");
    const { loadModel } = await import("../model/load-model.js");
    const { designModel } = await import("../design/design-model.js");
    const subjects = [];
    for (const example of readdirSync(context.modelsDir, { withFileTypes: true })) {
      if (!example.isDirectory()) continue;
      const text = readFileSync(join(context.examplesDir, example.name, "workload.yaml"), "utf8");
      const workload = loadWorkload(text, { file: "workload.yaml" });
      if (!workload.ok) continue;
      const files = readdirSync(join(context.modelsDir, example.name)).filter(
        (file) => file === "expert-model.yaml" || file.startsWith("design-"),
      );
      for (const file of files) {
        const model = loadModel(readFileSync(join(context.modelsDir, example.name, file), "utf8"), {
          file,
          workload: workload.value,
        });
        if (model.ok)
          subjects.push({ label: `${example.name}/${file}`, workload: workload.value, model: model.value });
      }
    }
    const sources = await workloadSources();
    for (let index = 0; index < RANDOM; index++) {
      const source = sources[index % sources.length];
      if (source === undefined) continue;
      const seed = Math.floor(index / sources.length) + 1;
      const workload = loadWorkload(source.draw(seed).text, { file: "workload.yaml" });
      if (!workload.ok) continue;
      subjects.push({
        label: `${source.name} seed ${seed}`,
        workload: workload.value,
        model: designModel(workload.value).model,
      });
    }
    const endpoint = await startEmbeddedEndpoint();
    const started = performance.now();
    try {
      const outcome = await runCrashProperty(endpoint, subjects, {
        points: POINTS,
        doubles: DOUBLES,
        onProgress: (line) => process.stderr.write(`${line}\n`),
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      return {
        passed: outcome.failures.length === 0 && outcome.baselineFailures.length === 0,
        ran: true,
        report: `${crashReport(outcome)}\ntime: ${seconds} s`,
      };
    } finally {
      await endpoint.close();
    }
  },
};
