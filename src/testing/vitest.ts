/**
 * toolscore/vitest: matchers for tool calls in your own tests. Importing this module (in a test
 * file, or in `setupFiles`) adds them to vitest's `expect`:
 *
 * @example
 * import "toolscore/vitest";
 * expect(messages).toHaveCalledTool("get_weather", { city: "Paris" });
 * expect(trajectory).toHaveCalledToolsInOrder(["search_flights", "book"]);
 * expect(calls).toMatchToolCalls(expected, { order: "strict" });
 * await expect(testCase).toPassMetric(toolCallAccuracy(), 0.8);
 */
// Kept in the declarations too: the augmentation below needs vitest's own types in the program.
import "vitest";
import { expect } from "vitest";
import { toolscoreMatchers } from "./matchers.js";
import type { ToolscoreMatchers } from "./matchers.js";

expect.extend(toolscoreMatchers);

// vitest's Assertion takes one type parameter up to vitest 4 and two from vitest 5, and every
// declaration of an interface must repeat its parameters: the matchers go on Chai's Assertion
// instead, whose methods each vitest's Assertion carries (promised under `.resolves`).
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Chai's types are a global namespace
  namespace Chai {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments Chai's own interface
    interface Assertion extends ToolscoreMatchers<void> {}
  }
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments vitest's own interface
  interface AsymmetricMatchersContaining extends Omit<
    ToolscoreMatchers,
    "toPassMetric" | "toMatchToolCallsWithJudge"
  > {}
}

export {
  callsOf,
  toHaveCalledTool,
  toHaveCalledToolsInOrder,
  toHaveCalledToolsByTurn,
  toMatchToolCalls,
  toMatchToolCallsWithJudge,
  toPassMetric,
  toolscoreMatchers,
} from "./matchers.js";
export type {
  ExpectedToolCall,
  JudgedMatchOptions,
  MatcherContext,
  MatcherResult,
  ToolscoreMatchers,
} from "./matchers.js";
