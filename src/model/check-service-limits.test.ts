import { describe, expect, it } from "vitest";
import { formatPath } from "../common/issues.js";
import {
  MAX_ACCOUNT_CONTAINERS,
  MAX_PHYSICAL_PARTITIONS,
  MAX_PROVISIONED_RUS,
  MAX_SHARED_DATABASE_CONTAINERS,
} from "../cosmos/limits.js";
import { loadModel } from "./load-model.js";

/** A model of `count` containers; `extra` is added to the first container (YAML flow fields). */
function model(count: number, extra = "", item = "", mode = "manual"): string {
  const containers = Array.from(
    { length: count },
    (_, index) =>
      `  - { name: c${index}, partitionKey: [/k], throughput: { mode: ${mode} }${index === 0 ? extra : ""}, items: [{ type: t, entity: E, id: "{k}", partitionKey: ["{k}"${item}] }] }`,
  );
  return ["version: 1", "containers:", ...containers, ""].join("\n");
}

function errors(text: string): { code: string; path: string; message: string; line?: number }[] {
  return loadModel(text, { file: "m.yaml" })
    .issues.filter((issue) => issue.severity === "error")
    .map((issue) => ({
      code: issue.code,
      path: formatPath(issue.path),
      message: issue.message,
      ...(issue.line === undefined ? {} : { line: issue.line }),
    }));
}

describe("model numbers no account could have", () => {
  it("at most 500 containers per account and 25 on a shared database", () => {
    expect(errors(model(MAX_ACCOUNT_CONTAINERS))).toEqual([]);
    expect(errors(model(MAX_ACCOUNT_CONTAINERS + 1))).toEqual([
      expect.objectContaining({
        code: "model.invalidValue",
        path: "containers",
        line: 3,
        message: expect.stringContaining("cannot be raised"),
      }),
    ]);
    expect(errors(model(MAX_SHARED_DATABASE_CONTAINERS, "", "", "shared"))).toEqual([]);
    expect(errors(model(MAX_SHARED_DATABASE_CONTAINERS + 1, "", "", "shared"))).toEqual([
      expect.objectContaining({
        path: "containers",
        message: expect.stringContaining("at most 25 containers"),
      }),
    ]);
  });

  it("RU/s up to the management API's 32-bit maximum, with its source", () => {
    const manual = (rus: number) =>
      model(1).replace("throughput: { mode: manual }", `throughput: { mode: manual, rus: ${rus} }`);
    expect(errors(manual(2_147_483_600))).toEqual([]);
    const [error] = errors(manual(2_147_483_700));
    expect(error).toMatchObject({ path: "containers[0].throughput.rus", line: 3 });
    expect(error?.message).toContain(`expected at most 2,147,483,647 RU/s, got 2,147,483,700`);
    expect(error?.message).toContain("az.cosmosdb");
    const autoscale = model(1).replace(
      "throughput: { mode: manual }",
      `throughput: { mode: autoscale, maxRus: ${(Math.floor(MAX_PROVISIONED_RUS / 1000) + 1) * 1000} }`,
    );
    expect(errors(autoscale)).toEqual([expect.objectContaining({ path: "containers[0].throughput.maxRus" })]);
  });

  it("one issue for a number over 2^53, with the limit and its source", () => {
    const found = errors(
      model(1).replace("throughput: { mode: manual }", "throughput: { mode: manual, rus: 1e20 }"),
    );
    expect(found).toEqual([
      expect.objectContaining({
        path: "containers[0].throughput.rus",
        message: expect.stringMatching(
          /^expected a number at most 9,007,199,254,740,991 .*nosql\/query\/constants/,
        ),
      }),
    ]);
  });

  it("physical partitions, shards and replicas up to the most partitions a container can have", () => {
    expect(MAX_PHYSICAL_PARTITIONS).toBe(42_949_673);
    expect(errors(model(1, `, physicalPartitions: ${MAX_PHYSICAL_PARTITIONS}`))).toEqual([]);
    expect(errors(model(1, `, physicalPartitions: 1000000000`))).toEqual([
      expect.objectContaining({
        path: "containers[0].physicalPartitions",
        message: expect.stringMatching(/^expected at most 42,949,673, got 1,000,000,000: the most physical/),
      }),
    ]);
    const sharded = (n: number) =>
      model(1).replace(
        'partitionKey: ["{k}"] }',
        `partitionKey: ["{k}-{shard}"], shards: ${n}, shardBy: k }`,
      );
    expect(errors(sharded(MAX_PHYSICAL_PARTITIONS))).toEqual([]);
    expect(errors(sharded(MAX_PHYSICAL_PARTITIONS + 1))).toEqual([
      expect.objectContaining({ code: "model.badShards", path: "containers[0].items[0].shards" }),
    ]);
    const replicated = model(1).replace(
      'partitionKey: ["{k}"] }',
      `partitionKey: ["{k}-{replica}"], replicas: ${MAX_PHYSICAL_PARTITIONS + 1} }`,
    );
    expect(errors(replicated)).toEqual([
      expect.objectContaining({ code: "model.badReplicas", path: "containers[0].items[0].replicas" }),
    ]);
  });
});
