import { existsSync, readdirSync } from 'node:fs';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { OrphanSweepService } from '../src/uploads/orphan-sweep.service';
import { uploadsDirectory } from '../src/uploads/uploads.module';
import { createPost, createUser } from './support/factories';
import { startS3Server, type S3Server } from './support/s3-server';
import { startTestApp, type TestApp } from './support/test-app';
import { binary, unzip } from './support/zip-reader';

/**
 * Uploads in an S3-compatible bucket (S3_* settings) against a real S3 server in this process
 * (s3rver, path-style like MinIO), so every instance behind a load balancer serves every image.
 */

jest.setTimeout(60_000);

const HOUR_MS = 3_600_000;
const FULL_URL = /^(.+)\/([0-9a-f]{24}-800x600)\.webp$/;

let colour = 0;
async function upload(t: TestApp) {
  colour += 1;
  const png = await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: colour % 256, g: 80, b: 160 } },
  })
    .png()
    .toBuffer();
  return t.http.post('/api/upload').attach('file', png, { filename: 'x.png', contentType: 'image/png' });
}

/** The object keys of an upload: the full image and its card and avatar copies. */
function keysOf(url: string): string[] {
  const stem = FULL_URL.exec(url)?.[2];
  if (!stem) throw new Error(`not an S3 upload URL: ${url}`);
  return [`${stem}.webp`, `${stem}.card.webp`, `${stem}.avatar.webp`];
}

async function bucketKeys(s3: S3Server): Promise<string[]> {
  const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

describe('images in S3 (S3_* settings)', () => {
  let s3: S3Server;
  let t: TestApp;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await startTestApp(s3.settings);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await s3?.remove();
  });

  describe('POST /api/upload', () => {
    it('stores the image and both variants in the bucket as image/webp, cacheable for a year, and answers its public URL', async () => {
      const response = await upload(t);
      expect(response.status).toBe(201);
      const url = response.body.url as string;
      expect(url).toMatch(FULL_URL);
      expect(url.startsWith(`${s3.publicUrl}/`)).toBe(true);

      for (const key of keysOf(url)) {
        const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
        expect(head.ContentType).toBe('image/webp');
        expect(head.CacheControl).toBe('public, max-age=31536000, immutable');
      }
      // Nothing on this instance's disk: another instance could not serve it.
      const local = uploadsDirectory(t.config);
      expect(existsSync(local) ? readdirSync(local) : []).toEqual([]);
    });

    it('serves the image and its variants from S3_PUBLIC_URL to anyone, at their sizes', async () => {
      const url = (await upload(t)).body.url as string;
      const sizes: [number, number][] = [
        [800, 600],
        [600, 450],
        [224, 224],
      ];
      for (const [index, key] of keysOf(url).entries()) {
        const response = await fetch(`${s3.publicUrl}/${key}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/webp');
        const image = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
        expect([image.format, image.width, image.height]).toEqual(['webp', ...sizes[index]]);
      }
    });

    it('lets the web app show images from the bucket: its origin is in the CSP img-src', async () => {
      const response = await t.http.get('/api/health');
      const policy: string = response.headers['content-security-policy'];
      const imgSrc = policy.split(';').find((directive) => directive.trim().startsWith('img-src'));
      expect(imgSrc?.trim().split(/\s+/)).toContain(new URL(s3.publicUrl).origin);
    });
  });

  describe('POST /api/export', () => {
    it("puts the user's pictures from the bucket in the archive, byte for byte", async () => {
      const author = await createUser(t);
      const url = (await upload(t)).body.url as string;
      await createPost(t, author, { pic: url });
      const reply = await t.http
        .post('/api/export')
        .set('Authorization', author.auth)
        .buffer(true)
        .parse(binary)
        .expect(200);
      const files = await unzip(reply.body as Buffer);
      const [fullKey] = keysOf(url);
      const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: fullKey }));
      const stored = Buffer.from(await object.Body!.transformToByteArray());
      expect(files.get(`images/${fullKey}`)?.equals(stored)).toBe(true);
    });
  });

  describe('freeing images', () => {
    it('removes every object of a post’s picture when the post is deleted', async () => {
      const author = await createUser(t);
      const url = (await upload(t)).body.url as string;
      const post = await createPost(t, author, { pic: url });
      expect(post.photo).toBe(url);
      const keys = keysOf(url);
      expect(await bucketKeys(s3)).toEqual(expect.arrayContaining(keys));

      await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', author.auth).expect(200);

      const left = await bucketKeys(s3);
      for (const key of keys) expect(left).not.toContain(key);
      expect((await fetch(url)).status).toBe(404);
    });

    it('lets the orphan sweep list the bucket: an old upload no row uses goes, one a post shows stays', async () => {
      const author = await createUser(t);
      const orphan = (await upload(t)).body.url as string;
      const shown = (await upload(t)).body.url as string;
      await createPost(t, author, { pic: shown });

      // A day and a bit later, by the sweep's clock: both uploads are old enough to judge.
      const result = await t.app.get(OrphanSweepService).sweep(new Date(Date.now() + 25 * HOUR_MS));

      expect(result.removed).toContain(orphan);
      expect(result.removed).not.toContain(shown);
      const left = await bucketKeys(s3);
      for (const key of keysOf(orphan)) expect(left).not.toContain(key);
      expect(left).toEqual(expect.arrayContaining(keysOf(shown)));
    });
  });

  describe('with the S3 server down', () => {
    it('answers an upload with 503 { error } within seconds, and stores again once S3 is back', async () => {
      await s3.stop();
      try {
        const started = Date.now();
        const response = await upload(t);
        expect(response.status).toBe(503);
        expect(response.body).toEqual({ error: 'The image could not be stored right now; please try again' });
        expect(Date.now() - started).toBeLessThan(15_000);
      } finally {
        await s3.start();
      }
      expect((await upload(t)).status).toBe(201);
    });
  });
});
