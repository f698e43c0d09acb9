import { readFileSync } from "node:fs";
const lib = await import("./dist/index.js");
const names = ["blogging","social-reactions","ecommerce","iot-telemetry","multitenant-saas","accounts-sessions"];
for (let round = 0; round < 8; round++) {
  for (const n of names) {
    const w = lib.loadWorkload(readFileSync(`examples/${n}/workload.yaml`, "utf8"));
    lib.designModel(w.value);
  }
  globalThis.gc();
  console.log(round, Math.round(process.memoryUsage().heapUsed / 1e6), "MB");
}
