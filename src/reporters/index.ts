export { formatConsoleSummary } from "./console.js";
export type { ConsoleSummaryOptions } from "./console.js";
export { markdownSummary } from "./markdown.js";
export type { MarkdownSummaryOptions } from "./markdown.js";
export { escapeXml, writeJUnitReport } from "./junit.js";
export type { JUnitReportOptions } from "./junit.js";
export { createCaseSelector, renderHtmlReport, scriptSafeJson, selectReportCases } from "./html.js";
export type { HtmlReportOptions } from "./html.js";
export { formatDuration, formatRate, formatScore, sparkline } from "./format.js";
