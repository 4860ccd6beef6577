import { createDeflate } from 'node:zlib';

/** Hostile image files, built byte by byte so that nothing in the test process decodes them. */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** PNG's CRC-32 (zlib.crc32 only exists from Node 22). */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A complete, valid PNG of width × height black pixels in about 100 KB: 1 bit per pixel from a
 * two-colour palette, every row the same zeros, so deflate shrinks it a thousandfold. A decoder
 * expands it to width × height × 3 bytes (2.7 GB for 30000×30000): a decompression bomb.
 * The rows are streamed through deflate, so building it never holds the raw image either.
 */
export async function pngBomb(width: number, height: number): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 3, 0, 0, 0], 8); // bit depth 1, colour type 3 (palette), deflate, no filter, no interlace
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  // Rows of filter byte 0 and zero bits, written a block of rows at a time.
  const rowBytes = 1 + Math.ceil(width / 8);
  const rowsPerBlock = Math.max(1, Math.floor((1 << 20) / rowBytes));
  const block = Buffer.alloc(rowBytes * rowsPerBlock);
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  for (let y = 0; y < height; y += rowsPerBlock) {
    const rows = Math.min(rowsPerBlock, height - y);
    const chunk = rows === rowsPerBlock ? block : block.subarray(0, rows * rowBytes);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await finished;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('PLTE', palette),
    pngChunk('IDAT', Buffer.concat(compressed)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real JPEG whose frame header (SOF0) is rewritten to claim width × height pixels. */
export function jpegClaiming(jpeg: Buffer, width: number, height: number): Buffer {
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  if (sof < 0) throw new Error('no SOF0 marker in this JPEG');
  const patched = Buffer.from(jpeg);
  patched.writeUInt16BE(height, sof + 5);
  patched.writeUInt16BE(width, sof + 7);
  return patched;
}

/** A JPEG with a comment segment (COM) right after its start marker: valid, and carrying `payload`. */
export function jpegWithComment(jpeg: Buffer, payload: string): Buffer {
  const text = Buffer.from(payload, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, text, jpeg.subarray(2)]);
}

/** A PNG with a tEXt chunk holding `payload` before its image data: valid, and carrying it. */
export function pngWithText(png: Buffer, payload: string): Buffer {
  const afterHeader = PNG_SIGNATURE.length + 8 + 13 + 4;
  const text = pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.from(payload, 'latin1')]));
  return Buffer.concat([png.subarray(0, afterHeader), text, png.subarray(afterHeader)]);
}
