import { optionalTool, optionalToolNames } from "./optional-tools.js";

/** Says once, at the start of a run, which tests are skipped for a missing tool, and why. */
export default function setup(): void {
  for (const name of optionalToolNames) {
    const tool = optionalTool(name);
    if (tool.present) continue;
    console.warn(
      tool.required
        ? `toolscore: ${name} is required in this run and missing; its tests will fail: ${tool.missing}`
        : `toolscore: skipping the ${name} tests: ${tool.missing}`,
    );
  }
}
