import { MissingDependencyError } from "./errors.js";

/**
 * Packages a feature loads on first use, which toolscore declares as optional peer dependencies:
 * whoever uses the feature installs them (the model SDKs, the image codecs).
 */
export interface OptionalDependency {
  /** What needs them, for messages: `the openai judge`, `scaling images down`. */
  readonly feature: string;
  readonly packages: readonly string[];
}

/**
 * Throws a `MissingDependencyError` naming every package of `dependency` that `resolve` cannot
 * find. `resolve` is the caller's `require.resolve` (it throws `MODULE_NOT_FOUND`), so that
 * packages are looked up from where toolscore is installed and this module does no I/O itself.
 */
export function assertInstalled(
  dependency: OptionalDependency,
  resolve: (name: string) => unknown,
): void {
  const missing = dependency.packages.filter((name) => {
    try {
      resolve(name);
      return false;
    } catch (error) {
      // Only "not found" means missing: a package without a `require` export is still there.
      return (error as { code?: unknown } | null)?.code === "MODULE_NOT_FOUND";
    }
  });
  if (missing.length > 0) {
    throw new MissingDependencyError({ feature: dependency.feature, packages: missing });
  }
}

/** Whether `error` is Node's "cannot find" for one of `packages` itself (not a file inside it). */
function isNotFound(error: unknown, packages: readonly string[]): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  if (typeof message !== "string") return false;
  return packages.some((name) => message.includes(`'${name}'`));
}

/**
 * `load()` (the caller's `import()` of the packages), with Node's "cannot find package" turned
 * into a `MissingDependencyError` that names the packages and the command that installs them.
 */
export async function loadOptional<T>(
  dependency: OptionalDependency,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isNotFound(error, dependency.packages)) throw error;
    throw new MissingDependencyError({
      feature: dependency.feature,
      packages: dependency.packages,
      cause: error,
    });
  }
}
