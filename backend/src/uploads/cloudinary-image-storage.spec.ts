import type { UploadApiOptions, UploadApiResponse } from 'cloudinary';
import sharp from 'sharp';
import { CloudinaryImageStorage, type CloudinaryUploader } from './cloudinary-image-storage';

const CLOUDINARY_URL = 'cloudinary://123456789012345:abcdefghijklmnopqrstuvwxyz0@demo-cloud';

interface Call {
  options: UploadApiOptions;
  body: Buffer | null;
}

/** Stands in for cloudinary.uploader: records what it was sent and answers as told. */
function fakeUploader(answer: (body: Buffer) => [unknown, UploadApiResponse?]): {
  uploader: CloudinaryUploader;
  calls: Call[];
} {
  const calls: Call[] = [];
  const uploader: CloudinaryUploader = {
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
  return { uploader, calls };
}

function reply(secureUrl: string): UploadApiResponse {
  return {
    secure_url: secureUrl,
    url: secureUrl.replace('https:', 'http:'),
    public_id: 'techit/abc',
  } as UploadApiResponse;
}

describe('CloudinaryImageStorage', () => {
  let webp: Buffer;
  beforeAll(async () => {
    webp = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#123456' } })
      .webp()
      .toBuffer();
  });

  it('sends the WebP bytes as an image into the techit folder and returns the secure URL', async () => {
    const { uploader, calls } = fakeUploader(() => [
      undefined,
      reply('https://res.cloudinary.com/demo-cloud/image/upload/v1/techit/abc.webp'),
    ]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);

    await expect(storage.save(webp)).resolves.toBe(
      'https://res.cloudinary.com/demo-cloud/image/upload/v1/techit/abc.webp',
    );
    expect(calls).toHaveLength(1);
    expect(calls[0].options).toEqual(
      expect.objectContaining({ folder: 'techit', resource_type: 'image', format: 'webp' }),
    );
    expect(Buffer.compare(calls[0].body!, webp)).toBe(0);
  });

  it('makes one upload per image', async () => {
    let n = 0;
    const { uploader, calls } = fakeUploader(() => [
      undefined,
      reply(`https://res.cloudinary.com/demo-cloud/image/upload/${(n += 1)}.webp`),
    ]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    const urls = [await storage.save(webp), await storage.save(webp)];
    expect(urls).toEqual([
      'https://res.cloudinary.com/demo-cloud/image/upload/1.webp',
      'https://res.cloudinary.com/demo-cloud/image/upload/2.webp',
    ]);
    expect(calls).toHaveLength(2);
  });

  it('rejects with a readable Error when the uploader fails with an Error', async () => {
    const { uploader } = fakeUploader(() => [new Error('getaddrinfo ENOTFOUND api.cloudinary.com')]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    const failure = storage.save(webp);
    await expect(failure).rejects.toBeInstanceOf(Error);
    await expect(failure).rejects.toThrow('Cloudinary upload failed: getaddrinfo ENOTFOUND api.cloudinary.com');
  });

  it("rejects with a readable Error when the uploader fails with Cloudinary's plain error object", async () => {
    const { uploader } = fakeUploader(() => [{ message: 'Invalid api_key 123456789012345', http_code: 401 }]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    const failure = storage.save(webp);
    await expect(failure).rejects.toBeInstanceOf(Error);
    await expect(failure).rejects.toThrow('Cloudinary upload failed: Invalid api_key 123456789012345');
  });

  it('rejects with a readable Error when the reply has no secure URL', async () => {
    const { uploader } = fakeUploader(() => [undefined, { public_id: 'techit/abc' } as UploadApiResponse]);
    const storage = new CloudinaryImageStorage(CLOUDINARY_URL, uploader);
    await expect(storage.save(webp)).rejects.toThrow('Cloudinary upload failed: no URL in the reply');
  });

  it('refuses a malformed CLOUDINARY_URL when constructed', () => {
    expect(() => new CloudinaryImageStorage('not a url', fakeUploader(() => [undefined]).uploader)).toThrow();
  });
});
