import { imageVariant } from '@techit/contract/image-variants';
import type { UploadApiOptions, UploadApiResponse } from 'cloudinary';
import sharp from 'sharp';
import { CloudinaryImageStorage, type CloudinaryUploader } from './cloudinary-image-storage';
import type { EncodedImage, ProcessedImage } from './processed-image';

const CLOUDINARY_URL = 'cloudinary://123456789012345:abcdefghijklmnopqrstuvwxyz0@demo-cloud';

interface Call {
  options: UploadApiOptions;
  body: Buffer | null;
}

/** Stands in for cloudinary.uploader: records what it was sent and answers as told. */
function fakeUploader(
  answer: (body: Buffer) => [unknown, UploadApiResponse?],
  destroyed: (publicId: string) => Promise<unknown> = () => Promise.resolve({ result: 'ok' }),
): {
  uploader: CloudinaryUploader;
  calls: Call[];
  destroys: { publicId: string; options: object }[];
} {
  const calls: Call[] = [];
  const destroys: { publicId: string; options: object }[] = [];
  const uploader: CloudinaryUploader = {
    destroy(publicId, options) {
      destroys.push({ publicId, options });
      return destroyed(publicId);
    },
    upload_stream(options, callback) {
      const call: Call = { options, body: null };
      calls.push(call);
      return {
        end(chunk: Buffer) {
          call.body = chunk;
          const [error, result] = answer(chunk);
          setImmediate(() => callback(error, result));
        },
      };
    },
  };
  return { uploader, calls, destroys };
}

function reply(secureUrl: string): UploadApiResponse {
  return {
    secure_url: secureUrl,
    url: secureUrl.replace('https:', 'http:'),
    public_id: 'techit/abc',
  } as UploadApiResponse;
}

function encoded(width: number, height: number): Promise<EncodedImage> {
  return sharp({ create: { width, height, channels: 3, background: '#123456' } })
    .webp()
    .toBuffer()
    .then((data) => ({ data, width, height }));
}

describe('CloudinaryImageStorage', () => {
  let image: ProcessedImage;
  let webp: Buffer;
  beforeAll(async () => {
    image = { full: await encoded(20, 10), card: await encoded(20, 10), avatar: await encoded(10, 10) };
    webp = image.full.data;
  });

  it('sends the WebP bytes as an image into the techit folder and returns the secure URL', async () => {
    const { uploader, calls } = fakeUploader(() => [
      undefined,
      reply('https://res.cloudinary.com/demo-cloud/image/upload/v1/techit/abc.webp'),
    ]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);

    await expect(storage.save(image)).resolves.toBe(
      'https://res.cloudinary.com/demo-cloud/image/upload/v1/techit/abc.webp',
    );
    expect(calls).toHaveLength(1);
    expect(calls[0].options).toEqual(
      expect.objectContaining({ folder: 'techit', resource_type: 'image', format: 'webp', overwrite: false }),
    );
    expect(Buffer.compare(calls[0].body!, webp)).toBe(0);
  });

  it('names the image by a fresh id and its pixel size, as the disk driver does', async () => {
    const { uploader, calls } = fakeUploader(() => [undefined, reply('https://example.invalid/x.webp')]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    await storage.save(image);
    await storage.save(image);
    const ids = calls.map((call) => call.options.public_id);
    expect(ids).toEqual([expect.stringMatching(/^[0-9a-f]{24}-20x10$/), expect.stringMatching(/^[0-9a-f]{24}-20x10$/)]);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('asks Cloudinary up front for exactly the card and avatar URLs the web app will request', async () => {
    const full = await encoded(1600, 1200);
    const { uploader, calls } = fakeUploader((): [unknown, UploadApiResponse] => [
      undefined,
      reply(`https://res.cloudinary.com/demo-cloud/image/upload/v1712345678/techit/${calls[0].options.public_id}.webp`),
    ]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    const url = await storage.save({ full, card: full, avatar: full });
    const eager = (calls[0].options.eager as string).split('|');
    for (const variant of ['card', 'avatar'] as const) {
      const requested = imageVariant(url, variant);
      const transformation = requested.src.split('/image/upload/')[1].split('/')[0];
      expect(eager).toContain(transformation);
    }
    expect(imageVariant(url, 'card')).toMatchObject({ width: 600, height: 450 });
    expect(imageVariant(url, 'avatar')).toMatchObject({ width: 224, height: 224 });
  });

  it('makes one upload per image', async () => {
    let n = 0;
    const { uploader, calls } = fakeUploader(() => [
      undefined,
      reply(`https://res.cloudinary.com/demo-cloud/image/upload/${(n += 1)}.webp`),
    ]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    const urls = [await storage.save(image), await storage.save(image)];
    expect(urls).toEqual([
      'https://res.cloudinary.com/demo-cloud/image/upload/1.webp',
      'https://res.cloudinary.com/demo-cloud/image/upload/2.webp',
    ]);
    expect(calls).toHaveLength(2);
  });

  it('rejects with a readable Error when the uploader fails with an Error', async () => {
    const { uploader } = fakeUploader(() => [new Error('getaddrinfo ENOTFOUND api.cloudinary.com')]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    const failure = storage.save(image);
    await expect(failure).rejects.toBeInstanceOf(Error);
    await expect(failure).rejects.toThrow('Cloudinary upload failed: getaddrinfo ENOTFOUND api.cloudinary.com');
  });

  it("rejects with a readable Error when the uploader fails with Cloudinary's plain error object", async () => {
    const { uploader } = fakeUploader(() => [{ message: 'Invalid api_key 123456789012345', http_code: 401 }]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    const failure = storage.save(image);
    await expect(failure).rejects.toBeInstanceOf(Error);
    await expect(failure).rejects.toThrow('Cloudinary upload failed: Invalid api_key 123456789012345');
  });

  it('rejects with a readable Error when the reply has no secure URL', async () => {
    const { uploader } = fakeUploader(() => [undefined, { public_id: 'techit/abc' } as UploadApiResponse]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    await expect(storage.save(image)).rejects.toThrow('Cloudinary upload failed: no URL in the reply');
  });

  describe('remove', () => {
    const own =
      'https://res.cloudinary.com/demo-cloud/image/upload/v1712345678/techit/6743a1f2c0ffee0123456789-20x10.webp';

    it('owns only the uploads it made: this cloud, the techit folder, a sized name', () => {
      const storage = new CloudinaryImageStorage(CLOUDINARY_URL, fakeUploader(() => [undefined]).uploader);
      expect(storage.owns(own)).toBe(true);
      expect(storage.owns(own.replace('/v1712345678', ''))).toBe(true);
      for (const url of [
        own.replace('demo-cloud', 'other-cloud'),
        own.replace('/techit/', '/elsewhere/'),
        own.replace('/upload/', '/upload/c_limit,w_600/'),
        'http://res.cloudinary.com/legacy/image/upload/v1620000000/abc123.jpg',
        '/uploads/default-avatar.svg',
        '/uploads/6743a1f2c0ffee0123456789-20x10.webp',
        '',
      ]) {
        expect(storage.owns(url)).toBe(false);
      }
    });

    it('destroys the image by its public id and invalidates cached copies', async () => {
      const { uploader, destroys } = fakeUploader(() => [undefined]);
      await new CloudinaryImageStorage(CLOUDINARY_URL, uploader).remove(own);
      expect(destroys).toEqual([
        { publicId: 'techit/6743a1f2c0ffee0123456789-20x10', options: { resource_type: 'image', invalidate: true } },
      ]);
    });

    it('leaves a URL it does not own alone', async () => {
      const { uploader, destroys } = fakeUploader(() => [undefined]);
      await new CloudinaryImageStorage(CLOUDINARY_URL, uploader).remove('https://example.com/cat.webp');
      expect(destroys).toEqual([]);
    });

    it('takes "not found" as already removed', async () => {
      const { uploader } = fakeUploader(
        () => [undefined],
        () => Promise.resolve({ result: 'not found' }),
      );
      await expect(new CloudinaryImageStorage(CLOUDINARY_URL, uploader).remove(own)).resolves.toBeUndefined();
    });

    it('rejects with a readable Error when Cloudinary refuses', async () => {
      const { uploader } = fakeUploader(
        () => [undefined],
        // The SDK rejects with a plain object, not an Error: the driver must cope with that.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        () => Promise.reject({ message: 'Invalid api_key 123456789012345', http_code: 401 }),
      );
      await expect(new CloudinaryImageStorage(CLOUDINARY_URL, uploader).remove(own)).rejects.toThrow(
        'Cloudinary delete failed: Invalid api_key 123456789012345',
      );
    });
  });

  it('refuses a malformed CLOUDINARY_URL when constructed', () => {
    expect(() => new CloudinaryImageStorage('not a url', fakeUploader(() => [undefined]).uploader)).toThrow();
  });
});
