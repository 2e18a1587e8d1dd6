/**
 * toolscore/jest: the tool-call matchers, added to jest's global `expect` (jest 29 and 30). Load
 * it in `setupFilesAfterEnv`, or at the top of a test file:
 *
 * @example
 * // jest.config.js: { setupFilesAfterEnv: ["toolscore/jest"] }
 * expect(messages).toHaveCalledTool("get_weather", { city: "Paris" });
 * await expect(testCase).toPassMetric(toolCallAccuracy(), 0.8);
 *
 * The types extend both `@jest/globals` (`import { expect } from "@jest/globals"`) and the
 * `jest` namespace of `@types/jest`. Elsewhere, `expect.extend(toolscoreMatchers)` with
 * `toolscoreMatchers` from `toolscore/matchers` does the same.
 */
// The module the augmentation below extends must be part of the program.
import type {} from "expect";
import { InvalidOptionError } from "../core/errors.js";
import { toolscoreMatchers } from "./matchers.js";
import type { ToolscoreMatchers } from "./matchers.js";

const jestExpect = (globalThis as { expect?: { extend?: unknown } }).expect;
if (typeof jestExpect?.extend !== "function") {
  throw new InvalidOptionError({
    option: "injectGlobals",
    value: false,
    message:
      'toolscore/jest adds its matchers to jest\'s global expect, and there is none here: load it from a jest test file or setupFilesAfterEnv (with injectGlobals on, the default), or call expect.extend(toolscoreMatchers) with toolscoreMatchers from "toolscore/matchers"',
  });
}
(jestExpect.extend as (matchers: object) => void)(toolscoreMatchers);

declare module "expect" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars -- must repeat expect's declaration to merge with it
  interface Matchers<R extends void | Promise<void>, T = unknown> extends ToolscoreMatchers<R> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments expect's own interface
  interface AsymmetricMatchers extends Omit<
    ToolscoreMatchers<void>,
    "toPassMetric" | "toMatchToolCallsWithJudge"
  > {}
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- @types/jest declares its matchers in this namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars -- must repeat @types/jest's declaration to merge with it
    interface Matchers<R, T = {}> extends ToolscoreMatchers<R> {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments @types/jest's own interface
    interface Expect extends Omit<
      ToolscoreMatchers<void>,
      "toPassMetric" | "toMatchToolCallsWithJudge"
    > {}
  }
}

// The matchers themselves are in toolscore/matchers, for code that extends an expect of its own.
export { toolscoreMatchers } from "./matchers.js";
export type { ToolscoreMatchers } from "./matchers.js";
