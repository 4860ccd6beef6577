import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

/** A real PNG file on disk, for a file input to pick. */
export async function pngFile(name = 'picture.png', color = '#2f7dd1', width = 640, height = 400): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'techit-e2e-img-')), name);
  writeFileSync(
    path,
    await sharp({ create: { width, height, channels: 3, background: color } })
      .png()
      .toBuffer(),
  );
  return path;
}
