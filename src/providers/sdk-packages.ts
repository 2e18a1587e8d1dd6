import { createRequire } from "node:module";
import { ProviderConfigError } from "../core/errors.js";
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
  name: "openai" | "@anthropic-ai/sdk" | "ai" | "@typesafe-ai/sdk",
  load: () => Promise<T>,
): () => Promise<T> {
  const dependency: OptionalDependency = { feature, packages: [name] };
  assertInstalled(dependency, (id) => fromHere.resolve(id));
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= loadOptional(dependency, load));
}

/**
 * A judge's setup checked whole: its SDK (as `sdkPackage`) and its key, every missing piece said
 * at once. `keyProblem` is what is wrong with the key, when something is.
 */
export function judgeSetup<T>(options: {
  readonly provider: string;
  readonly sdk: () => () => Promise<T>;
  readonly keyProblem: string | undefined;
}): () => Promise<T> {
  let loadSdk: (() => Promise<T>) | undefined;
  let missing: unknown;
  try {
    loadSdk = options.sdk();
  } catch (error) {
    missing = error;
  }
  const { provider, keyProblem } = options;
  if (keyProblem !== undefined) {
    const also = missing instanceof Error ? `; and ${missing.message}` : "";
    throw new ProviderConfigError({
      provider,
      message: `${provider}: ${keyProblem}${also}`,
      ...(missing === undefined ? {} : { cause: missing }),
    });
  }
  if (loadSdk === undefined) throw missing;
  return loadSdk;
}
