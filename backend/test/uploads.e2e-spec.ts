import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import exifReader from 'exif-reader';
import sharp from 'sharp';
import type { Response } from 'supertest';
// The mapping the web app uses from a stored URL to its variants: these tests hold it to the files written.
import { type ImageVariant, imageVariant } from '@techit/contract/image-variants';
import { createPost, createUser } from './support/factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

/** The full image's URL carries its pixel size: `<id>-<width>x<height>.webp`. */
const UPLOAD_URL = /^\/uploads\/[0-9a-f]{24}-\d+x\d+\.webp$/;
const VARIANTS: ImageVariant[] = ['full', 'card', 'avatar'];

type Format = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

/** A solid-colour image, encoded by sharp in the given format. */
function image(format: Format, width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#f00' } })
    .toFormat(format)
    .toBuffer();
}

/** Random pixels: PNG cannot compress them, so the file is about width × height × 3 bytes. */
function noisePng(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** Collects a binary reply into a Buffer, whatever its content type. */
function binary(response: unknown, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = response as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}

function uploadedFiles(t: TestApp): string[] {
  return readdirSync(join(t.config.dataDir, 'uploads')).sort();
}

function fileName(url: string): string {
  return url.slice('/uploads/'.length);
}

function upload(t: TestApp, bytes: Buffer, filename = 'x.png', contentType = 'image/png') {
  return t.http.post('/api/upload').attach('file', bytes, { filename, contentType });
}

/** Uploads an image, expects 201 with a fresh URL, and returns the stored bytes as served. */
async function uploadAndFetch(
  t: TestApp,
  bytes: Buffer,
  filename = 'x.png',
  contentType = 'image/png',
): Promise<Buffer> {
  const response = await upload(t, bytes, filename, contentType).expect(201);
  expect(response.body).toEqual({ url: expect.stringMatching(UPLOAD_URL) });
  const served = await t.http.get(response.body.url).buffer(true).parse(binary).expect(200);
  return served.body as Buffer;
}

/** Runs a request that must be refused, and checks that no file and no row was added. */
async function expectRefused(t: TestApp, send: () => Promise<Response>, status: number): Promise<string> {
  const filesBefore = uploadedFiles(t);
  const rowsBefore = await snapshot(t.db);
  const response = await send();
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error: expect.any(String) });
  expect(uploadedFiles(t)).toEqual(filesBefore);
  expect(await snapshot(t.db)).toBe(rowsBefore);
  return response.body.error as string;
}

describe('POST /api/upload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('stores an image without a token and answers 201 with only its URL', async () => {
    const before = uploadedFiles(t);
    const response = await upload(t, await image('png', 64, 48)).expect(201);
    expect(response.body).toEqual({ url: expect.stringMatching(UPLOAD_URL) });
    const url = response.body.url as string;
    expect(url).toMatch(/-64x48\.webp$/);
    const stem = fileName(url).slice(0, -'.webp'.length);
    expect(uploadedFiles(t)).toEqual([...before, `${stem}.webp`, `${stem}.card.webp`, `${stem}.avatar.webp`].sort());
  });

  it('serves the stored image as immutable WebP with nosniff', async () => {
    const { body } = await upload(t, await image('png')).expect(201);
    const served = await t.http.get(body.url).buffer(true).parse(binary).expect(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const stored = readFileSync(join(t.config.dataDir, 'uploads', fileName(body.url)));
    expect(Buffer.compare(served.body as Buffer, stored)).toBe(0);
    expect((await sharp(stored).metadata()).format).toBe('webp');
  });

  it.each<[string, [number, number], Record<ImageVariant, [number, number]>]>([
    ['a wide image', [2000, 1000], { full: [1600, 800], card: [600, 300], avatar: [224, 224] }],
    ['a tall image', [900, 3200], { full: [450, 1600], card: [450, 1600], avatar: [224, 224] }],
    ['a portrait photo', [1200, 1600], { full: [1200, 1600], card: [600, 800], avatar: [224, 224] }],
    ['an image just over card width', [601, 401], { full: [601, 401], card: [600, 400], avatar: [224, 224] }],
    ['a small image, never enlarged', [10, 7], { full: [10, 7], card: [10, 7], avatar: [7, 7] }],
    ['a thin strip', [1600, 3], { full: [1600, 3], card: [600, 1], avatar: [3, 3] }],
  ])(
    'writes the full image, a card copy at most 600 px wide and a square avatar for %s',
    async (_, [width, height], expected) => {
      const { body } = await upload(t, await image('png', width, height)).expect(201);
      const [fullWidth, fullHeight] = expected.full;
      expect(body.url).toMatch(new RegExp(`-${fullWidth}x${fullHeight}\\.webp$`));
      for (const variant of VARIANTS) {
        const stored = readFileSync(join(t.config.dataDir, 'uploads', fileName(imageVariant(body.url, variant).src)));
        const metadata = await sharp(stored).metadata();
        expect({ variant, format: metadata.format, size: [metadata.width, metadata.height] }).toEqual({
          variant,
          format: 'webp',
          size: expected[variant],
        });
      }
    },
  );

  it('crops the avatar to the centre square of the picture', async () => {
    // Left half red, right half blue: the centre square of a 400×200 image is half of each.
    const halves = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#f00' } })
      .composite([
        { input: { create: { width: 200, height: 200, channels: 3, background: '#00f' } }, left: 200, top: 0 },
      ])
      .png()
      .toBuffer();
    const { body } = await upload(t, halves).expect(201);
    const file = join(t.config.dataDir, 'uploads', fileName(imageVariant(body.url, 'avatar').src));
    const { data, info } = await sharp(readFileSync(file)).raw().toBuffer({ resolveWithObject: true });
    const rgb = (x: number, y: number) => {
      const at = (y * info.width + x) * info.channels;
      return [data[at], data[at + 1], data[at + 2]];
    };
    expect({ width: info.width, height: info.height }).toEqual({ width: 200, height: 200 });
    expect(rgb(20, 100)[0]).toBeGreaterThan(200);
    expect(rgb(180, 100)[2]).toBeGreaterThan(200);
  });

  it('serves every variant as immutable WebP with nosniff, at the size the web app expects from the URL', async () => {
    const { body } = await upload(t, await image('jpeg', 1800, 1200), 'x.jpg', 'image/jpeg').expect(201);
    for (const variant of VARIANTS) {
      const expected = imageVariant(body.url, variant);
      const served = await t.http.get(expected.src).buffer(true).parse(binary).expect(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toContain('immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      const { width, height } = await sharp(served.body as Buffer).metadata();
      expect({ variant, width, height }).toEqual({ variant, width: expected.width, height: expected.height });
    }
  });

  it('makes the card copy much smaller than the full image', async () => {
    const photo = await sharp(randomBytes(1600 * 1000 * 3), { raw: { width: 1600, height: 1000, channels: 3 } })
      .jpeg()
      .toBuffer();
    const { body } = await upload(t, photo, 'x.jpg', 'image/jpeg').expect(201);
    const size = (variant: ImageVariant) =>
      readFileSync(join(t.config.dataDir, 'uploads', fileName(imageVariant(body.url, variant).src))).length;
    expect(size('card')).toBeLessThan(size('full') / 4);
    expect(size('avatar')).toBeLessThan(size('card'));
  });

  it('accepts the returned URL as a post picture and a profile picture, and keeps it as is', async () => {
    const { body } = await upload(t, await image('png', 800, 600)).expect(201);
    const url = body.url as string;
    const author = await createUser(t, { pic: url });
    const me = await t.http.get(`/api/user/${author.id}`).expect(200);
    expect(me.body.user.pic).toBe(url);
    const post = await createPost(t, author, { pic: url });
    expect(post.photo).toBe(url);
    const detail = await t.http.get(`/api/posts/${post._id}`).expect(200);
    expect(detail.body.post.photo).toBe(url);
  });

  it('does not accept a variant URL as a picture: only the full image is stored', async () => {
    const { body } = await upload(t, await image('png', 800, 600)).expect(201);
    const author = await createUser(t);
    const response = await t.http
      .post('/api/createpost')
      .set('Authorization', author.auth)
      .send({ title: 'Card', desc: 'A card URL', pic: imageVariant(body.url, 'card').src });
    expect(response.status).toBe(400);
  });

  it('gives every upload a new URL, even for the same bytes', async () => {
    const bytes = await image('png');
    const first = await upload(t, bytes).expect(201);
    const second = await upload(t, bytes).expect(201);
    expect(first.body.url).not.toBe(second.body.url);
  });

  it.each<[Format, string]>([
    ['jpeg', 'image/jpeg'],
    ['png', 'image/png'],
    ['webp', 'image/webp'],
    ['gif', 'image/gif'],
    ['avif', 'image/avif'],
  ])('accepts %s and re-encodes it to WebP', async (format, contentType) => {
    const stored = await uploadAndFetch(t, await image(format, 64, 48), `x.${format}`, contentType);
    const metadata = await sharp(stored).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
      format: 'webp',
      width: 64,
      height: 48,
    });
  });

  it('recognises the image by its bytes, not by the name or declared type', async () => {
    const stored = await uploadAndFetch(t, await image('jpeg'), 'notes.txt', 'text/plain');
    expect((await sharp(stored).metadata()).format).toBe('webp');
  });

  it('shrinks a 2000×1000 image to fit within 1600×1600, keeping its proportions', async () => {
    const stored = await uploadAndFetch(t, await image('png', 2000, 1000));
    const { width, height } = await sharp(stored).metadata();
    expect({ width, height }).toEqual({ width: 1600, height: 800 });
  });

  it('shrinks a tall image by its height', async () => {
    const stored = await uploadAndFetch(t, await image('png', 500, 3200));
    const { width, height } = await sharp(stored).metadata();
    expect({ width, height }).toEqual({ width: 250, height: 1600 });
  });

  it('does not enlarge a small image', async () => {
    const stored = await uploadAndFetch(t, await image('png', 10, 7));
    const { width, height } = await sharp(stored).metadata();
    expect({ width, height }).toEqual({ width: 10, height: 7 });
  });

  it('removes all EXIF data, GPS position included, from a JPEG', async () => {
    const jpeg = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#0a0' } })
      .jpeg()
      .withExif({
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
      })
      .toBuffer();
    const input = await sharp(jpeg).metadata();
    expect(input.exif).toBeDefined();
    expect(exifReader(input.exif!).GPSInfo).toMatchObject({ GPSLatitudeRef: 'N', GPSLatitude: [51, 30, 0] });

    const { body } = await upload(t, jpeg, 'photo.jpg', 'image/jpeg').expect(201);
    for (const variant of VARIANTS) {
      const stored = readFileSync(join(t.config.dataDir, 'uploads', fileName(imageVariant(body.url, variant).src)));
      const output = await sharp(stored).metadata();
      expect(output.format).toBe('webp');
      expect(output.exif).toBeUndefined();
      expect(stored.includes(Buffer.from('Exif'))).toBe(false);
    }
  });

  it('applies the EXIF orientation before dropping it, so the picture stays upright', async () => {
    const rotated = await sharp({ create: { width: 800, height: 700, channels: 3, background: '#00f' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(rotated).metadata()).orientation).toBe(6);
    const { body } = await upload(t, rotated, 'photo.jpg', 'image/jpeg').expect(201);
    expect(body.url).toMatch(/-700x800\.webp$/);
    for (const [variant, size] of [
      ['full', [700, 800]],
      ['card', [600, 686]],
    ] as const) {
      const stored = readFileSync(join(t.config.dataDir, 'uploads', fileName(imageVariant(body.url, variant).src)));
      const { width, height, orientation } = await sharp(stored).metadata();
      expect({ variant, width, height, orientation }).toEqual({
        variant,
        width: size[0],
        height: size[1],
        orientation: undefined,
      });
    }
  });

  it('drops a payload hidden after the image data', async () => {
    const payload = '<script>alert("polyglot")</script>';
    const stored = await uploadAndFetch(t, Buffer.concat([await image('png'), Buffer.from(payload)]));
    expect(stored.includes(Buffer.from(payload))).toBe(false);
  });

  it('refuses a text file named .png with 415', async () => {
    const error = await expectRefused(
      t,
      () => upload(t, Buffer.from('just some text, not an image at all\n'), 'x.png', 'image/png'),
      415,
    );
    expect(error).toMatch(/JPEG/);
  });

  it('refuses an SVG with 415', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    await expectRefused(t, () => upload(t, svg, 'x.svg', 'image/svg+xml'), 415);
  });

  it('refuses an image format it does not accept (TIFF) with 415', async () => {
    const tiff = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#f00' } })
      .tiff()
      .toBuffer();
    await expectRefused(t, () => upload(t, tiff, 'x.tiff', 'image/tiff'), 415);
  });

  it('refuses a zero-byte file with 400', async () => {
    await expectRefused(t, () => upload(t, Buffer.alloc(0)), 400);
  });

  it('refuses a truncated JPEG with 400', async () => {
    const jpeg = await sharp(randomBytes(300 * 200 * 3), { raw: { width: 300, height: 200, channels: 3 } })
      .jpeg()
      .toBuffer();
    const half = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    await expectRefused(t, () => upload(t, half, 'x.jpg', 'image/jpeg'), 400);
  });

  it('refuses a file with image magic bytes but no image behind them with 400', async () => {
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('garbage after the signature'),
    ]);
    await expectRefused(t, () => upload(t, fake), 400);
  });

  it('refuses an image over 40 megapixels with 413, even when the file is small', async () => {
    const huge = await image('png', 7000, 7000);
    expect(huge.length).toBeLessThan(t.config.uploadMaxBytes);
    const error = await expectRefused(t, () => upload(t, huge), 413);
    expect(error).toMatch(/megapixels/);
  });

  it('accepts an image of exactly 40 megapixels', async () => {
    const stored = await uploadAndFetch(t, await image('png', 8000, 5000));
    const { width, height } = await sharp(stored).metadata();
    expect({ width, height }).toEqual({ width: 1600, height: 1000 });
  });

  it('refuses an image just over 40 megapixels with 413', async () => {
    await expectRefused(t, async () => upload(t, await image('png', 8000, 5001)), 413);
  });

  it('refuses a JSON body with 415', async () => {
    const error = await expectRefused(t, () => t.http.post('/api/upload').send({ file: 'aGVsbG8=' }), 415);
    expect(error).toMatch(/multipart/);
  });

  it('refuses multipart without a "file" field with 400', async () => {
    const error = await expectRefused(t, () => t.http.post('/api/upload').field('name', 'x.png'), 400);
    expect(error).toMatch(/file/);
  });

  it('refuses an image sent in a field with another name with 400', async () => {
    const png = await image('png');
    await expectRefused(
      t,
      () => t.http.post('/api/upload').attach('image', png, { filename: 'x.png', contentType: 'image/png' }),
      400,
    );
  });

  it('refuses a multipart body without a boundary with 400, not a server error', async () => {
    const send = () => t.http.post('/api/upload').set('Content-Type', 'multipart/form-data').send('garbage');
    expect(await expectRefused(t, send, 400)).toMatch(/multipart/);
  });

  it('refuses a multipart body that is not multipart with 400, not a server error', async () => {
    const send = () =>
      t.http.post('/api/upload').set('Content-Type', 'multipart/form-data; boundary=xyz').send('garbage');
    await expectRefused(t, send, 400);
  });

  it('refuses a multipart body cut off inside the file with 400, not a server error', async () => {
    const head =
      '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n';
    const body = Buffer.concat([Buffer.from(head), (await image('png')).subarray(0, 40)]);
    const send = () => t.http.post('/api/upload').set('Content-Type', 'multipart/form-data; boundary=xyz').send(body);
    await expectRefused(t, send, 400);
  });

  it('refuses a "file" field that holds text instead of a file with 400', async () => {
    await expectRefused(t, () => t.http.post('/api/upload').field('file', 'not a file'), 400);
  });
});

describe('POST /api/upload with UPLOAD_MAX_BYTES=20000', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ UPLOAD_MAX_BYTES: '20000' });
  });
  afterAll(() => t.close());

  it('accepts a file under the limit', async () => {
    const small = await noisePng(50, 50);
    expect(small.length).toBeLessThan(20000);
    const stored = await uploadAndFetch(t, small);
    expect((await sharp(stored).metadata()).width).toBe(50);
  });

  it('refuses a file over the limit with 413', async () => {
    const big = await noisePng(130, 130);
    expect(big.length).toBeGreaterThan(40000);
    const error = await expectRefused(t, () => upload(t, big), 413);
    expect(error).toMatch(/too large/);
  });
});

describe('GET /uploads/:name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 for an upload that does not exist', async () => {
    await t.http.get('/uploads/ffffffffffffffffffffffff.webp').expect(404);
    await t.http.get('/uploads/ffffffffffffffffffffffff-640x400.card.webp').expect(404);
  });

  it('does not serve files outside the uploads directory', async () => {
    const response = await t.http.get('/uploads/..%2f..%2fetc%2fpasswd');
    expect([400, 403, 404]).toContain(response.status);
    expect(response.text).not.toContain('root:');
  });
});
