import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import sharp from 'sharp';
import { OrphanSweepService } from '../src/uploads/orphan-sweep.service';
import { createPost, createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const HOUR_MS = 3_600_000;

let colour = 0;

/** Uploads a small PNG through the API and answers the full image's URL. */
async function upload(t: TestApp): Promise<string> {
  colour += 1;
  const png = await sharp({
    create: { width: 40, height: 30, channels: 3, background: { r: colour % 256, g: 80, b: 160 } },
  })
    .png()
    .toBuffer();
  const response = await t.http
    .post('/api/upload')
    .attach('file', png, { filename: 'x.png', contentType: 'image/png' });
  expect(response.status).toBe(201);
  return response.body.url as string;
}

/** The files an upload is stored as: the full image and its card and avatar copies. */
function filesOf(t: TestApp, url: string): string[] {
  const stem = url.slice('/uploads/'.length, -'.webp'.length);
  return [`${stem}.webp`, `${stem}.card.webp`, `${stem}.avatar.webp`].map((name) =>
    join(t.config.dataDir, 'uploads', name),
  );
}

function stored(t: TestApp, url: string): boolean {
  const present = filesOf(t, url).map((file) => existsSync(file));
  // Never half an image: all of its files or none.
  expect(new Set(present).size).toBe(1);
  return present[0];
}

function age(t: TestApp, url: string, hours: number): void {
  const when = new Date(Date.now() - hours * HOUR_MS);
  for (const file of filesOf(t, url)) utimesSync(file, when, when);
}

async function editPicture(t: TestApp, author: TestUser, postId: string, pic: string): Promise<void> {
  await t.http
    .put(`/api/editpost/${postId}`)
    .set('Authorization', author.auth)
    .send({ title: 'Edited', desc: 'Edited description', category: 'Informative', pic })
    .expect(200);
}

async function setPicture(t: TestApp, user: TestUser, pic: string): Promise<void> {
  await t.http.put('/api/updatepic').set('Authorization', user.auth).send({ pic }).expect(200);
}

describe('Uploads lifecycle', () => {
  let t: TestApp;
  let author: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    author = await createUser(t);
    other = await createUser(t);
  });
  afterAll(() => t.close());

  describe('DELETE /api/deletepost/:id', () => {
    it("frees the post's image with all its variants", async () => {
      const photo = await upload(t);
      const post = await createPost(t, author, { pic: photo });
      expect(stored(t, photo)).toBe(true);

      await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', author.auth).expect(200);

      expect(stored(t, photo)).toBe(false);
      await t.http.get(photo).expect(404);
    });

    it('keeps the image when the delete is refused', async () => {
      const photo = await upload(t);
      const post = await createPost(t, author, { pic: photo });

      await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', other.auth).expect(403);

      expect(stored(t, photo)).toBe(true);
    });

    it('keeps an image another post still shows, and frees it with the last post', async () => {
      const photo = await upload(t);
      const first = await createPost(t, author, { pic: photo });
      const second = await createPost(t, other, { pic: photo });

      await t.http.delete(`/api/deletepost/${first._id}`).set('Authorization', author.auth).expect(200);
      expect(stored(t, photo)).toBe(true);
      await t.http.get(photo).expect(200);

      await t.http.delete(`/api/deletepost/${second._id}`).set('Authorization', other.auth).expect(200);
      expect(stored(t, photo)).toBe(false);
    });

    it('keeps an image a profile still shows', async () => {
      const photo = await upload(t);
      const post = await createPost(t, author, { pic: photo });
      await setPicture(t, other, photo);

      await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', author.auth).expect(200);

      expect(stored(t, photo)).toBe(true);
      const profile = await t.http.get(`/api/user/${other.id}`).expect(200);
      expect(profile.body.user.pic).toBe(photo);
    });

    it('leaves a picture on another site alone and still deletes the post', async () => {
      const files = readdirSync(join(t.config.dataDir, 'uploads')).sort();
      const post = await createPost(t, author, { pic: 'https://images.example.com/cat.png' });

      await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', author.auth).expect(200);

      await t.http.get(`/api/posts/${post._id}`).expect(404);
      expect(readdirSync(join(t.config.dataDir, 'uploads')).sort()).toEqual(files);
    });
  });

  describe('PUT /api/editpost/:id', () => {
    it('frees the old picture when a new one replaces it', async () => {
      const before = await upload(t);
      const after = await upload(t);
      const post = await createPost(t, author, { pic: before });

      await editPicture(t, author, post._id, after);

      expect(stored(t, before)).toBe(false);
      expect(stored(t, after)).toBe(true);
      const reply = await t.http.get(`/api/posts/${post._id}`).expect(200);
      expect(reply.body.post.photo).toBe(after);
    });

    it('keeps the picture when the edit sends the same one', async () => {
      const photo = await upload(t);
      const post = await createPost(t, author, { pic: photo });

      await editPicture(t, author, post._id, photo);

      expect(stored(t, photo)).toBe(true);
    });

    it('keeps the old picture when another post still shows it', async () => {
      const shared = await upload(t);
      const replacement = await upload(t);
      const edited = await createPost(t, author, { pic: shared });
      await createPost(t, other, { pic: shared });

      await editPicture(t, author, edited._id, replacement);

      expect(stored(t, shared)).toBe(true);
    });
  });

  describe('PUT /api/updatepic', () => {
    it('frees the old profile picture when a new one replaces it', async () => {
      const user = await createUser(t);
      const first = await upload(t);
      const second = await upload(t);
      await setPicture(t, user, first);

      await setPicture(t, user, second);

      expect(stored(t, first)).toBe(false);
      expect(stored(t, second)).toBe(true);
    });

    it('frees the uploaded picture when the user goes back to the default, which stays served', async () => {
      const user = await createUser(t);
      const picture = await upload(t);
      await setPicture(t, user, picture);

      await setPicture(t, user, DEFAULT_PROFILE_PIC);
      await setPicture(t, user, 'https://images.example.com/me.png');

      expect(stored(t, picture)).toBe(false);
      await t.http.get(DEFAULT_PROFILE_PIC).expect(200);
    });

    it('keeps the old picture when a post still shows it', async () => {
      const user = await createUser(t);
      const picture = await upload(t);
      await setPicture(t, user, picture);
      await createPost(t, user, { pic: picture });

      await setPicture(t, user, DEFAULT_PROFILE_PIC);

      expect(stored(t, picture)).toBe(true);
    });

    it('keeps a picture signed up with until it is replaced', async () => {
      const picture = await upload(t);
      const user = await createUser(t, { pic: picture });
      expect(stored(t, picture)).toBe(true);

      await setPicture(t, user, DEFAULT_PROFILE_PIC);

      expect(stored(t, picture)).toBe(false);
    });
  });

  describe('the orphaned-upload sweep', () => {
    it('removes an unreferenced upload older than the age and keeps young and referenced ones', async () => {
      const oldOrphan = await upload(t);
      const youngOrphan = await upload(t);
      const oldPostPhoto = await upload(t);
      const oldAvatar = await upload(t);
      await createPost(t, author, { pic: oldPostPhoto });
      await setPicture(t, await createUser(t), oldAvatar);
      for (const url of [oldOrphan, oldPostPhoto, oldAvatar]) age(t, url, 25);
      age(t, youngOrphan, 23);
      // Files the server did not name are never its to remove.
      const foreign = join(t.config.dataDir, 'uploads', 'README.txt');
      writeFileSync(foreign, 'not an upload');
      utimesSync(foreign, new Date(0), new Date(0));

      const result = await t.app.get(OrphanSweepService).sweep();

      expect(result.removed).toEqual([oldOrphan]);
      expect(stored(t, oldOrphan)).toBe(false);
      for (const url of [youngOrphan, oldPostPhoto, oldAvatar]) expect(stored(t, url)).toBe(true);
      expect(existsSync(foreign)).toBe(true);
      await t.http.get(oldPostPhoto).expect(200);
    });

    it('dates an upload by its newest file, so a half-aged upload is kept', async () => {
      const url = await upload(t);
      age(t, url, 48);
      const now = new Date();
      utimesSync(filesOf(t, url)[2], now, now);

      const result = await t.app.get(OrphanSweepService).sweep();

      expect(result.removed).not.toContain(url);
      expect(stored(t, url)).toBe(true);
    });
  });
});

describe('the orphaned-upload sweep on its timer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ORPHAN_SWEEP_INTERVAL_MS: '100', ORPHAN_MAX_AGE_HOURS: '1' });
  });
  afterAll(() => t.close());

  it('runs by itself every ORPHAN_SWEEP_INTERVAL_MS and removes what is older than ORPHAN_MAX_AGE_HOURS', async () => {
    const orphan = await upload(t);
    const young = await upload(t);
    age(t, orphan, 2);

    const deadline = Date.now() + 15_000;
    while (stored(t, orphan) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));

    expect(stored(t, orphan)).toBe(false);
    expect(stored(t, young)).toBe(true);
  });
});
