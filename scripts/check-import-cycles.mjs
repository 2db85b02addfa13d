// Fails (exit 1) when the source files of a workspace import each other in a circle, printing each
// circle. Every relative import counts, type-only, re-exports and dynamic import() included: a
// package's files must form a tree (issue 33.3). Run by `npm run lint`; uses the TypeScript parser
// already installed rather than an ESLint plugin, which takes seconds where this takes a fraction.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const roots =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ["apps/server/src", "apps/gateway-sandbox/src", "apps/web/src", "packages/domain/src", "e2e", "bench"];

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The file a relative specifier names: "./x.js" is ./x.ts or ./x.tsx, as TypeScript resolves it. */
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|mjs)$/, "");
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    join(base, "index.ts"),
    join(base, "index.tsx"),
  ];
  return candidates.find(
    (path) => /\.(ts|tsx|mts)$/.test(path) && existsSync(path) && statSync(path).isFile(),
  );
}

function importsOf(file) {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolveRelative(file, specifier))
    .filter((path) => path !== undefined);
}

/** Strongly connected components (Tarjan): each with more than one file, or a file importing itself, is a circle. */
function circles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One path around a circle, for the message: a → b → … → a. */
function pathAround(graph, component) {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const path = [start];
  const seen = new Set([start]);
  let at = start;
  for (;;) {
    const nexts = (graph.get(at) ?? []).filter((next) => members.has(next));
    if (nexts.includes(start) && path.length > 1) break;
    const next = nexts.find((candidate) => !seen.has(candidate)) ?? start;
    if (next === start) break;
    path.push(next);
    seen.add(next);
    at = next;
  }
  return [...path, start].map((file) => relative(root, file)).join(" → ");
}

let failed = false;
for (const dir of roots) {
  const files = sourceFiles(resolve(root, dir));
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  for (const component of circles(graph)) {
    failed = true;
    console.error(`Import circle (${component.length} files): ${pathAround(graph, component)}`);
    if (component.length > 2)
      console.error(
        `  all files in it: ${component
          .map((file) => relative(root, file))
          .sort()
          .join(", ")}`,
      );
  }
}
if (failed) {
  console.error("Break each circle by moving what both sides need into a file of its own.");
  process.exit(1);
}
console.log(`No import circles in ${roots.join(", ")}.`);
