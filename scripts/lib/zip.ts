/**
 * Reads a zip file's central directory (a VSIX is a zip): each entry's name with its
 * compressed and uncompressed size, to tell what the package's bytes are made of.
 */

export interface ZipEntry {
  name: string;
  /** Bytes in the archive. */
  compressed: number;
  /** Bytes once extracted. */
  size: number;
}

/** The entries of a zip file (no zip64: a VSIX of this size never needs it). */
export function zipEntries(zip: Buffer): ZipEntry[] {
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`broken central directory entry ${n}`);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), compressed, size });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
