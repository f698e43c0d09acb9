import { describe, expect, it } from "vitest";
import { progressLine } from "./progress.js";
import { withCliStreams } from "./streams.js";

async function drawn(enabled: boolean, steps: readonly [number, number, number][]): Promise<string> {
  let stderr = "";
  await withCliStreams({ stdout: () => undefined, stderr: (text) => (stderr += text) }, async () => {
    let time = 0;
    const progress = progressLine(enabled, () => time);
    for (const [at, done, total] of steps) {
      time = at;
      progress.update("design", done, total);
    }
    progress.end();
  });
  return stderr;
}

describe("the progress line", () => {
  it("redraws at most every 100 ms, always the last step, then ends its line", async () => {
    const text = await drawn(true, [
      [0, 0, 4],
      [50, 1, 4],
      [120, 2, 4],
      [130, 4, 4],
    ]);
    const lines = text.split("\r").filter((line) => line !== "");
    expect(lines.map((line) => /\] (\d+\/\d+)/.exec(line)?.[1])).toEqual(["0/4", "2/4", "4/4"]);
    expect(lines.at(-1)).toMatch(/\[#{30}\] 4\/4 \n$/);
  });

  it("draws nothing when not enabled (not a terminal, or --json)", async () => {
    expect(await drawn(false, [[0, 1, 2]])).toBe("");
  });
});
