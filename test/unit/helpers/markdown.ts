/**
 * A real CommonMark renderer (with GFM-style autolinking and HTML on, as the worst reader
 * would have it) to check that escaped text renders as exactly itself. markdown-it is in
 * node_modules through @vscode/vsce.
 */
import { createRequire } from 'node:module';

interface MarkdownIt {
  render(source: string): string;
}

const markdownIt = createRequire(__filename)('markdown-it') as (options: object) => MarkdownIt;

export const md: MarkdownIt = markdownIt({ html: true, linkify: true, typographer: false });
