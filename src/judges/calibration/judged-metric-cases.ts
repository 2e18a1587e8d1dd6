/**
 * The labelled sets of the judged agent metrics, written for toolscore: for `argument-correctness`
 * and `task-completion`, each case a run across five toolkits with the label a careful reviewer
 * gives it and why, covering every failure kind the judge must catch and cases it cannot decide
 * (an output missing or cut off, a relative date). The cases are data, in the JSON files beside
 * this module, written into the build (scripts/inline-assets.mjs).
 */
import { readFileSync } from "node:fs";
import type { JsonObject, JsonValue } from "../../core/json.js";
import type { Content, TestCase, ToolSpec } from "../../core/test-case.js";
import { toToolCalls } from "../../core/tool-call.js";

/** A case with the label a reviewer gave it, and why: a score, or that it cannot be decided. */
export interface LabelledCase {
  readonly id: string;
  readonly testCase: TestCase;
  /** The score a careful reviewer gives, on the metric's scale, or `"not-evaluable"`. */
  readonly label: number | "not-evaluable";
  /**
   * For a metric that judges each call (`argument-correctness`), each call's label in order: a
   * calibration then scores the judge call by call, so blaming the wrong call is caught.
   */
  readonly callLabels?: readonly CallLabel[];
  readonly why: string;
}

/** A call's label: its arguments were right, wrong, or cannot be decided from the case. */
export type CallLabel = "right" | "wrong" | "cannot_tell";

interface CaseFile<TLabel> {
  readonly toolkits: Readonly<Record<string, readonly ToolSpec[]>>;
  readonly cases: readonly {
    readonly id: string;
    readonly toolkit: string;
    readonly input: Content;
    readonly expectedOutcome?: Content;
    readonly actualOutput?: Content;
    readonly toolsCalled: readonly { name: string; arguments: JsonObject; output: JsonValue }[];
    readonly label: TLabel;
    readonly calls?: readonly CallLabel[];
    readonly why: string;
    /**
     * The turns of the conversation before this one, when the case is a later turn of one: what
     * the user said, the calls with their outputs, what the agent replied.
     */
    readonly earlierTurns?: readonly {
      readonly input: Content;
      readonly toolsCalled?: readonly { name: string; arguments: JsonObject; output: JsonValue }[];
      readonly actualOutput?: Content;
    }[];
  }[];
}

function labelledCases<TLabel>(
  file: CaseFile<TLabel>,
  label: (given: TLabel) => number | "not-evaluable",
): LabelledCase[] {
  return file.cases.map(
    ({ id, toolkit, toolsCalled, label: given, calls, why, earlierTurns, ...content }) => ({
      id,
      testCase: {
        id,
        ...content,
        availableTools: file.toolkits[toolkit],
        toolsCalled: toToolCalls(toolsCalled, { field: `${id}.toolsCalled` }),
        // A later turn of a conversation: the judge is shown the turns before it.
        ...(earlierTurns === undefined
          ? {}
          : {
              conversation: {
                turns: [
                  ...earlierTurns.map((turn, at) => ({
                    ...turn,
                    toolsCalled: toToolCalls(turn.toolsCalled ?? [], {
                      field: `${id}.earlierTurns[${at}].toolsCalled`,
                    }),
                  })),
                  { input: content.input },
                ],
                at: earlierTurns.length,
              },
            }),
      },
      label: label(given),
      ...(calls === undefined ? {} : { callLabels: calls }),
      why,
    }),
  );
}

const taskLabels = {
  completed: 1,
  partially_completed: 0.5,
  not_completed: 0,
  cannot_tell: "not-evaluable",
} as const;

/** `argument-correctness`'s labelled set: the share of calls right, or not evaluable. */
export function argumentCorrectnessCalibrationSet(): LabelledCase[] {
  const file = JSON.parse(
    readFileSync(new URL("./argument-correctness-cases.json", import.meta.url), "utf8"),
  ) as CaseFile<number | "not-evaluable">;
  return labelledCases(file, (given) => given);
}

/** `task-completion`'s labelled set: completed 1, partially 0.5, not 0, or not evaluable. */
export function taskCompletionCalibrationSet(): LabelledCase[] {
  const file = JSON.parse(
    readFileSync(new URL("./task-completion-cases.json", import.meta.url), "utf8"),
  ) as CaseFile<keyof typeof taskLabels>;
  return labelledCases(file, (given) => taskLabels[given]);
}
