import sharp from 'sharp';
import { type ImageFormat, sniffImageFormat } from './image-format';

function encode(format: ImageFormat | 'tiff'): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 12, channels: 3, background: '#0f0' } })
    .toFormat(format)
    .toBuffer();
}

/** An ISO-BMFF file that starts with an ftyp box naming these brands. */
function ftyp(major: string, minorVersion: string, ...compatible: string[]): Buffer {
  const body = Buffer.from(`ftyp${major}${minorVersion}${compatible.join('')}`, 'latin1');
  const size = Buffer.alloc(4);
  size.writeUInt32BE(body.length + 4 + 16);
  return Buffer.concat([size, body, Buffer.alloc(16)]);
}

describe('sniffImageFormat', () => {
  it.each<ImageFormat>(['jpeg', 'png', 'webp', 'gif', 'avif'])(
    'recognises a real %s file made by sharp',
    async (format) => {
      expect(sniffImageFormat(await encode(format))).toBe(format);
    },
  );

  it('recognises a GIF87a header as well as GIF89a', () => {
    expect(sniffImageFormat(Buffer.from('GIF87a\x10\x00\x10\x00\x00\x00\x00', 'latin1'))).toBe('gif');
  });

  it('recognises AVIF when the brand is only among the compatible brands', () => {
    expect(sniffImageFormat(ftyp('mif1', '\0\0\0\0', 'miaf', 'avif'))).toBe('avif');
  });

  it('recognises an AVIF image sequence (avis)', () => {
    expect(sniffImageFormat(ftyp('avis', '\0\0\0\0', 'msf1'))).toBe('avif');
  });

  it('answers null for an ISO-BMFF file that is not AVIF (HEIC, MP4)', () => {
    expect(sniffImageFormat(ftyp('heic', '\0\0\0\0', 'mif1', 'heic'))).toBeNull();
    expect(sniffImageFormat(ftyp('isom', '\0\0\x02\0', 'isom', 'mp41'))).toBeNull();
  });

  it('does not take the minor-version field for a brand', () => {
    expect(sniffImageFormat(ftyp('isom', 'avif', 'mp41'))).toBeNull();
  });

  it('answers null for a format it does not accept (TIFF)', async () => {
    expect(sniffImageFormat(await encode('tiff'))).toBeNull();
  });

  it('answers null for text', () => {
    expect(sniffImageFormat(Buffer.from('Hello, this is plain text and not an image.\n'))).toBeNull();
  });

  it('answers null for an SVG, even one that is a valid image', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    expect((await sharp(svg).metadata()).format).toBe('svg');
    expect(sniffImageFormat(svg)).toBeNull();
  });

  it('answers null for a RIFF file that is not WebP (WAV)', () => {
    expect(sniffImageFormat(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'))).toBeNull();
  });

  it('answers null for an empty buffer', () => {
    expect(sniffImageFormat(Buffer.alloc(0))).toBeNull();
  });

  it('answers null for buffers shorter than 12 bytes, even when they start like an image', async () => {
    const png = await encode('png');
    const jpeg = await encode('jpeg');
    expect(sniffImageFormat(png.subarray(0, 11))).toBeNull();
    expect(sniffImageFormat(jpeg.subarray(0, 3))).toBeNull();
    expect(sniffImageFormat(Buffer.from('GIF89a', 'latin1'))).toBeNull();
  });

  it('recognises a file of exactly 12 bytes that starts like an image', async () => {
    expect(sniffImageFormat((await encode('png')).subarray(0, 12))).toBe('png');
  });

  it('answers null when the magic bytes are only close (a PNG signature with one byte changed)', async () => {
    const png = Buffer.from(await encode('png'));
    png[7] = 0x00;
    expect(sniffImageFormat(png)).toBeNull();
  });
});
