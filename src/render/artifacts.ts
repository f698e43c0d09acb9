/**
 * The deployable artifacts of a model as files (name and content), for the CLI's `render` and
 * `design` commands and the MCP server to write wherever they write: container definitions JSON,
 * Bicep, Terraform, the Azure CLI script and the Mermaid diagram.
 */
import type { Model } from "../model/types.js";
import { renderAzureCli } from "./azure-cli.js";
import { renderBicep } from "./bicep.js";
import { renderDiagram } from "./diagram.js";
import { renderContainerDefinitions, type InfrastructureOptions } from "./infrastructure.js";
import { renderTerraform } from "./terraform.js";

export interface RenderedFile {
  /** Relative path, e.g. `infra/main.bicep`. */
  readonly path: string;
  readonly content: string;
  /** The file should be made executable (the shell script). */
  readonly executable: boolean;
}

/**
 * Every artifact of a model, in a stable order.
 * @example renderModelArtifacts(model, { scale: workload.scale }).map((f) => f.path)
 *   // ["containers.json", "infra/main.bicep", "infra/main.tf", "infra/create-containers.sh", "diagram.mmd"]
 */
export function renderModelArtifacts(
  model: Model,
  options: InfrastructureOptions = {},
): readonly RenderedFile[] {
  return [
    { path: "containers.json", content: renderContainerDefinitions(model, options), executable: false },
    { path: "infra/main.bicep", content: renderBicep(model, options), executable: false },
    { path: "infra/main.tf", content: renderTerraform(model, options), executable: false },
    { path: "infra/create-containers.sh", content: renderAzureCli(model, options), executable: true },
    { path: "diagram.mmd", content: renderDiagram(model), executable: false },
  ];
}
