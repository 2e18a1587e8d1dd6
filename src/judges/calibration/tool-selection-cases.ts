/**
 * A labelled set for calibrating tool-selection judges, written for toolscore: sixty-eight
 * requests across seven toolkits, each with the calls an agent made, the score a careful reviewer gives
 * the selection on the judge's own scale (1, 0.75, 0.5, 0.25, 0), and the reasoning behind it.
 * Labels judge the choice of tools only, never the exact arguments. The cases are data, in
 * tool-selection-cases.json beside this module, written into the build (scripts/inline-assets.mjs).
 */
import { readFileSync } from "node:fs";
import type { ToolSpec } from "../../core/test-case.js";
import type { ToolSelectionInput } from "../tool-selection.js";

/** A case with the label a reviewer gave its tool selection, and why. */
export interface LabelledToolSelectionCase extends ToolSelectionInput {
  readonly id: string;
  /** The reviewer's score on the judge's scale: 1, 0.75, 0.5, 0.25 or 0. */
  readonly label: number;
  readonly reasoning: string;
}

/** The file's shape: the toolkits by name, and each case naming the toolkit it was given. */
interface CalibrationFile {
  readonly toolkits: Readonly<Record<string, readonly ToolSpec[]>>;
  readonly cases: readonly (Omit<LabelledToolSelectionCase, "availableTools"> & {
    readonly toolkit: string;
  })[];
}

const file = JSON.parse(
  readFileSync(new URL("./tool-selection-cases.json", import.meta.url), "utf8"),
) as CalibrationFile;

/** The labelled set. */
export const toolSelectionCalibrationSet: readonly LabelledToolSelectionCase[] = file.cases.map(
  ({ toolkit, ...labelled }) => ({ ...labelled, availableTools: file.toolkits[toolkit] }),
);
