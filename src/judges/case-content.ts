import type { Content, ImagePart, TextPart, ToolSpec } from "../core/test-case.js";
import { fenced } from "./fence.js";

/** An available tool as a judge reads it: name, description, parameters' JSON Schema. */
export function describeTool(tool: ToolSpec): string {
  const parts = [`- ${tool.name}`];
  if (tool.description) parts.push(`: ${tool.description}`);
  if (tool.parameters) parts.push(`\n  parameters: ${JSON.stringify(tool.parameters)}`);
  return parts.join("");
}

/** The tools available, fenced, for a judge's prompt. */
export function describeTools(tools: readonly ToolSpec[]): string {
  return tools.length === 0 ? "(none)" : fenced(tools.map(describeTool).join("\n"));
}

/**
 * A piece of the case under a heading: text parts fenced (see `fenced`), images sent when the
 * judge takes images, else counted in a note saying how many of `what` it cannot see.
 */
export function shownContent(
  heading: string,
  content: Content,
  options: { readonly images: boolean; readonly what: string },
): (TextPart | ImagePart)[] {
  const parts: readonly (TextPart | ImagePart)[] =
    typeof content === "string" ? [{ type: "text", text: content }] : content;
  const shown: (TextPart | ImagePart)[] = [{ type: "text", text: heading }];
  let hidden = 0;
  for (const part of parts) {
    if (part.type === "text") shown.push({ type: "text", text: fenced(part.text) });
    else if (options.images) shown.push(part);
    else hidden++;
  }
  if (hidden > 0) {
    shown.push({
      type: "text",
      text: `(The ${options.what} also holds ${hidden} image${hidden === 1 ? "" : "s"} that you cannot see.)`,
    });
  }
  return shown;
}
