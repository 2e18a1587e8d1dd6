import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A fenced code block of a page, with the line it starts on. */
export interface Block {
  readonly page: string;
  readonly line: number;
  readonly language: string;
  readonly code: string;
}

function markdownFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

/** The README, changelog, contributing guide and every page of docs/, with their code blocks. */
export function docPages() {
  const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
  const pages = [
    path.join(root, "README.md"),
    path.join(root, "CHANGELOG.md"),
    path.join(root, "CONTRIBUTING.md"),
    ...markdownFiles(path.join(root, "docs")),
  ];
  const text = new Map(pages.map((page) => [page, readFileSync(page, "utf8")]));
  const relative = (page: string) => path.relative(root, page);
  /** The fenced code blocks of a page. */
  const blocksOf = (page: string): Block[] => {
    const blocks: Block[] = [];
    const lines = (text.get(page) ?? "").split("\n");
    for (let at = 0; at < lines.length; at++) {
      const open = /^```(\w*)/.exec(lines[at]);
      if (!open) continue;
      const end = lines.findIndex((line, index) => index > at && line.startsWith("```"));
      blocks.push({
        page,
        line: at + 1,
        language: open[1],
        code: lines.slice(at + 1, end).join("\n"),
      });
      at = end;
    }
    return blocks;
  };
  const blocks = pages.flatMap(blocksOf);
  const where = (block: Block) => `${relative(block.page)}:${block.line}`;
  return { root, pages, text, relative, blocks, blocksOf, where };
}
