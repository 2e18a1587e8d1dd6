import { describe, expect, it } from "vitest";
import { ErrorCode, MissingDependencyError } from "./errors.js";
import { assertInstalled, loadOptional } from "./optional-dependency.js";

const codecs = { feature: "scaling images down", packages: ["@jimp/core", "@jimp/js-png"] };

/** A `require.resolve` that knows only `present`, failing as Node's does for the rest. */
function resolver(present: readonly string[]) {
  return (name: string) => {
    if (present.includes(name)) return `/node_modules/${name}/index.js`;
    throw Object.assign(new Error(`Cannot find module '${name}'`), { code: "MODULE_NOT_FOUND" });
  };
}

describe("assertInstalled", () => {
  it("passes when every package resolves", () => {
    expect(() => {
      assertInstalled(codecs, resolver(["@jimp/core", "@jimp/js-png"]));
    }).not.toThrow();
  });

  it("names the missing packages, and the command that installs them", () => {
    let thrown: unknown;
    try {
      assertInstalled(codecs, resolver(["@jimp/core"]));
    } catch (error) {
      thrown = error;
    }
    expect(MissingDependencyError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: ErrorCode.MISSING_DEPENDENCY,
      feature: "scaling images down",
      packages: ["@jimp/js-png"],
      install: "npm install @jimp/js-png",
      message:
        'scaling images down needs "@jimp/js-png", which is not installed: run `npm install @jimp/js-png`',
    });
    expect(() => {
      assertInstalled(codecs, resolver([]));
    }).toThrow(
      'scaling images down needs "@jimp/core", "@jimp/js-png", which are not installed: run `npm install @jimp/core @jimp/js-png`',
    );
  });

  it("takes a package that is there but not requirable as installed", () => {
    const esmOnly = () => {
      throw Object.assign(new Error("No exports main defined"), {
        code: "ERR_PACKAGE_PATH_NOT_EXPORTED",
      });
    };
    expect(() => {
      assertInstalled(codecs, esmOnly);
    }).not.toThrow();
  });
});

describe("loadOptional", () => {
  const sdk = { feature: "the openai judge", packages: ["openai"] };

  it("returns what loads", async () => {
    await expect(loadOptional(sdk, () => Promise.resolve(42))).resolves.toBe(42);
  });

  it("turns Node's not-found for the package itself into a MissingDependencyError", async () => {
    for (const error of [
      Object.assign(new Error("Cannot find package 'openai' imported from /app/x.js"), {
        code: "ERR_MODULE_NOT_FOUND",
      }),
      Object.assign(new Error("Cannot find module 'openai'\nRequire stack: ..."), {
        code: "MODULE_NOT_FOUND",
      }),
    ]) {
      await expect(loadOptional(sdk, () => Promise.reject(error))).rejects.toMatchObject({
        code: ErrorCode.MISSING_DEPENDENCY,
        install: "npm install openai",
        cause: error,
      });
    }
  });

  it("passes other failures on as they are, a broken package's missing file included", async () => {
    const inside = Object.assign(
      new Error("Cannot find module '/app/node_modules/openai/lost.js' imported from /app/x.js"),
      { code: "ERR_MODULE_NOT_FOUND" },
    );
    await expect(loadOptional(sdk, () => Promise.reject(inside))).rejects.toBe(inside);
    const other = new TypeError("boom");
    await expect(loadOptional(sdk, () => Promise.reject(other))).rejects.toBe(other);
  });
});
