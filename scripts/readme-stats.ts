// `npm run readme:stats [FILE]`: how hard README.md (or FILE) is to read. Prints its lines, its
// words, the median sentence length in words and the parentheses per 100 words. Code blocks,
// tables, headings, images and HTML comments are left out: only prose counts.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ProseStats {
  lines: number;
  words: number;
  sentences: number;
  medianSentenceWords: number;
  parenthesesPer100Words: number;
}

/** The prose of a Markdown text: paragraphs and list items, without code, tables, headings or markup. */
export function proseOf(markdown: string): string[] {
  const blocks: string[] = [];
  let inFence = false;
  let current: string[] = [];
  const flush = (): void => {
    if (current.length > 0) blocks.push(current.join(' '));
    current = [];
  };
  for (const raw of markdown.replace(/<!--[\s\S]*?-->/g, '').split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```')) {
      inFence = !inFence;
      flush();
      continue;
    }
    if (inFence || line === '' || line.startsWith('|') || line.startsWith('#') || line.startsWith('<')) {
      flush();
      continue;
    }
    // A list item starts a block of its own.
    if (/^([-*+]|\d+\.)\s/.test(line)) flush();
    current.push(
      line
        .replace(/^([-*+]|\d+\.)\s+/, '')
        .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/[`*_]/g, ''),
    );
  }
  flush();
  return blocks.filter((block) => block.trim() !== '');
}

/** Splits prose into sentences at `.`, `!`, `?` or `:` followed by a space and a capital, and at block ends. */
export function sentencesOf(blocks: string[]): string[] {
  return blocks.flatMap((block) => block.split(/(?<=[.!?:])\s+(?=[A-Z"“(`])/)).filter((s) => wordsOf(s) > 0);
}

function wordsOf(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function proseStats(markdown: string): ProseStats {
  const blocks = proseOf(markdown);
  const sentences = sentencesOf(blocks);
  const words = wordsOf(blocks.join(' '));
  const parentheses = (blocks.join(' ').match(/\(/g) ?? []).length;
  return {
    lines: markdown.split('\n').length,
    words,
    sentences: sentences.length,
    medianSentenceWords: median(sentences.map(wordsOf)),
    parenthesesPer100Words: words === 0 ? 0 : Math.round((parentheses / words) * 1000) / 10,
  };
}

if (require.main === module) {
  const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'README.md'));
  const stats = proseStats(fs.readFileSync(file, 'utf8'));
  console.log(`${path.basename(file)}: ${stats.lines} lines, ${stats.words} words of prose`);
  console.log(`  median sentence: ${stats.medianSentenceWords} words (${stats.sentences} sentences)`);
  console.log(`  parentheses: ${stats.parenthesesPer100Words} per 100 words`);
}
