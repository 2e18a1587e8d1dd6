/**
 * The agentevals suite's one override that JSON cannot say, as toolscore's `toolRules.compare`:
 * a lookup_policy call matches when, if the reference asked about upgrades, the agent did too.
 * Cases that need it carry its source in `metadata.compareInCode`; run them in code:
 *
 *   import { toolCallAccuracy } from "toolscore";
 *   import { toolRules } from "./overrides.mjs";
 *   const metric = toolCallAccuracy({ threshold: 1, toolRules, sideEffects: { undeclared: "read-only" } })
 *     .withOptions(testCase.metricOptions["tool-call-accuracy"]);
 */
export const toolRules = {
  lookup_policy: {
    compare(actualArguments, expectedArguments) {
      if (
        typeof expectedArguments.query === "string" &&
        expectedArguments.query.includes("upgrade")
      ) {
        return (
          typeof actualArguments.query === "string" && actualArguments.query.includes("upgrade")
        );
      }
      return true;
    },
  },
};
