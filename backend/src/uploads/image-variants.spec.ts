import {
  cloudinaryTransformation,
  IMAGE_SIZES,
  imageVariant,
  sizedImageStem,
  variantSize,
} from '@techit/contract/image-variants';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';

// The rules live in the contract because the server names files by them and the web app reads
// URLs by them; the uploads e2e spec checks them against real files.
describe('variantSize', () => {
  const edges = [1, 2, 3, 7, 224, 225, 599, 600, 601, 999, 1600];

  it('keeps cards at most 600 px wide, never enlarged, in the same proportions', () => {
    for (const width of edges) {
      for (const height of edges) {
        const card = variantSize({ width, height }, 'card');
        expect(card.width).toBe(Math.min(width, 600));
        expect(card.height).toBeGreaterThanOrEqual(1);
        expect(card.height).toBeLessThanOrEqual(height);
        // Within rounding of the exact proportional height (a thin strip keeps at least one row).
        expect(Math.abs(card.height - Math.max(1, (height * card.width) / width))).toBeLessThanOrEqual(0.5);
      }
    }
  });

  it('makes avatars square, at most 224 px, never larger than either side', () => {
    for (const width of edges) {
      for (const height of edges) {
        const avatar = variantSize({ width, height }, 'avatar');
        expect(avatar.width).toBe(avatar.height);
        expect(avatar.width).toBe(Math.min(IMAGE_SIZES.avatarSide, width, height));
      }
    }
  });

  it('answers the full size for the full variant', () => {
    expect(variantSize({ width: 1600, height: 900 }, 'full')).toEqual({ width: 1600, height: 900 });
  });
});

describe('imageVariant', () => {
  const id = '6743a1f2c0ffee0123456789';

  it('maps an upload on disk to its files beside it, with their sizes', () => {
    const url = `/uploads/${sizedImageStem(id, { width: 1600, height: 1200 })}.webp`;
    expect(url).toBe(`/uploads/${id}-1600x1200.webp`);
    expect(imageVariant(url, 'full')).toEqual({ src: url, width: 1600, height: 1200 });
    expect(imageVariant(url, 'card')).toEqual({ src: `/uploads/${id}-1600x1200.card.webp`, width: 600, height: 450 });
    expect(imageVariant(url, 'avatar')).toEqual({
      src: `/uploads/${id}-1600x1200.avatar.webp`,
      width: 224,
      height: 224,
    });
  });

  it.each([
    ['an upload from before variants', `/uploads/${id}.webp`],
    ['the default avatar', DEFAULT_PROFILE_PIC],
    ['a picture on another site', 'https://example.com/photos/cat-1600x1200.webp'],
    ['a URL with a query string', `/uploads/${id}-1600x1200.webp?x=1`],
    ['a size of zero', `/uploads/${id}-0x1200.webp`],
    ['an upper-case id', `/uploads/${id.toUpperCase()}-1600x1200.webp`],
    ['an empty string', ''],
  ])('gives %s back unchanged and without a size', (_, url) => {
    for (const variant of ['full', 'card', 'avatar'] as const) {
      expect(imageVariant(url, variant)).toEqual({ src: url });
    }
  });

  it('maps an upload in an S3-compatible store to the objects beside it, under its public URL', () => {
    const url = `https://cdn.example.com/techit-images/${id}-1600x1200.webp`;
    expect(imageVariant(url, 'full')).toEqual({ src: url, width: 1600, height: 1200 });
    expect(imageVariant(url, 'card')).toEqual({
      src: `https://cdn.example.com/techit-images/${id}-1600x1200.card.webp`,
      width: 600,
      height: 450,
    });
    expect(imageVariant(url, 'avatar')).toMatchObject({
      src: `https://cdn.example.com/techit-images/${id}-1600x1200.avatar.webp`,
    });
  });

  it('never maps a variant URL again', () => {
    const card = `/uploads/${id}-1600x1200.card.webp`;
    expect(imageVariant(card, 'card')).toEqual({ src: card });
  });

  const cloud = 'https://res.cloudinary.com/demo-cloud/image/upload';

  it('turns a Cloudinary upload into transformations, with sizes from its name', () => {
    const url = `${cloud}/v1712345678/techit/${id}-1600x1200.webp`;
    expect(imageVariant(url, 'full')).toEqual({ src: url, width: 1600, height: 1200 });
    expect(imageVariant(url, 'card')).toEqual({
      src: `${cloud}/c_limit,w_600/v1712345678/techit/${id}-1600x1200.webp`,
      width: 600,
      height: 450,
    });
    expect(imageVariant(url, 'avatar')).toEqual({
      src: `${cloud}/c_fill,h_224,w_224/v1712345678/techit/${id}-1600x1200.webp`,
      width: 224,
      height: 224,
    });
  });

  it('asks Cloudinary for a small avatar at the size the disk driver would store', () => {
    const url = `${cloud}/v1/techit/${id}-100x80.webp`;
    expect(imageVariant(url, 'avatar')).toEqual({
      src: `${cloud}/c_fill,h_80,w_80/v1/techit/${id}-100x80.webp`,
      width: 80,
      height: 80,
    });
    expect(cloudinaryTransformation('avatar', { width: 100, height: 80 })).toBe('c_fill,h_80,w_80');
  });

  it('still resizes a Cloudinary picture of unknown size (the original app uploaded to Cloudinary)', () => {
    const url = 'http://res.cloudinary.com/legacy/image/upload/v1620000000/abc123.jpg';
    expect(imageVariant(url, 'full')).toEqual({ src: url });
    expect(imageVariant(url, 'card')).toEqual({
      src: 'http://res.cloudinary.com/legacy/image/upload/c_limit,w_600/v1620000000/abc123.jpg',
    });
    expect(imageVariant(url, 'avatar')).toEqual({
      src: 'http://res.cloudinary.com/legacy/image/upload/c_fill,h_224,w_224/v1620000000/abc123.jpg',
    });
  });
});
