import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TEST_DIALECT, type TestApp } from './support/test-app';
import { API_ROUTES } from './support/api-routes';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers ok and names the database in use', async () => {
    const response = await t.http.get('/api/health').expect(200);
    expect(response.body).toEqual({ status: 'ok', database: TEST_DIALECT });
  });
});

describe('API docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves Swagger UI at /api/docs', async () => {
    const response = await t.http.get('/api/docs').redirects(1).expect(200);
    expect(response.text).toContain('swagger');
  });

  it('documents every route with its auth and reply schema in /api/docs-json', async () => {
    const { body } = await t.http.get('/api/docs-json').expect(200);
    const routes = Object.entries(
      body.paths as Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>,
    ).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
    // The one list of routes (support/api-routes.ts), each also with a fuzz family.
    expect(routes.map((r) => r.route).sort()).toEqual([...API_ROUTES].sort());
    for (const { route, operation } of routes) {
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2'));
      expect({ route, success }).toEqual({ route, success: expect.any(String) });
    }
    const secured = routes.filter((r) => r.operation.security).map((r) => r.route);
    expect(secured).toEqual(
      expect.arrayContaining(['POST /api/createpost', 'PUT /api/like', 'DELETE /api/deletepost/{id}']),
    );
    // Routes a visitor may call but that read a token when sent (to mark the viewer's likes, or
    // leave out the posts of the reader's muted tags): documented with the bearer scheme and
    // without a 401, since a missing or stale token is no error.
    const optionalToken = [
      'GET /api/posts',
      'GET /api/posts/{id}',
      'GET /api/userposts/{userId}',
      'GET /api/top-posts',
      'GET /api/tags',
      'GET /api/tags/{name}',
      // A removed comment or notice is whole for its author and the moderators (decision 047);
      // comments say muted: true for the reader's muted authors, allnotices leaves them out (048).
      'GET /api/posts/{id}/comments',
      'GET /api/allnotices',
      'GET /api/usernotices/{userId}',
      'GET /api/moderation-log',
      // The reader's own block and mute of the profile's user (viewer).
      'GET /api/user/{id}',
    ];
    const authDocsOf = (route: string) => {
      const found = routes.find((r) => r.route === route);
      return {
        route,
        security: Boolean(found?.operation.security),
        answers401: Boolean(found?.operation.responses['401']),
      };
    };
    expect(optionalToken.map(authDocsOf)).toEqual(
      optionalToken.map((route) => ({ route, security: true, answers401: false })),
    );
    const loggedIn = [
      'GET /api/notifications',
      'GET /api/notifications/stream',
      'PUT /api/notification-settings',
      'POST /api/createpost',
      'PUT /api/like',
      'PUT /api/tags/{name}/follow',
      'PUT /api/tags/{name}/mute',
      'PUT /api/bookmark',
      'PUT /api/unbookmark',
      'GET /api/bookmarks',
      'POST /api/reports',
      'GET /api/reports',
      'PUT /api/reports/{targetKind}/{targetId}/resolve',
      'PUT /api/admin/users/{id}/role',
      'PUT /api/admin/users/{id}/suspend',
      'PUT /api/admin/users/{id}/unsuspend',
      'GET /api/admin/users',
      'POST /api/admin/users/{id}/password-reset-link',
      'PUT /api/block',
      'PUT /api/unblock',
      'PUT /api/mute',
      'PUT /api/unmute',
      'GET /api/blocks',
      'GET /api/mutes',
    ];
    expect(loggedIn.map(authDocsOf)).toEqual(loggedIn.map((route) => ({ route, security: true, answers401: true })));
    // Fully public reads take no token at all.
    for (const route of ['GET /api/users/suggest', 'POST /api/password-reset', 'POST /api/password-reset/confirm']) {
      expect(secured).not.toContain(route);
    }
  });
});

describe('serving the web app', () => {
  it('answers a plain page saying the web app is not built when there is no build', async () => {
    const t = await startTestApp();
    try {
      const response = await t.http.get('/search').expect(200);
      expect(response.text).toContain('not built');
    } finally {
      await t.close();
    }
  });

  describe('with a build', () => {
    let t: TestApp;
    let dist: string;
    beforeAll(async () => {
      dist = mkdtempSync(join(tmpdir(), 'techit-dist-'));
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><title>TechIt app</title>');
      writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
      t = await startTestApp({ WEB_DIST_DIR: dist });
    });
    afterAll(async () => {
      await t.close();
      rmSync(dist, { recursive: true, force: true });
    });

    it('serves index.html at / without caching', async () => {
      const response = await t.http.get('/').expect(200);
      // With the site's own title in place of the build's (server-rendered: pages.e2e-spec).
      expect(response.text).toContain('<title>TechIt</title>');
      expect(response.headers['cache-control']).toBe('no-cache');
    });

    it('falls back to index.html for client-side routes', async () => {
      // (Pages that name a post, a user or a tag are server-rendered: pages.e2e-spec.)
      const response = await t.http.get('/search?q=x').expect(200);
      expect(response.text).toContain('TechIt app');
      expect(response.headers['content-type']).toContain('text/html');
    });

    it('serves hashed assets with immutable caching', async () => {
      const response = await t.http.get('/assets/index-abc123.js').expect(200);
      expect(response.headers['cache-control']).toContain('immutable');
    });

    it('answers an unknown API route with 404 and an error, not the web app', async () => {
      const response = await t.http.get('/api/nothing-here').expect(404);
      expect(response.body).toEqual({ error: expect.any(String) });
    });

    it('answers 404 for a file the build does not hold, never the app page', async () => {
      for (const path of ['/favicon.ico', '/none.xml', '/anything.php', '/wp-admin/setup-config.php', '/x.js?v=1']) {
        const response = await t.http.get(path).expect(404);
        expect(response.text).not.toContain('TechIt app');
      }
    });

    it('still answers unknown app paths with the page, whose not-found screen tells the reader', async () => {
      for (const path of ['/some/unknown/path', '/search?q=x.y']) {
        const response = await t.http.get(path).expect(200);
        expect(response.text).toContain('TechIt app');
      }
      // A server-rendered page (pages.e2e-spec) says it is not found in the page and in the status.
      const missing = await t.http.get('/profile/not-a-user').expect(404);
      expect(missing.headers['content-type']).toContain('text/html');
      expect(missing.text).toContain('This User doesn&#39;t exist!');
      await t.http
        .get('/notices?tab=x.y')
        .expect(200)
        .expect('content-type', /text\/html/);
    });

    it('answers an unknown upload with 404, not the web app', async () => {
      const response = await t.http.get('/uploads/6743a1f2c0ffee0123456789.webp').expect(404);
      expect(response.text).not.toContain('TechIt app');
    });
  });
});

describe('unknown routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers an unknown API method with 404 and an error', async () => {
    const response = await t.http.post('/api/nothing-here').send({}).expect(404);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('serves the default profile picture', async () => {
    const response = await t.http.get('/uploads/default-avatar.svg').expect(200);
    expect(response.headers['content-type']).toContain('image/svg+xml');
  });
});
