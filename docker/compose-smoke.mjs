// The smoke journey of docker/prove-compose.sh against a running compose stack:
//   node docker/compose-smoke.mjs <proxy url> <replica url>...
// Through the proxy: sign up, sign in, upload a picture, create a post with it, read both back.
// Then on every replica directly: the same picture (one shared uploads volume), the same post (one
// database) and the token accepted (one JWT secret). Last, the sign-in limit (10 a minute) trips
// at the 11th attempt although the attempts are spread over the replicas: their counters are shared
// (REDIS_URL). Exits non-zero on the first failure.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

const [proxy, ...replicas] = process.argv.slice(2);
if (!proxy || replicas.length === 0) {
  console.error('usage: node docker/compose-smoke.mjs <proxy url> <replica url>...');
  process.exit(2);
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function call(base, method, path, { token, json, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (json !== undefined) headers['content-type'] = 'application/json';
  const reply = await fetch(base + path, {
    method,
    headers,
    body: json !== undefined ? JSON.stringify(json) : body,
    signal: AbortSignal.timeout(30_000),
  });
  const type = reply.headers.get('content-type') ?? '';
  const data = type.includes('json') ? await reply.json() : Buffer.from(await reply.arrayBuffer());
  return { status: reply.status, type, data, headers: reply.headers };
}

async function step(name, run) {
  const started = performance.now();
  const detail = await run();
  console.log(`ok  ${name} (${Math.round(performance.now() - started)} ms)${detail ? `: ${detail}` : ''}`);
}

/** A small RGB PNG (a gradient), so the upload goes through the real decode and re-encode. */
function gradientPng(width, height) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (kind, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const kindAndData = Buffer.concat([Buffer.from(kind, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(kindAndData));
    return Buffer.concat([length, kindAndData, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set([(x * 255) / width, (y * 255) / height, 128], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
const userName = `smoke_${Date.now().toString(36)}`;
const password = 'compose smoke password';
let token = '';
let picture = '';
let pictureHash = '';
let postId = '';

await step('health through the proxy', async () => {
  const reply = await call(proxy, 'GET', '/api/health');
  check(reply.status === 200 && reply.data.status === 'ok', `health answered ${reply.status}`);
  check(reply.data.database === 'postgres', `the app runs on ${reply.data.database}, not PostgreSQL`);
  return JSON.stringify(reply.data);
});

await step('sign up', async () => {
  const reply = await call(proxy, 'POST', '/api/signup', {
    json: { userName, email: `${userName}@example.com`, password },
  });
  check(reply.status === 201 || reply.status === 200, `sign-up answered ${reply.status} ${JSON.stringify(reply.data)}`);
  return userName;
});

await step('sign in', async () => {
  const reply = await call(proxy, 'POST', '/api/signin', { json: { userName, password } });
  check(reply.status === 200 || reply.status === 201, `sign-in answered ${reply.status}`);
  check(typeof reply.data.token === 'string', 'sign-in sent no token');
  token = reply.data.token;
});

await step('upload a picture', async () => {
  const form = new FormData();
  form.append('file', new Blob([gradientPng(320, 200)], { type: 'image/png' }), 'gradient.png');
  const reply = await call(proxy, 'POST', '/api/upload', { token, body: form });
  check(reply.status === 201 || reply.status === 200, `upload answered ${reply.status} ${JSON.stringify(reply.data)}`);
  picture = reply.data.url;
  check(/^\/uploads\/[\w.-]+\.webp$/.test(picture), `unexpected upload url ${picture}`);
  return picture;
});

await step('create a post with the picture', async () => {
  const reply = await call(proxy, 'POST', '/api/createpost', {
    token,
    json: { title: 'Hello from compose', desc: 'Written through the proxy', pic: picture },
  });
  check(
    reply.status === 201 || reply.status === 200,
    `createpost answered ${reply.status} ${JSON.stringify(reply.data)}`,
  );
  postId = reply.data.post._id;
  return postId;
});

await step('read the post back through the proxy', async () => {
  const reply = await call(proxy, 'GET', `/api/posts/${postId}`);
  check(reply.status === 200, `GET /api/posts/${postId} answered ${reply.status}`);
  check(reply.data.post.title === 'Hello from compose', 'the post came back with another title');
  check(reply.data.post.photo === picture, `the post's photo is ${reply.data.post.photo}`);
});

await step('fetch the picture through the proxy', async () => {
  const reply = await call(proxy, 'GET', picture);
  check(reply.status === 200 && reply.type === 'image/webp', `picture answered ${reply.status} ${reply.type}`);
  pictureHash = sha256(reply.data);
  return `${reply.data.length} bytes, sha256 ${pictureHash}`;
});

let likes = 0;
for (const [index, replica] of replicas.entries()) {
  await step(`replica ${index + 1} (${replica}): same picture, same post, token accepted`, async () => {
    const image = await call(replica, 'GET', picture);
    check(image.status === 200 && sha256(image.data) === pictureHash, `picture on this replica: ${image.status}`);
    const post = await call(replica, 'GET', `/api/posts/${postId}`);
    check(post.status === 200 && post.data.post._id === postId, `post on this replica: ${post.status}`);
    // Alternate like and unlike: each must be accepted (200, not 401) and move the shared counter.
    const action = index % 2 === 0 ? 'like' : 'unlike';
    const liked = await call(replica, 'PUT', `/api/${action}`, { token, json: { postId } });
    check(liked.status === 200, `PUT /api/${action} with a token from another replica answered ${liked.status}`);
    likes = action === 'like' ? 1 : 0;
    check(liked.data.likesCount === likes, `likesCount ${liked.data.likesCount} after ${action}, expected ${likes}`);
    return `${action} -> likesCount ${liked.data.likesCount}`;
  });
}

await step('PUT through the proxy (its write hop)', async () => {
  const liked = await call(proxy, 'PUT', '/api/like', { token, json: { postId } });
  check(liked.status === 200 && liked.data.likesCount === 1, `PUT /api/like answered ${liked.status}`);
  const unliked = await call(proxy, 'PUT', '/api/unlike', { token, json: { postId } });
  check(unliked.status === 200 && unliked.data.likesCount === 0, `PUT /api/unlike answered ${unliked.status}`);
  likes = 0;
  return 'like -> 1, unlike -> 0';
});

// Read by the writer, with their token: each replica keeps reads in memory (READ_CACHE_TTL_MS), so
// a visitor may see another replica's write late by up to that long, but a member's own writes
// show at once on every replica (docs/decisions/054-signed-in-cache-across-instances.md).
await step('spread 12 reads over the replicas through the proxy', async () => {
  for (let i = 0; i < 12; i++) {
    const reply = await call(proxy, 'GET', `/api/posts/${postId}`, { token });
    check(reply.status === 200 && reply.data.post.likesCount === likes, `read ${i + 1}: ${reply.status}`);
  }
});

await step('sign-in limit counted across the replicas', async () => {
  // This client signed in once above; the limit is 10 a minute per address and per account name.
  const name = `${userName}_x`;
  for (let attempt = 1; attempt <= 11; attempt++) {
    const reply = await call(proxy, 'POST', '/api/signin', { json: { userName: name, password: 'wrong password' } });
    if (reply.status === 429) {
      check(Number(reply.headers.get('retry-after')) > 0, '429 without Retry-After');
      check(typeof reply.data.error === 'string', '429 without { error }');
      return `attempt ${attempt} -> 429, Retry-After ${reply.headers.get('retry-after')} s: ${reply.data.error}`;
    }
    check(reply.status === 401 || reply.status === 400, `wrong sign-in ${attempt} answered ${reply.status}`);
  }
  throw new Error('11 sign-ins through the proxy never got 429: do the replicas count apart (REDIS_URL)?');
});

console.log('smoke journey passed');
