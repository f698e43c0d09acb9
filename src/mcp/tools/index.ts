/**
 * Every tool of the MCP server, in the order clients list them. Adding a tool: its file in this
 * folder and one line here.
 */
import type { ToolDefinition } from "../support/tool-definition.js";
import { checkWorkloadTool } from "./check-workload.js";
import { designModelTool } from "./design-model.js";
import { estimateRequestChargeTool } from "./estimate-request-charge.js";
import { evaluateModelTool } from "./evaluate-model.js";
import { getNextQuestionsTool } from "./get-next-questions.js";
import { importDatabaseTool } from "./import-database.js";
import { renderArtifactsTool } from "./render-artifacts.js";
import { updateRequirementsTool } from "./update-requirements.js";
import { verifyModelTool } from "./verify-model.js";
import { writeDataModelTool } from "./write-data-model.js";

export const TOOLS: readonly ToolDefinition[] = [
  checkWorkloadTool,
  getNextQuestionsTool,
  updateRequirementsTool,
  estimateRequestChargeTool,
  designModelTool,
  writeDataModelTool,
  evaluateModelTool,
  renderArtifactsTool,
  verifyModelTool,
  importDatabaseTool,
];
