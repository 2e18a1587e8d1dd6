import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "bench/node_modules/**", ".cache/**"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      // `const { dropped, ...kept } = value` is how a key is left out of a copy.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unnecessary-condition": [
        "error",
        { allowConstantLoopConditions: true },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "ExportAllDeclaration", message: "List exports by hand (no export *)." },
      ],
    },
  },
  {
    // Tests read recorded HTTP bodies of model APIs freely (the loopback server types them `any`).
    files: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The HTML report's script runs in the browser, as a classic script (see html-assets.ts).
    files: ["src/reporters/html-report.js"],
    languageOptions: { sourceType: "script", globals: globals.browser },
  },
  {
    // The viewer's live script: one function expression the server calls with the page's runs.
    files: ["src/view/viewer-live.js"],
    languageOptions: { sourceType: "script", globals: globals.browser },
    rules: { "@typescript-eslint/no-unused-expressions": "off" },
  },
);
