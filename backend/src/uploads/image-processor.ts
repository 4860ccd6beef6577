import { Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../common/app-errors';
import { sniffImageFormat } from './image-format';
import type { EncodedImage, ProcessedImage } from './processed-image';
import { IMAGE_SIZES, variantSize } from '@techit/contract/image-variants';

/** Refused before decoding: a tiny file can claim a huge canvas (a decompression bomb). */
export const MAX_INPUT_PIXELS = 40_000_000;
const QUALITY = 82;

/**
 * Every upload is decoded and re-encoded to WebP: that drops all metadata (EXIF GPS included),
 * any payload hidden after the image data, and any script a polyglot file carried. The card and
 * avatar copies are made here, once, so serving any of them is a plain static file.
 */
@Injectable()
export class ImageProcessor {
  async process(input: Buffer): Promise<ProcessedImage> {
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
      // Decoded once, at most 1600 px: the full image and both copies are encoded from these pixels.
      // rotate() applies the EXIF orientation before the EXIF block is dropped.
      const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({
          width: IMAGE_SIZES.fullMaxEdge,
          height: IMAGE_SIZES.fullMaxEdge,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
      // Exact sizes computed from the full image's: the web app derives the same numbers from its URL.
      const [full, card, avatar] = await Promise.all([
        encode(pixels()),
        encode(pixels().resize({ ...variantSize(info, 'card'), fit: 'fill' })),
        encode(pixels().resize({ ...variantSize(info, 'avatar'), fit: 'cover', position: 'centre' })),
      ]);
      return { full, card, avatar };
    } catch {
      throw new BadRequestError('The image could not be read; it may be damaged or truncated');
    }
  }
}

async function encode(pipeline: sharp.Sharp): Promise<EncodedImage> {
  const { data, info } = await pipeline.webp({ quality: QUALITY }).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
