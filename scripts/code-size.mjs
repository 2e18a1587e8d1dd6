// Source size of src/ (tests excluded): lines, largest files, longest functions (TypeScript AST).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
const root = process.argv[2] ?? "src";
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith(".ts") && !p.endsWith(".test.ts")) files.push(p);
  }
})(root);
let lines = 0;
const sizes = [];
const fns = [];
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const n = text.split("\n").length;
  lines += n;
  sizes.push([n, file]);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const visit = (node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)
    ) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name =
        node.name?.getText() ??
        (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : "(anonymous)");
      fns.push([end - start + 1, `${file}:${start + 1} ${name}`]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
sizes.sort((a, b) => b[0] - a[0]);
fns.sort((a, b) => b[0] - a[0]);
const lengths = fns.map(([n]) => n).sort((a, b) => a - b);
const q = (p) => lengths[Math.floor((lengths.length - 1) * p)];
console.log(
  `files ${files.length}, lines ${lines}, functions ${fns.length}, median ${q(0.5)}, p90 ${q(0.9)}`,
);
console.log("largest files:");
for (const [n, f] of sizes.slice(0, 8)) console.log(`  ${n} ${f}`);
console.log("longest functions:");
for (const [n, f] of fns.slice(0, 10)) console.log(`  ${n} ${f}`);
