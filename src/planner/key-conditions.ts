/**
 * The equality conditions that pin a query to its item type and partition key values. They go in
 * the WHERE clause as well as in the request's partition key option, so the query is correct on
 * endpoints that ignore that option.
 */
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { keyProperty, singleAttribute, type Routing } from "./routing.js";
import type { KeyCondition } from "./sql.js";
import { isLiteralTemplate } from "../model/templates.js";
import { bindTemplate, type Binding } from "../model/provenance.js";

/**
 * `type = @type`, then one condition per known partition key level whose property is not already
 * filtered by an attribute predicate in `covered`. With `binding`, the values come from a record
 * of another entity (a parent's result for its children's items, a child's for its parent's): each
 * template is rendered in that record's names (`src/model/provenance.ts`), never by a same-named
 * attribute of the other entity.
 */
export function keyConditions(
  placement: Placement,
  routing: Routing,
  valuesFrom: "input" | "result",
  covered: ReadonlySet<string>,
  binding?: Binding,
): KeyCondition[] {
  const { container, item } = placement;
  const conditions: KeyCondition[] = [{ property: "type", source: { kind: "literal", value: item.type } }];
  container.partitionKey.slice(0, routing.knownLevels).forEach((path, level) => {
    const template = item.partitionKey[level];
    if (template === undefined) return;
    const property = keyProperty(path);
    const attribute = singleAttribute(template);
    if (attribute !== undefined && attribute === property && covered.has(attribute)) return;
    if (property === "id") return;
    const rendered = binding === undefined ? template : bindTemplate(template, binding);
    if (rendered === undefined)
      throw new Error(
        `internal: ${item.type}'s key ${template} is routed with values the binding does not give`,
      );
    if (routing.scope === "shards" && template.includes("{shard}")) {
      // One value per shard: the caller renders the template for every shard number.
      conditions.push({
        property,
        source: { kind: "template", template: rendered, from: valuesFrom },
        many: true,
      });
      return;
    }
    conditions.push({
      property,
      source: isLiteralTemplate(template)
        ? { kind: "literal", value: template }
        : { kind: "template", template: rendered, from: valuesFrom },
    });
  });
  return conditions;
}

/** Leaves out the tombstones of a soft-deleted item type (`QuerySpec.excludeTombstones`). */
export function tombstoneFilter(
  env: PlanEnvironment,
  placement: Placement,
): { readonly excludeTombstones?: string } {
  const property = env.context.tombstone(placement.container.name, placement.item.type);
  return property === undefined ? {} : { excludeTombstones: property };
}
