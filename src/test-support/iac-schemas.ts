/**
 * Checks generated infrastructure against checked-in extracts of the schemas Azure applies:
 * Terraform (parsed by `@cdktf/hcl2json`) against the azurerm provider's argument schema, Bicep
 * (parsed by `bicep-subset.ts`) against the Microsoft.DocumentDB resource types. Each check
 * returns the problems found, each naming the path of the argument, so a test can show them all.
 * The extracts, their sources and how they were built: `test/fixtures/iac-schemas/`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "@cdktf/hcl2json";
import type { BicepFile, BicepNode, BicepParam } from "./bicep-subset.js";
import { REPO_ROOT } from "./model-examples.js";

const SCHEMAS = join(REPO_ROOT, "test", "fixtures", "iac-schemas");

// ---------------------------------------------------------------- Terraform

interface TfAttribute {
  readonly type: "string" | "number" | "bool" | "list" | "set" | "map";
  readonly required?: boolean;
  readonly computedOnly?: boolean;
  readonly deprecated?: boolean;
  readonly values?: readonly string[];
  readonly caseInsensitive?: boolean;
  readonly pattern?: string;
  readonly format?: "uuid";
  readonly min?: number;
  readonly max?: number;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly conflictsWith?: readonly string[];
}

interface TfBlock {
  readonly min?: number;
  readonly max?: number;
  readonly extracted?: boolean;
  readonly attributes?: Readonly<Record<string, TfAttribute>>;
  readonly blocks?: Readonly<Record<string, TfBlock>>;
}

export interface AzurermSchema {
  readonly source: string;
  readonly provider: TfBlock;
  readonly resources: Readonly<Record<string, TfBlock>>;
}

export function loadAzurermSchema(): AzurermSchema {
  return JSON.parse(readFileSync(join(SCHEMAS, "azurerm-4.78.0-cosmosdb.json"), "utf8")) as AzurermSchema;
}

/** The JSON form of a Terraform file (`@cdktf/hcl2json`). */
export type TerraformJson = Readonly<Record<string, unknown>>;

export async function parseTerraform(text: string): Promise<TerraformJson> {
  return (await parse("main.tf", text)) as TerraformJson;
}

interface TfVariable {
  readonly type: string;
  readonly defaultValue: unknown;
}

const META_ARGUMENTS = new Set(["for_each", "count", "depends_on", "lifecycle", "provider"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tfVariables(json: TerraformJson): Map<string, TfVariable> {
  const variables = new Map<string, TfVariable>();
  const declared = json["variable"];
  if (!isObject(declared)) return variables;
  for (const [name, bodies] of Object.entries(declared)) {
    const body = Array.isArray(bodies) && isObject(bodies[0]) ? bodies[0] : {};
    const type = typeof body["type"] === "string" ? body["type"].replace(/^\$\{(.*)\}$/, "$1") : "any";
    variables.set(name, { type, defaultValue: body["default"] });
  }
  return variables;
}

function tfTypeOf(value: unknown): TfAttribute["type"] | "null" | "unknown" {
  if (value === null) return "null";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "list";
  if (isObject(value)) return "map";
  return "unknown";
}

function literalProblems(value: unknown, attribute: TfAttribute, path: string): string[] {
  const problems: string[] = [];
  const actual = tfTypeOf(value);
  const expected = attribute.type === "set" ? "list" : attribute.type;
  if (actual !== expected)
    return [`${path}: ${JSON.stringify(value)} is a ${actual}, the schema wants ${attribute.type}`];
  if (typeof value === "string") {
    const values = attribute.values;
    const compare = (v: string) => (attribute.caseInsensitive === true ? v.toLowerCase() : v);
    if (values !== undefined && !values.map(compare).includes(compare(value))) {
      problems.push(`${path}: "${value}" is not one of ${values.join(", ")}`);
    }
    if (attribute.pattern !== undefined && !new RegExp(attribute.pattern).test(value)) {
      problems.push(`${path}: "${value}" does not match ${attribute.pattern}`);
    }
    if (attribute.format === "uuid" && !/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(value)) {
      problems.push(`${path}: "${value}" is not a UUID`);
    }
    if (attribute.minLength !== undefined && value.length < attribute.minLength)
      problems.push(`${path}: too short`);
    if (attribute.maxLength !== undefined && value.length > attribute.maxLength)
      problems.push(`${path}: too long`);
  }
  if (typeof value === "number") {
    if (attribute.min !== undefined && value < attribute.min)
      problems.push(`${path}: ${value} < ${attribute.min}`);
    if (attribute.max !== undefined && value > attribute.max)
      problems.push(`${path}: ${value} > ${attribute.max}`);
    if (attribute.multipleOf !== undefined && value % attribute.multipleOf !== 0) {
      problems.push(`${path}: ${value} is not a multiple of ${attribute.multipleOf}`);
    }
  }
  return problems;
}

function attributeProblems(
  value: unknown,
  attribute: TfAttribute,
  path: string,
  variables: ReadonlyMap<string, TfVariable>,
): string[] {
  if (attribute.computedOnly === true) return [`${path}: computed by the provider, cannot be set`];
  if (attribute.deprecated === true) return [`${path}: deprecated argument`];
  if (typeof value === "string" && value.includes("${")) {
    // A whole `var.x` reference: its declared type and default must fit the argument.
    const reference = /^\$\{var\.([a-z_][a-z0-9_]*)\}$/.exec(value);
    if (reference?.[1] === undefined) return [];
    const variable = variables.get(reference[1]);
    if (variable === undefined) return [`${path}: variable ${reference[1]} is not declared`];
    const base = variable.type.replace(/\(.*\)$/, "");
    const wanted = attribute.type === "set" ? ["list", "set"] : [attribute.type];
    if (!wanted.includes(base as TfAttribute["type"])) {
      return [`${path}: variable ${reference[1]} is ${variable.type}, the schema wants ${attribute.type}`];
    }
    return variable.defaultValue === undefined || variable.defaultValue === null
      ? []
      : literalProblems(variable.defaultValue, attribute, `${path} (default of var.${reference[1]})`);
  }
  return literalProblems(value, attribute, path);
}

function blockProblems(
  body: Readonly<Record<string, unknown>>,
  schema: TfBlock,
  path: string,
  variables: ReadonlyMap<string, TfVariable>,
  topLevel: boolean,
): string[] {
  if (schema.extracted === false) return [`${path}: block not in the schema extract (extract it first)`];
  const problems: string[] = [];
  const blockCounts = new Map<string, number>();
  for (const [key, value] of Object.entries(body)) {
    if (topLevel && META_ARGUMENTS.has(key)) continue;
    if (key === "dynamic" && isObject(value)) {
      for (const [name, entries] of Object.entries(value)) {
        const block = schema.blocks?.[name];
        if (block === undefined) {
          problems.push(`${path}.dynamic.${name}: no such block`);
          continue;
        }
        for (const entry of Array.isArray(entries) ? entries : []) {
          const content =
            isObject(entry) && Array.isArray(entry["content"]) ? entry["content"][0] : undefined;
          if (!isObject(entry) || entry["for_each"] === undefined || !isObject(content)) {
            problems.push(`${path}.dynamic.${name}: needs for_each and content`);
            continue;
          }
          problems.push(
            ...blockProblems(content, block, `${path}.dynamic.${name}.content`, variables, false),
          );
        }
      }
      continue;
    }
    const attribute = schema.attributes?.[key];
    if (attribute !== undefined) {
      problems.push(...attributeProblems(value, attribute, `${path}.${key}`, variables));
      for (const other of attribute.conflictsWith ?? []) {
        if (other in body) problems.push(`${path}: ${key} conflicts with ${other}`);
      }
      continue;
    }
    const block = schema.blocks?.[key];
    if (block === undefined) {
      problems.push(`${path}.${key}: not an argument or block of the schema`);
      continue;
    }
    const items = Array.isArray(value) ? value : [];
    blockCounts.set(key, items.length);
    if (block.max !== undefined && items.length > block.max)
      problems.push(`${path}.${key}: at most ${block.max}`);
    items.forEach((item, i) => {
      if (!isObject(item)) problems.push(`${path}.${key}[${i}]: not a block`);
      else problems.push(...blockProblems(item, block, `${path}.${key}[${i}]`, variables, false));
    });
  }
  for (const [name, attribute] of Object.entries(schema.attributes ?? {})) {
    if (attribute.required === true && !(name in body)) problems.push(`${path}.${name}: required, missing`);
  }
  for (const [name, block] of Object.entries(schema.blocks ?? {})) {
    if ((block.min ?? 0) > (blockCounts.get(name) ?? 0))
      problems.push(`${path}.${name}: block required, missing`);
  }
  return problems;
}

/**
 * The provider of a resource type of `main.tf`: azurerm's resources are checked against the
 * azurerm extract, azapi's `azapi_resource` against the Microsoft.DocumentDB extract of the API
 * version its `type` names. Any other type is a problem.
 */
function providerOf(type: string): "azurerm" | "azapi" | undefined {
  if (type.startsWith("azurerm_")) return "azurerm";
  return type === "azapi_resource" ? "azapi" : undefined;
}

/**
 * Problems of a parsed `main.tf` (empty when it conforms): the azurerm provider and each azurerm
 * resource against the azurerm extract, each `azapi_resource` (with azapi among the required
 * providers) against the Microsoft.DocumentDB extracts (`documentDb`, loaded when not given).
 */
export function terraformProblems(
  json: TerraformJson,
  schema: AzurermSchema,
  documentDb?: BicepSchemas,
): string[] {
  const variables = tfVariables(json);
  const problems: string[] = [];
  const provider = isObject(json["provider"]) ? json["provider"]["azurerm"] : undefined;
  const providerBody = Array.isArray(provider) && isObject(provider[0]) ? provider[0] : undefined;
  if (providerBody === undefined) problems.push('provider "azurerm": missing');
  else problems.push(...blockProblems(providerBody, schema.provider, "provider.azurerm", variables, false));
  const resources = isObject(json["resource"]) ? json["resource"] : {};
  for (const [type, named] of Object.entries(resources)) {
    const resourceSchema = schema.resources[type];
    const owner = providerOf(type);
    for (const [name, bodies] of Object.entries(isObject(named) ? named : {})) {
      const body = Array.isArray(bodies) && isObject(bodies[0]) ? bodies[0] : {};
      switch (owner) {
        case "azurerm":
          if (resourceSchema === undefined)
            problems.push(`${type}.${name}: resource type not in the extract`);
          else problems.push(...blockProblems(body, resourceSchema, `${type}.${name}`, variables, true));
          break;
        case "azapi":
          problems.push(...azapiResourceProblems(json, name, body, documentDb ?? loadBicepSchemas()));
          break;
        case undefined:
          problems.push(`${type}.${name}: resource type of neither azurerm nor azapi`);
          break;
        default:
          owner satisfies never;
      }
    }
  }
  return problems;
}

/** `source` of a provider in `terraform { required_providers { ... } }`, if declared. */
function requiredProviderSource(json: TerraformJson, provider: string): string | undefined {
  const terraform = json["terraform"];
  const block = Array.isArray(terraform) && isObject(terraform[0]) ? terraform[0] : {};
  const required = block["required_providers"];
  const providers = Array.isArray(required) && isObject(required[0]) ? required[0] : {};
  const entry = providers[provider];
  return isObject(entry) && typeof entry["source"] === "string" ? entry["source"] : undefined;
}

/** The azurerm resource that creates an ARM resource type, for `parent_id`. */
const AZURERM_OF_ARM_TYPE: Readonly<Record<string, string>> = {
  "Microsoft.DocumentDB/databaseAccounts": "azurerm_cosmosdb_account",
  "Microsoft.DocumentDB/databaseAccounts/sqlDatabases": "azurerm_cosmosdb_sql_database",
};

const AZAPI_ARGUMENTS = new Set(["type", "name", "parent_id", "body"]);

/**
 * Problems of one `azapi_resource`: azapi required as `Azure/azapi`; `type`, `name`, `parent_id`
 * and `body` and nothing else; `parent_id` the `id` of a resource of this file that creates the
 * parent ARM type; `body` (with `name`) against the extract of the API version in `type`, as the
 * script's REST bodies are (`restBodyProblems`).
 */
function azapiResourceProblems(
  json: TerraformJson,
  name: string,
  body: Readonly<Record<string, unknown>>,
  documentDb: BicepSchemas,
): string[] {
  const path = `azapi_resource.${name}`;
  const problems: string[] = [];
  if (requiredProviderSource(json, "azapi")?.toLowerCase() !== "azure/azapi")
    problems.push(`${path}: provider azapi not required with source "Azure/azapi"`);
  for (const key of Object.keys(body)) {
    if (!AZAPI_ARGUMENTS.has(key) && !META_ARGUMENTS.has(key))
      problems.push(`${path}.${key}: not an argument this file's azapi_resource uses`);
  }
  const type = body["type"];
  const resourceName = body["name"];
  if (typeof type !== "string" || typeof resourceName !== "string")
    return [...problems, `${path}: type and name must be strings`];
  const armType = type.split("@")[0] ?? "";
  const parentType = armType.split("/").slice(0, -1).join("/");
  const parent = /^\$\{([a-z_]+)\.([A-Za-z0-9_-]+)\.id\}$/.exec(String(body["parent_id"]));
  const resources = isObject(json["resource"]) ? json["resource"] : {};
  const declared = parent === null ? undefined : resources[parent[1] ?? ""];
  if (
    parent === null ||
    parent[1] !== AZURERM_OF_ARM_TYPE[parentType] ||
    !isObject(declared) ||
    !((parent[2] ?? "") in declared)
  )
    problems.push(
      `${path}.parent_id: ${JSON.stringify(body["parent_id"])} is not the id of a ${AZURERM_OF_ARM_TYPE[parentType] ?? parentType} of this file`,
    );
  problems.push(
    ...restBodyProblems(type, resourceName, body["body"], documentDb).map((p) => `${path}: ${p}`),
  );
  return problems;
}

// ---------------------------------------------------------------- Bicep

interface BicepPropertyType {
  readonly type: string;
  readonly required?: boolean;
  readonly readOnly?: boolean;
  readonly extracted?: boolean;
  readonly values?: readonly string[];
  readonly items?: BicepPropertyType;
  readonly min?: number;
  readonly max?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
}

type BicepObjectType = Readonly<Record<string, unknown>>;

/** The extract of one API version: resources `type@version` to their type, and the types. */
export interface BicepSchema {
  readonly source: string;
  readonly resourceKeywords: readonly string[];
  readonly resources: Readonly<Record<string, string>>;
  readonly types: Readonly<Record<string, BicepObjectType>>;
}

/** Every Microsoft.DocumentDB extract, by API version (`bicep-documentdb-<version>.json`). */
export type BicepSchemas = ReadonlyMap<string, BicepSchema>;

export function loadBicepSchemas(): BicepSchemas {
  const schemas = new Map<string, BicepSchema>();
  for (const file of readdirSync(SCHEMAS).sort()) {
    const version = /^bicep-documentdb-(.+)\.json$/.exec(file)?.[1];
    if (version === undefined) continue;
    schemas.set(version, JSON.parse(readFileSync(join(SCHEMAS, file), "utf8")) as BicepSchema);
  }
  return schemas;
}

const PRIMITIVES = new Set(["string", "int", "bool", "array", "object"]);

interface BicepContext {
  readonly file: BicepFile;
  readonly schema: BicepSchema;
}

function paramProblems(param: BicepParam, expected: BicepPropertyType, path: string): string[] {
  const wanted = PRIMITIVES.has(expected.type) ? expected.type : "object";
  if (param.type !== wanted)
    return [`${path}: param ${param.name} is ${param.type}, the schema wants ${expected.type}`];
  const candidates = [
    ...(param.allowed ?? []),
    ...(param.defaultValue === undefined ? [] : [param.defaultValue]),
  ];
  return candidates.flatMap((node) =>
    node.kind === "expression" ? [] : literalBicepProblems(node, expected, `${path} (param ${param.name})`),
  );
}

/** The nodes an expression stands for, when it names vars, params, concat() or a conditional. */
function expressionProblems(
  text: string,
  expected: BicepPropertyType,
  path: string,
  context: BicepContext,
): string[] {
  const branch = "([A-Za-z_][A-Za-z0-9_]*|'[^'\\\\]*')";
  const conditional = new RegExp(`^[^?]+\\?\\s*${branch}\\s*:\\s*${branch}$`).exec(text);
  if (conditional?.[1] !== undefined && conditional[2] !== undefined) {
    return [conditional[1], conditional[2]].flatMap((side) =>
      side.startsWith("'")
        ? literalBicepProblems({ kind: "string", value: side.slice(1, -1) }, expected, path)
        : expressionProblems(side, expected, path, context),
    );
  }
  const concat = /^concat\(([^()]+)\)$/.exec(text);
  if (concat?.[1] !== undefined) {
    return concat[1].split(",").flatMap((name) => expressionProblems(name.trim(), expected, path, context));
  }
  const variable = context.file.vars.get(text);
  if (variable !== undefined) return checkNode(variable, expected, `${path} (var ${text})`, context);
  const param = context.file.params.get(text);
  if (param !== undefined) return paramProblems(param, expected, path);
  // Another computed value (a loop variable, a function, a property of a resource): it can only
  // stand where a primitive is expected.
  return PRIMITIVES.has(expected.type) && expected.type !== "object"
    ? []
    : [`${path}: cannot check the expression ${text} against ${expected.type}`];
}

function literalBicepProblems(node: BicepNode, expected: BicepPropertyType, path: string): string[] {
  if (node.kind === "string") {
    if (expected.type !== "string") return [`${path}: a string where the schema wants ${expected.type}`];
    const problems: string[] = [];
    if (expected.values !== undefined && !expected.values.includes(node.value)) {
      problems.push(`${path}: '${node.value}' is not one of ${expected.values.join(", ")}`);
    }
    if (expected.pattern !== undefined && !new RegExp(expected.pattern).test(node.value)) {
      problems.push(`${path}: '${node.value}' does not match ${expected.pattern}`);
    }
    if (expected.minLength !== undefined && node.value.length < expected.minLength)
      problems.push(`${path}: too short`);
    if (expected.maxLength !== undefined && node.value.length > expected.maxLength)
      problems.push(`${path}: too long`);
    return problems;
  }
  if (node.kind === "number") {
    if (expected.type !== "int") return [`${path}: a number where the schema wants ${expected.type}`];
    const problems: string[] = [];
    if (!Number.isInteger(node.value)) problems.push(`${path}: ${node.value} is not an integer`);
    if (expected.min !== undefined && node.value < expected.min)
      problems.push(`${path}: ${node.value} < ${expected.min}`);
    if (expected.max !== undefined && node.value > expected.max)
      problems.push(`${path}: ${node.value} > ${expected.max}`);
    return problems;
  }
  if (node.kind === "bool")
    return expected.type === "bool" ? [] : [`${path}: a bool where the schema wants ${expected.type}`];
  return [];
}

function objectProblems(
  node: BicepNode,
  typeName: string,
  path: string,
  context: BicepContext,
  keywords: readonly string[],
): string[] {
  if (node.kind !== "object") return [`${path}: not an object (${typeName})`];
  let type = context.schema.types[typeName];
  if (type === undefined) return [`${path}: type ${typeName} not in the extract`];
  const discriminator = type["$discriminator"];
  if (typeof discriminator === "string") {
    const tag = node.properties.get(discriminator);
    const variants = type["$variants"] as Readonly<Record<string, string>>;
    const variant = tag?.kind === "string" ? variants[tag.value] : undefined;
    if (variant === undefined)
      return [`${path}.${discriminator}: must be a literal of ${Object.keys(variants).join(", ")}`];
    type = context.schema.types[variant] ?? {};
  }
  const problems: string[] = [];
  for (const [key, value] of node.properties) {
    if (keywords.includes(key)) continue;
    const property = type[key] as BicepPropertyType | undefined;
    if (property === undefined || key.startsWith("$")) {
      problems.push(`${path}.${key}: not a property of ${typeName}`);
      continue;
    }
    problems.push(...checkNode(value, property, `${path}.${key}`, context));
  }
  for (const [key, property] of Object.entries(type)) {
    if (
      !key.startsWith("$") &&
      (property as BicepPropertyType).required === true &&
      !node.properties.has(key)
    ) {
      problems.push(`${path}.${key}: required, missing`);
    }
  }
  for (const group of (type["$oneOf"] as readonly (readonly string[])[] | undefined) ?? []) {
    if (group.filter((key) => node.properties.has(key)).length > 1)
      problems.push(`${path}: only one of ${group.join(", ")}`);
  }
  return problems;
}

function checkNode(
  node: BicepNode,
  expected: BicepPropertyType,
  path: string,
  context: BicepContext,
): string[] {
  if (expected.readOnly === true) return [`${path}: read-only`];
  if (expected.extracted === false) return [`${path}: not in the schema extract (extract it first)`];
  switch (node.kind) {
    case "expression":
      return expressionProblems(node.text, expected, path, context);
    case "string":
    case "number":
    case "bool":
      return literalBicepProblems(node, expected, path);
    case "array":
      if (expected.type !== "array" || expected.items === undefined)
        return [`${path}: an array where the schema wants ${expected.type}`];
      return node.items.flatMap((item, i) =>
        checkNode(item, expected.items as BicepPropertyType, `${path}[${i}]`, context),
      );
    case "for":
      if (expected.type !== "array" || expected.items === undefined)
        return [`${path}: a loop where the schema wants ${expected.type}`];
      return checkNode(node.body, expected.items, `${path}[for]`, context);
    case "object":
      return PRIMITIVES.has(expected.type)
        ? [`${path}: an object where the schema wants ${expected.type}`]
        : objectProblems(node, expected.type, path, context, []);
    default:
      return node satisfies never;
  }
}

/** The extract of a resource's API version and the resource's type in it, or the problem. */
function resourceType(
  typeAndVersion: string,
  schemas: BicepSchemas,
): { readonly schema: BicepSchema; readonly typeName: string } | string {
  const version = typeAndVersion.split("@")[1] ?? "";
  const schema = schemas.get(version);
  if (schema === undefined) return `${typeAndVersion}: no extract of API version ${version || "(none)"}`;
  const typeName = schema.resources[typeAndVersion];
  return typeName === undefined ? `${typeAndVersion} not in the extract of ${version}` : { schema, typeName };
}

/**
 * Problems of a parsed `main.bicep` against the Microsoft.DocumentDB extracts (empty when it
 * conforms): each resource against the extract of the API version it names.
 */
export function bicepFileProblems(file: BicepFile, schemas: BicepSchemas): string[] {
  return file.resources.flatMap((resource) => {
    const path = `resource ${resource.symbol}`;
    const found = resourceType(resource.typeAndVersion, schemas);
    if (typeof found === "string") return [`${path}: ${found}`];
    const body = resource.body.kind === "for" ? resource.body.body : resource.body;
    const context: BicepContext = { file, schema: found.schema };
    return objectProblems(body, found.typeName, path, context, found.schema.resourceKeywords);
  });
}

function jsonNode(value: unknown): BicepNode {
  if (typeof value === "string") return { kind: "string", value };
  if (typeof value === "number") return { kind: "number", value };
  if (typeof value === "boolean") return { kind: "bool", value };
  if (Array.isArray(value)) return { kind: "array", items: value.map(jsonNode) };
  if (isObject(value))
    return { kind: "object", properties: new Map(Object.entries(value).map(([k, v]) => [k, jsonNode(v)])) };
  return { kind: "expression", text: JSON.stringify(value) ?? "undefined" };
}

/**
 * Problems of the body of an ARM REST `PUT` (as the script's `az rest` sends it) against the
 * extract of `typeAndVersion`, the resource's name being the last segment of the URL.
 */
export function restBodyProblems(
  typeAndVersion: string,
  name: string,
  body: unknown,
  schemas: BicepSchemas,
): string[] {
  const path = `PUT ${typeAndVersion} ${name}`;
  const found = resourceType(typeAndVersion, schemas);
  if (typeof found === "string") return [`${path}: ${found}`];
  if (!isObject(body)) return [`${path}: the body is not an object`];
  const file: BicepFile = { params: new Map(), vars: new Map(), resources: [], outputs: [] };
  const node = jsonNode({ name, ...body });
  return objectProblems(node, found.typeName, path, { file, schema: found.schema }, []);
}
