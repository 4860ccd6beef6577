import { Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../common/app-errors';
import { sniffImageFormat } from './image-format';

/** Refused before decoding: a tiny file can claim a huge canvas (a decompression bomb). */
export const MAX_INPUT_PIXELS = 40_000_000;
export const MAX_EDGE = 1600;

/**
 * Every upload is decoded and re-encoded to WebP: that drops all metadata (EXIF GPS included),
 * any payload hidden after the image data, and any script a polyglot file carried.
 */
@Injectable()
export class ImageProcessor {
  async toWebp(input: Buffer): Promise<Buffer> {
    if (input.length === 0) throw new BadRequestError('The file is empty');
    if (!sniffImageFormat(input)) {
      throw new UnsupportedMediaTypeError('Only JPEG, PNG, WebP, GIF and AVIF images are accepted');
    }
    let width: number | undefined;
    let height: number | undefined;
    try {
      ({ width, height } = await sharp(input, { limitInputPixels: false }).metadata());
    } catch {
      throw new BadRequestError('The image could not be read; it may be damaged');
    }
    if (!width || !height) throw new BadRequestError('The image could not be read; it may be damaged');
    if (width * height > MAX_INPUT_PIXELS) {
      throw new PayloadTooLargeError(`The image is too large: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels`);
    }
    try {
      return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate() // apply the EXIF orientation before the EXIF block is dropped
        .resize({ width: MAX_EDGE, height: MAX_EDGE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer();
    } catch {
      throw new BadRequestError('The image could not be read; it may be damaged or truncated');
    }
  }
}
