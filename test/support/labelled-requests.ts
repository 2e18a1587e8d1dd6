import type { JudgeRequest } from "../../src/core/judge.js";
import { argumentCorrectnessRequest } from "../../src/judges/argument-correctness.js";
import type { LabelledCase } from "../../src/judges/calibration/judged-metric-cases.js";

/** The argument-correctness request a labelled case makes, as a chat judge is asked it. */
export function argumentRequestOf(entry: LabelledCase): JudgeRequest {
  return argumentCorrectnessRequest(
    {
      input: entry.testCase.input ?? "",
      availableTools: entry.testCase.availableTools ?? [],
      toolsCalled: entry.testCase.toolsCalled ?? [],
      conversation: entry.testCase.conversation,
    },
    { images: false },
  );
}
