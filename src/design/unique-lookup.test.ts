/**
 * Issue 26's unique business value: the hottest lookup of a value that must never be issued twice
 * (a booking's confirmation code, a vehicle's VIN) gets a lookup item whose id and partition key
 * are the value, created before the record (a create conflict refuses a second one), and the read
 * is two point reads instead of a query over every partition. Two workloads of our own.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import { designModel } from "./design-model.js";

const FIXTURES = new URL("../../test/fixtures/expert-classes/", import.meta.url);

const CASES = [
  { file: "bookings.yaml", entity: "Booking", attribute: "confirmationCode", read: "Q1", write: "W1" },
  { file: "vehicles.yaml", entity: "Vehicle", attribute: "vin", read: "V1", write: "V3" },
] as const;

describe("a unique value read by itself", () => {
  it.each(CASES)(
    "$file: a lookup item keyed by the unique value",
    ({ file, entity, attribute, read, write }) => {
      const loaded = loadWorkload(readFileSync(new URL(file, FIXTURES), "utf8"), { file });
      if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
      const { model, evaluation } = designModel(loaded.value);
      const lookups = model.containers.flatMap((container) =>
        container.items
          .filter((item) => item.entity === entity && item.id.includes(`{${attribute}}`))
          .map((item) => ({ container: container.name, item })),
      );
      expect(lookups).toHaveLength(1);
      const [lookup] = lookups;
      // Keyed by the value alone: one logical partition per value, so a create conflict is global.
      expect(lookup?.item.id).toMatch(new RegExp(`\\{${attribute}\\}$`));
      expect(lookup?.item.id.match(/\{/g)).toHaveLength(1);
      const readPlan = evaluation.patterns.find((p) => p.id === read)?.plan;
      expect(readPlan?.operations.map((step) => step.kind)).toEqual(["pointRead", "pointRead"]);
      expect(readPlan?.operations[0]).toMatchObject({
        container: lookup?.container,
        itemType: lookup?.item.type,
      });
      expect(evaluation.patterns.find((p) => p.id === read)?.fanOut).toBe(false);
      // The lookup is created first: the record is written only once the value is claimed.
      const writePlan = evaluation.patterns.find((p) => p.id === write)?.plan;
      const creates = writePlan?.operations.filter((step) => step.kind === "write");
      expect(creates?.[0]).toMatchObject({ itemType: lookup?.item.type });
      expect(evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    },
  );
});
