/**
 * The generated data-access code of the write-path reproducers (test/fixtures/writes/) on the
 * embedded endpoint: what the functions return and which items they leave behind, and how many
 * requests they make against what the plan costs (the embedded endpoint charges 1 RU per
 * request, so a request charge is a request count there).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDataAccessFiles } from "../render/code/render-data-access.js";
import { importGenerated, loadWriteFixture, type LoadedExample } from "../test-support/generated-module.js";
import { deployModel, type Deployment } from "./deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "./endpoint.js";

interface Result {
  readonly items?: Record<string, unknown>[];
  readonly item?: Record<string, unknown>;
  readonly changes?: unknown[];
  readonly requestCharge: number;
}
type Access = Record<string, (input: unknown, related?: unknown) => Promise<Result>>;

interface Fixture {
  readonly example: LoadedExample;
  readonly deployment: Deployment;
  readonly call: (name: string, input: unknown, related?: unknown) => Promise<Result>;
  /** Every item of a container, by a query (not counted as a request of the code under test). */
  readonly itemsOf: (container: string) => Promise<Record<string, unknown>[]>;
}

let endpoint: CosmosEndpoint | undefined;
const deployments: Deployment[] = [];

beforeAll(async () => {
  endpoint = await startEmbeddedEndpoint();
}, 30_000);

afterAll(async () => {
  for (const deployment of deployments) await deployment.remove();
  await endpoint?.close();
});

async function openFixture(name: string): Promise<Fixture> {
  if (endpoint === undefined) throw new Error("no endpoint");
  const example = loadWriteFixture(name);
  const deployment = await deployModel(endpoint.client, example.model);
  deployments.push(deployment);
  const module = await importGenerated(
    `writes-${name}`,
    renderDataAccessFiles(example.workload, example.model, example.plans),
  );
  const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
  let turn = 0;
  const access = create(deployment.database, {
    transactionalBatch: false,
    random: () => (turn++ % 4) / 4,
  });
  return {
    example,
    deployment,
    call: (fn, input, related) => {
      const found = access[fn];
      if (found === undefined) throw new Error(`no function ${fn} in ${Object.keys(access).join(", ")}`);
      return found(input, related);
    },
    itemsOf: async (container) => {
      const cosmos = deployment.containers.get(container);
      if (cosmos === undefined) throw new Error(`no container ${container}`);
      const { resources } = await cosmos.items.query<Record<string, unknown>>("SELECT * FROM c").fetchAll();
      return resources;
    },
  };
}

describe("select and truncate (sel.yaml)", () => {
  it("a point read returns only the selected attributes; a query cuts in the SQL and to bytes", async () => {
    const fixture = await openFixture("sel");
    const customer = {
      customerId: "c1",
      name: "Ann",
      email: "ann@example.com",
      passwordHash: "secret-hash",
      bio: "é".repeat(80),
      city: "Lyon",
    };
    await fixture.call("c1SignUp", customer);
    const card = await fixture.call("q2CustomerCard", { customerId: "c1" });
    expect(card.item).toEqual({ id: "c1", customerId: "c1", name: "Ann", email: "ann@example.com" });
    // Still one point read, charged for the whole item.
    expect(card.requestCharge).toBe(1);
    const city = await fixture.call("q1CustomersInCity", { city: "Lyon" });
    // 80 two-byte characters cut to 100 bytes: 50 characters, never half of one.
    expect(city.items).toEqual([{ id: "c1", customerId: "c1", name: "Ann", bio: "é".repeat(50) }]);
  }, 60_000);

  it("the query asks for LEFT(bio) and the selected properties only", () => {
    const plan = loadWriteFixture("sel").plans.find((p) => p.patternId === "Q1");
    const first = plan?.operations[0];
    expect(first?.kind === "query" ? first.sql : "").toBe(
      "SELECT TOP @limit c.id, c.customerId, c.name, LEFT(c.bio, @bioChars) AS bio FROM c WHERE c.type = @type AND c.city = @city",
    );
  });
});
