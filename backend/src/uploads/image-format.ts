export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

/**
 * What the bytes say the file is. The name and the declared type are the sender's claims; the
 * magic bytes are what a decoder will actually see.
 */
export function sniffImageFormat(bytes: Buffer): ImageFormat | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  const head = bytes.toString('latin1', 0, 12);
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
  if (head.slice(4, 8) === 'ftyp' && isAvifBrand(bytes)) return 'avif';
  return null;
}

/** AVIF is an ISO-BMFF file whose ftyp box names the avif (or avis, for sequences) brand. */
function isAvifBrand(bytes: Buffer): boolean {
  const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 64);
  for (let offset = 8; offset + 4 <= boxSize; offset += 4) {
    if (offset === 12) continue; // the minor-version field, not a brand
    const brand = bytes.toString('latin1', offset, offset + 4);
    if (brand === 'avif' || brand === 'avis') return true;
  }
  return false;
}
