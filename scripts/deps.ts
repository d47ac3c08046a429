/**
 * Checks the import rules of .dependency-cruiser.cjs and keeps ARCHITECTURE.md's folder graph
 * (between `<!-- deps:start -->` and `<!-- deps:end -->`) true to the code:
 *
 *   npm run deps              fails on a broken rule or an out-of-date graph (the lint stage runs it)
 *   npm run deps -- --write   rewrites the graph in ARCHITECTURE.md, then checks the rules
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ICruiseResult, IViolation } from 'dependency-cruiser';

const root = path.resolve(__dirname, '..');
const architecture = path.join(root, 'ARCHITECTURE.md');
const START = '<!-- deps:start -->';
const END = '<!-- deps:end -->';

/**
 * Cruises `src` under `baseDir` with the project's rules and answers the result. The unit
 * test runs it on a fixture folder with broken imports, to show the rules catch them.
 */
export async function cruiseSrc(baseDir = root): Promise<ICruiseResult> {
  // dependency-cruiser is an ES module only; this script is compiled to CommonJS.
  const { cruise } = await import('dependency-cruiser');
  const { default: extractOptions } = await import('dependency-cruiser/config-utl/extract-depcruise-options');
  const { default: extractTsConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
  const options = await extractOptions(path.join(root, '.dependency-cruiser.cjs'));
  const tsConfig = extractTsConfig(path.join(root, 'tsconfig.json'));
  const reported = await cruise(['src'], { ...options, baseDir, outputType: 'json' }, undefined, { tsConfig });
  return JSON.parse(reported.output as string) as ICruiseResult;
}

/** One line per broken rule: the rule, the importing module, the imported one (or the circle). */
export function describeViolations(violations: readonly IViolation[]): string[] {
  return violations.map((v) => {
    const what = v.cycle ? v.cycle.map((step) => step.name).join(' → ') : v.to;
    return `${v.rule.name}: ${v.from} → ${what}`;
  });
}

/**
 * The node of the folder graph a module belongs to: its folder under src/, or the file itself
 * for files at the top of src/. `api/types.ts` gets its own node: the domain types every layer
 * uses, while the rest of api/ is the client that only the host uses.
 */
function nodeOf(source: string): string | undefined {
  if (source === 'src/api/types.ts') return 'api/types.ts';
  const match = /^src\/([^/]+)(\/)?/.exec(source);
  if (!match) return undefined;
  return match[2] ? `${match[1]}/` : match[1];
}

/** Every node reachable from `from` along `edges`. */
function reachable(edges: Map<string, Set<string>>, from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(edges.get(from) ?? [])];
  while (stack.length > 0) {
    const node = stack.pop() as string;
    if (seen.has(node)) continue;
    seen.add(node);
    stack.push(...(edges.get(node) ?? []));
  }
  return seen;
}

/**
 * The graph of folders as Mermaid. An arrow that a longer path already implies is left out,
 * so the picture shows the layers rather than every import. Arrows inside a circle of folders
 * are all drawn, thick: a circle is what the picture must not hide.
 */
export function folderGraph(result: ICruiseResult): string {
  const edges = new Map<string, Set<string>>();
  for (const module of result.modules) {
    const from = nodeOf(module.source);
    if (!from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    for (const dependency of module.dependencies) {
      const to = nodeOf(dependency.resolved);
      if (to && to !== from) edges.get(from)?.add(to);
    }
  }
  const reach = new Map([...edges.keys()].map((node) => [node, reachable(edges, node)]));
  const inCircle = (from: string, to: string): boolean => reach.get(to)?.has(from) ?? false;
  const layered = new Map(
    [...edges].map(([from, tos]) => [from, new Set([...tos].filter((to) => !inCircle(from, to)))]),
  );
  const implied = (from: string, to: string): boolean =>
    [...(layered.get(from) ?? [])].some((next) => next !== to && reachable(layered, next).has(to));
  const id = (node: string): string => node.replace(/\W/g, '_');
  const lines = ['```mermaid', 'flowchart TD'];
  const nodes = [...edges.keys()].sort();
  for (const node of nodes) lines.push(`  ${id(node)}["${node}"]`);
  for (const from of nodes) {
    for (const to of [...(edges.get(from) ?? [])].sort()) {
      if (inCircle(from, to)) lines.push(`  ${id(from)} ==> ${id(to)}`);
      else if (!implied(from, to)) lines.push(`  ${id(from)} --> ${id(to)}`);
    }
  }
  lines.push('```');
  return lines.join('\n');
}

/** `text` with the graph between the markers replaced by `graph`. */
export function withGraph(text: string, graph: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`ARCHITECTURE.md has no ${START} … ${END} markers`);
  return `${text.slice(0, start + START.length)}\n\n${graph}\n\n${text.slice(end)}`;
}

async function main(): Promise<number> {
  const result = await cruiseSrc();
  const broken = describeViolations(result.summary.violations);
  const current = fs.readFileSync(architecture, 'utf8');
  const wanted = withGraph(current, folderGraph(result));
  if (process.argv.includes('--write') && wanted !== current) {
    fs.writeFileSync(architecture, wanted);
    console.log('ARCHITECTURE.md: folder graph rewritten');
  }
  const stale = !process.argv.includes('--write') && wanted !== current;
  for (const line of broken) console.error(line);
  if (stale) console.error('ARCHITECTURE.md: the folder graph is out of date: run npm run deps -- --write');
  const { totalCruised, totalDependenciesCruised } = result.summary;
  console.log(
    `${broken.length} broken import rules, ${totalCruised} modules and ${totalDependenciesCruised} imports cruised`,
  );
  return broken.length > 0 || stale ? 1 : 0;
}

if (require.main === module) {
  void main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
