import { type AppServer, startAppServer } from '../support/app-server';

/*
 * What browsers and crawlers ask every site for, answered by the built app: a real icon at
 * /favicon.ico (browsers ask for it whatever the page names), robots.txt as text (the server's
 * feeds feature writes it, naming the sitemap), and a 404 (not the app's page) for any other file
 * that is not there.
 */
describe('The files every visitor’s browser and every crawler ask for', () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer();
  });
  afterAll(() => server.close());

  it('serves an icon at /favicon.ico', async () => {
    const response = await fetch(`${server.url}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
    const bytes = Buffer.from(await response.arrayBuffer());
    // An ICO header: reserved 0, type 1 (icon), at least one image.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1]);
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  });

  it('serves robots.txt as text', async () => {
    const response = await fetch(`${server.url}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toContain('User-agent: *');
    expect(text).toContain(`Sitemap: ${server.url}/sitemap.xml`);
  });

  it('answers 404 for a file that is not there, and the page for an app path', async () => {
    expect((await fetch(`${server.url}/none.xml`)).status).toBe(404);
    expect((await fetch(`${server.url}/anything.php`)).status).toBe(404);
    const page = await fetch(`${server.url}/some/unknown/path`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});
