import { readFileSync } from "node:fs";

/**
 * The HTML report's stylesheet and script, from the files beside this module (html-report.css,
 * html-report.js), written into the built module at build time (scripts/inline-assets.mjs). Both
 * are inline in the report (it is one file) and allowed by hash in its Content-Security-Policy;
 * the script builds the page from the embedded JSON with DOM calls and `textContent` only, so no
 * value from a dataset is ever parsed as HTML.
 */
export const reportStyle = readFileSync(new URL("./html-report.css", import.meta.url), "utf8");

/** The report's script: see {@link reportStyle}. */
export const reportScript = readFileSync(new URL("./html-report.js", import.meta.url), "utf8");
