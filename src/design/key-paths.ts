/**
 * Partition key paths that item types sharing a container cannot contradict. A container has one
 * key path per level; an item type writes its key template's value to that property. When the
 * property is also an attribute of the item's entity and the template is anything but that
 * attribute (a lookup item `{email}` in a container keyed by /customerId, whose items still
 * carry `customerId`), the item would need two values in one property: such a path is renamed to
 * a synthetic one (`/customerIdKey`) that no item type of the container has as an attribute or a
 * derived property. A path `/id` or `/type` holds the item's id or type, so it is renamed
 * (`/idKey`) when an item type keys that level with anything else. `check` refuses the
 * contradiction (`model.badPartitionKey`).
 */
import type { Container, Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";

/** Property names the items of `container` hold: their entities' attributes and derived properties. */
function propertiesOf(workload: Workload, container: Container): Set<string> {
  const names = new Set(["id", "type"]);
  for (const item of container.items) {
    const entity = workload.entities.find((e) => e.name === item.entity);
    for (const attribute of entity?.attributes ?? []) names.add(attribute.name);
    for (const derived of [...item.embeds, ...item.copies, ...item.counts]) names.add(derived.as);
    if (item.ancestors !== undefined) names.add(item.ancestors.as);
  }
  return names;
}

/**
 * True when some item type of `container` holds attribute `property` but keys level `level`
 * otherwise; for `/id` and `/type`, when an item's template at that level is not its id template
 * or its type (a child co-located under a parent keyed by its `id` attribute).
 */
function contradicted(workload: Workload, container: Container, level: number, property: string): boolean {
  if (property === "id" || property === "type")
    return container.items.some((item) => {
      const template = item.partitionKey[level];
      return template !== undefined && template !== (property === "id" ? item.id : item.type);
    });
  return container.items.some((item) => {
    const entity = workload.entities.find((e) => e.name === item.entity);
    const template = item.partitionKey[level];
    return (
      template !== undefined &&
      template !== `{${property}}` &&
      entity?.attributes.some((a) => a.name === property) === true
    );
  });
}

/** `container` with each contradicted key path renamed to an unused `/<property>Key`. */
export function syntheticKeyPathsOf(workload: Workload, container: Container): Container {
  let taken: Set<string> | undefined;
  let changed = false;
  const paths = container.partitionKey.map((path, level) => {
    const property = path.slice(1);
    if (property.includes("/") || !contradicted(workload, container, level, property)) return path;
    taken ??= new Set([
      ...propertiesOf(workload, container),
      ...container.partitionKey.map((p) => p.slice(1)),
    ]);
    let name = `${property}Key`;
    for (let n = 2; taken.has(name); n++) name = `${property}Key${n}`;
    taken.add(name);
    changed = true;
    return `/${name}`;
  });
  return changed ? { ...container, partitionKey: paths } : container;
}

/**
 * The model with every container's key paths free of contradictions (see the module note).
 * @example syntheticKeyPaths(workload, model).containers[0]?.partitionKey // ["/orderIdKey"]
 */
export function syntheticKeyPaths(workload: Workload, model: Model): Model {
  const containers = model.containers.map((c) => syntheticKeyPathsOf(workload, c));
  return containers.every((c, i) => c === model.containers[i]) ? model : { ...model, containers };
}
