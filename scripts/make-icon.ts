/**
 * Draws media/icon.png (128×128, the Marketplace and Extensions view icon): a report page
 * with a bar chart in the three result colours on a blue tile. Pure Node (zlib), 4×4
 * supersampled for smooth edges, so it needs no image tools:
 *
 *   node --import tsx scripts/make-icon.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

const size = 128;
const samples = 4;

type Rgba = readonly [number, number, number, number];

/** Signed distance from (x, y) to a rounded rectangle; negative inside. */
function roundedRect(x: number, y: number, x0: number, y0: number, x1: number, y1: number, r: number): number {
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const hx = (x1 - x0) / 2 - r;
  const hy = (y1 - y0) / 2 - r;
  const dx = Math.abs(x - cx) - hx;
  const dy = Math.abs(y - cy) - hy;
  return Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) - r;
}

/** The page: a rectangle whose top-right corner is folded along the line x - y = fold. */
const page = { x0: 30, y0: 18, x1: 98, y1: 110, r: 6, fold: 22 };
function inPage(x: number, y: number): boolean {
  if (roundedRect(x, y, page.x0, page.y0, page.x1, page.y1, page.r) > 0) return false;
  return x - page.x1 + page.fold <= y - page.y0;
}
function inFold(x: number, y: number): boolean {
  // The flap folded over the page: the cut-off corner mirrored along the cut.
  const fx = x - (page.x1 - page.fold);
  const fy = y - page.y0;
  return fx >= 0 && fy <= page.fold && fx <= fy;
}

const bars: { x0: number; x1: number; top: number; colour: Rgba }[] = [
  { x0: 42, x1: 54, top: 62, colour: [46, 160, 67, 255] }, // good
  { x0: 58, x1: 70, top: 76, colour: [219, 154, 4, 255] }, // decent
  { x0: 74, x1: 86, top: 88, colour: [207, 34, 46, 255] }, // bad
];
const barBottom = 98;

function colourAt(x: number, y: number): Rgba {
  if (roundedRect(x, y, 4, 4, 124, 124, 22) > 0) return [0, 0, 0, 0];
  for (const b of bars) if (roundedRect(x, y, b.x0, b.top, b.x1, barBottom, 2) <= 0) return b.colour;
  if (inFold(x, y)) return [196, 214, 236, 255];
  if (inPage(x, y)) {
    // Two text lines above the chart.
    if (roundedRect(x, y, 42, 32, 70, 37, 2.5) <= 0 || roundedRect(x, y, 42, 44, 86, 49, 2.5) <= 0)
      return [120, 144, 176, 255];
    return [250, 252, 255, 255];
  }
  // The tile: a vertical gradient of blues.
  const t = (y - 4) / 120;
  return [Math.round(22 + 14 * t), Math.round(99 - 40 * t), Math.round(191 - 50 * t), 255];
}

function render(): Buffer {
  const rows: Buffer[] = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0 (none), then RGBA
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const c = colourAt(px + (sx + 0.5) / samples, py + (sy + 0.5) / samples);
          // Premultiplied, so transparent samples do not darken the edges.
          r += c[0] * c[3];
          g += c[1] * c[3];
          b += c[2] * c[3];
          a += c[3];
        }
      }
      const o = 1 + px * 4;
      row[o] = a ? Math.round(r / a) : 0;
      row[o + 1] = a ? Math.round(g / a) : 0;
      row[o + 2] = a ? Math.round(b / a) : 0;
      row[o + 3] = Math.round(a / (samples * samples));
    }
    rows.push(row);
  }
  return Buffer.concat(rows);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(render(), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = path.resolve(__dirname, '..', 'media', 'icon.png');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, png());
console.log(`wrote ${path.relative(process.cwd(), out)}`);
