import { join } from 'node:path';
import sharp from 'sharp';
import { DiskImageStorage } from '../uploads/disk-image-storage';
import { ImageProcessor } from '../uploads/image-processor';
import { UploadsService } from '../uploads/uploads.service';
import type { Random } from './random';

/**
 * Widths × heights of the seeded pictures: landscape, portrait, square and panorama, some wider
 * than the 1600 px the upload pipeline keeps, so its resizing is exercised like real uploads.
 */
const SHAPES: readonly [number, number][] = [
  [2400, 1350],
  [1200, 800],
  [800, 1200],
  [1080, 1080],
  [3000, 2000],
  [640, 480],
  [1920, 1080],
  [900, 1600],
  [2048, 768],
  [1600, 1200],
  [720, 720],
  [1280, 960],
];

/**
 * The one call into the app's upload pipeline (sniff, re-encode, store), so seeded images are
 * stored exactly as uploaded ones are, variants included, and served at the URL it returns.
 */
export function uploadPipeline(dataDir: string): (image: Buffer) => Promise<string> {
  const uploads = new UploadsService(new ImageProcessor(), new DiskImageStorage(join(dataDir, 'uploads')));
  return (image) => uploads.store(image);
}

/** Distinct pictures (gradients and shapes), stored once each; posts and avatars reuse the URLs. */
export async function seedImages(
  random: Random,
  count: number,
  store: (image: Buffer) => Promise<string>,
): Promise<string[]> {
  // Drawn in order (the random stream decides each picture), then rendered and stored two at a
  // time: sharp works off the event loop, and this machine has two cores.
  const pictures: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const [width, height] = SHAPES[index % SHAPES.length];
    pictures.push(drawPicture(random, width, height));
  }
  const urls: string[] = new Array<string>(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < count; index = next++) urls[index] = await store(await toJpeg(pictures[index]));
  };
  await Promise.all([worker(), worker()]);
  return urls;
}

/** An SVG: gradient background and a few translucent circles and rounded bars. */
function drawPicture(random: Random, width: number, height: number): string {
  const colour = (): string => `hsl(${random.int(0, 359)}, ${random.int(40, 90)}%, ${random.int(30, 70)}%)`;
  const shapes: string[] = [];
  for (let i = random.int(3, 9); i > 0; i -= 1) {
    const x = random.int(0, width);
    const y = random.int(0, height);
    const size = random.int(Math.round(Math.min(width, height) / 12), Math.round(Math.min(width, height) / 3));
    shapes.push(
      random.chance(0.5)
        ? `<circle cx="${x}" cy="${y}" r="${size}" fill="${colour()}" fill-opacity="0.7"/>`
        : `<rect x="${x - size}" y="${y - size}" width="${size * 2}" height="${size}" rx="${size / 6}" fill="${colour()}" fill-opacity="0.7" transform="rotate(${random.int(-40, 40)} ${x} ${y})"/>`,
    );
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="${random.next().toFixed(2)}" y2="1">` +
    `<stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}</svg>`
  );
}

/** JPEG, as most uploads are: the pipeline then decodes and re-encodes it like any other. */
function toJpeg(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
