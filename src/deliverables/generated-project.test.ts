/**
 * The generated data-access project builds as a user builds it: every example's design is
 * written as `design --out` writes it, under `test-output/` (where `node_modules` resolves, as it
 * does after `npm install` in the output folder), then `tsc -b` builds each folder with its own
 * `tsconfig.json` (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes), what `tsc -p
 * <folder>` does, and the module it emits is imported. The `package.json` beside it asks for the versions cosmos-modeler
 * itself is tested with.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../cosmos/prices.js";
import {
  GENERATED_PROJECT_DEPENDENCIES,
  GENERATED_PROJECT_DEV_DEPENDENCIES,
  packageName,
} from "../render/code/render-project.js";
import { designedExample } from "../test-support/designed-examples.js";
import { EXAMPLE_NAMES } from "../test-support/model-examples.js";
import { renderDesignDeliverables } from "./render-deliverables.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const OUTPUT = join(ROOT, "test-output", "generated-project");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

interface PackageJson {
  readonly name: string;
  readonly type: string;
  readonly main: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

describe("the generated project", () => {
  it("asks for the versions cosmos-modeler is tested with", () => {
    const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;
    for (const [name, range] of Object.entries(GENERATED_PROJECT_DEPENDENCIES))
      expect(range, name).toBe(own.dependencies[name]);
    for (const [name, range] of Object.entries(GENERATED_PROJECT_DEV_DEPENDENCIES))
      expect(range, name).toBe(own.dependencies[name] ?? own.devDependencies[name]);
  });

  it("names its package from the workload, as npm allows", () => {
    expect(packageName("Blogging platform")).toBe("blogging-platform-data-access");
    expect(packageName('Ünïcödé */ "x" ${y}')).toBe("unicode-x-y-data-access");
    expect(packageName("!!!")).toBe("data-access");
    expect(packageName("a".repeat(500)).length).toBeLessThanOrEqual(214);
  });

  /** Every example's design written as `design --out` writes it, then built by one `tsc -b`. */
  let build: ReturnType<typeof spawnSync> | undefined;
  const folders = new Map<string, string>();
  beforeAll(async () => {
    for (const name of EXAMPLE_NAMES) {
      // The design with the default prices (DEFAULT_PRICES), once per process.
      const { workload, design } = designedExample(name);
      const files = await renderDesignDeliverables(workload, design, { prices: DEFAULT_PRICES });
      const folder = join(OUTPUT, name);
      rmSync(folder, { recursive: true, force: true });
      for (const file of files) {
        mkdirSync(dirname(join(folder, file.path)), { recursive: true });
        writeFileSync(join(folder, file.path), file.content);
      }
      folders.set(name, folder);
    }
    // `tsc -b` of the six folders builds each with its own tsconfig.json, as `tsc -p <folder>`
    // does, in one process: 20 s instead of six times 8.
    build = spawnSync(process.execPath, [TSC, "-b", ...folders.values()], { encoding: "utf8" });
  }, 180_000);

  it("tsc builds every example's design with the folder's own tsconfig, without a message", () => {
    expect(`${String(build?.stdout)}${String(build?.stderr)}`).toBe("");
    expect(build?.status).toBe(0);
  });

  it.each(EXAMPLE_NAMES)(
    "%s: the package and tsconfig are as documented, and the built module loads",
    async (name) => {
      const folder = folders.get(name) ?? "";
      const pkg = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as PackageJson;
      expect(pkg.type).toBe("module");
      expect(Object.keys(pkg.dependencies)).toEqual(["@azure/cosmos"]);
      const tsconfig = JSON.parse(readFileSync(join(folder, "tsconfig.json"), "utf8")) as {
        compilerOptions: Record<string, unknown>;
      };
      expect(tsconfig.compilerOptions).toMatchObject({
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
      });
      expect(build?.status).toBe(0);
      const module = (await import(pathToFileURL(join(folder, pkg.main)).href)) as Record<string, unknown>;
      expect(typeof module["createDataAccess"]).toBe("function");
      expect(typeof module["startChangeFeedProcessors"]).toBe("function");
    },
  );
});
