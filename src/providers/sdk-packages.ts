import { createRequire } from "node:module";
import { assertInstalled, loadOptional } from "../core/optional-dependency.js";
import type { OptionalDependency } from "../core/optional-dependency.js";

// Packages are looked up from where toolscore is installed, as its own imports would be.
const fromHere = createRequire(import.meta.url);

/**
 * A provider's SDK, an optional peer dependency: creating the judge fails at once, with the
 * install command, where it is missing; the SDK itself loads on the judge's first call.
 */
export function sdkPackage<T>(
  feature: string,
  name: "openai" | "@anthropic-ai/sdk" | "ai",
  load: () => Promise<T>,
): () => Promise<T> {
  const dependency: OptionalDependency = { feature, packages: [name] };
  assertInstalled(dependency, (id) => fromHere.resolve(id));
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= loadOptional(dependency, load));
}
