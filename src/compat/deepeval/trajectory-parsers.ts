/** deepeval's trajectory parsers: the steps of an agent's trajectory, and the tool calls made from them. */
import { createNameNormalizer } from "../../core/normalize-tool-name.js";
import { parseTrajectory } from "../../adapters/parse-trajectory.js";
import { InvalidInputError } from "../../core/errors.js";
import { toToolCall } from "../../core/tool-call.js";
import { ToolCall } from "./test-case.js";
import type { TrajectoryToolCall } from "./trajectory-metric.js";

/** One step of a trajectory, as the original's parser flattens it. */
export interface ToolStep {
  toolCallId: string | undefined;
  kind: "tool_call" | "tool_result";
  name: string;
  args: Record<string, unknown>;
  output?: unknown;
}

/** The original's trajectory parser: a transcript into a flat list of call and result steps. */
export class TrajectoryParser {
  /**
   * One `tool_call` step per call and, when it has a result, one `tool_result` step with the
   * output; the two share the call's `toolCallId`. Results follow the calls of their step.
   */
  convertTrajectoryToSteps(trajectory: unknown): ToolStep[] {
    const parsed = parseTrajectory(trajectory);
    const steps: ToolStep[] = [];
    for (const step of parsed.steps) {
      const calls = step.calls.map((index) => parsed.calls[index]);
      for (const call of calls) {
        steps.push({
          toolCallId: call.id,
          kind: "tool_call",
          name: call.name,
          args: { ...call.inputParameters },
        });
      }
      for (const call of calls) {
        if (call.output === null && call.isError !== true) continue;
        steps.push({
          toolCallId: call.id,
          kind: "tool_result",
          name: call.name,
          args: { ...call.inputParameters },
          output: call.output,
        });
      }
    }
    return steps;
  }

  parse(trajectory: unknown): ToolStep[] {
    return this.convertTrajectoryToSteps(trajectory);
  }
}

/** The original's tool-call parser: steps or `{name, args, output}` dicts into tool calls. */
export class ToolCallParser {
  /**
   * Tool calls from steps: steps sharing a `toolCallId` are one call (the output from its result
   * step); names normalized unless `normalizeNames` is false; outputs left out when
   * `includeOutput` is false.
   */
  createToolCallObject(
    steps: readonly Partial<ToolStep>[],
    options: { normalizeNames?: boolean; includeOutput?: boolean } = {},
  ): ToolCall[] {
    const normalize =
      options.normalizeNames === false ? (name: string) => name : createNameNormalizer();
    const includeOutput = options.includeOutput ?? true;
    const byId = new Map<string, ToolCall>();
    const calls: ToolCall[] = [];
    steps.forEach((step, index) => {
      if (typeof step.name !== "string") {
        throw new InvalidInputError({
          field: `steps[${index}].name`,
          message: `steps[${index}].name must be a string`,
        });
      }
      const existing = step.toolCallId === undefined ? undefined : byId.get(step.toolCallId);
      if (existing) {
        if (includeOutput && step.output !== undefined) existing.output = step.output;
        return;
      }
      const call = new ToolCall({
        name: normalize(step.name),
        inputParameters: step.args ?? {},
        ...(includeOutput && step.output !== undefined ? { output: step.output } : {}),
      });
      calls.push(call);
      if (step.toolCallId !== undefined) byId.set(step.toolCallId, call);
    });
    return calls;
  }

  /**
   * Steps from `{name, args, output}` dicts (or any spelling the one call reader takes), one
   * `tool_call` step each.
   */
  parse(toolCalls: readonly TrajectoryToolCall[]): ToolStep[] {
    return toolCalls.map((given, index) => {
      const call = toToolCall(given, { field: `toolCalls[${index}]` });
      return {
        toolCallId: call.id,
        kind: "tool_call",
        name: call.name,
        args: { ...call.inputParameters },
        ...((given as { output?: unknown }).output === undefined ? {} : { output: call.output }),
      };
    });
  }
}
