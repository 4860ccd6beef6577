import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHROMIUM_FLAGS, chromiumPath } from '@techit/testkit/chromium-launcher';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { ApiHelper, type Session } from './api-helper';
import { type AppServer, startAppServer } from './app-server';

export const SCREENSHOT_DIR = resolve(__dirname, '../screenshots');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/**
 * The browser reports every 4xx/5xx reply as a console error ("Failed to load resource"); the
 * journeys provoke 404s and 401s on purpose, and the app's own handling of them is asserted on
 * screen. Everything else on the console's error channel fails the test.
 */
const EXPECTED_HTTP_ERROR = /^Failed to load resource: the server responded with a status of 4\d\d/;

/** Further console errors a story provokes on purpose on one page (support/failing-requests.ts). */
const expectedOnPage = new WeakMap<Page, RegExp[]>();

/** The browser's console error for a failure the story itself caused on `page` is not a fault. */
export function expectConsoleError(page: Page, pattern: RegExp): void {
  expectedOnPage.set(page, [...(expectedOnPage.get(page) ?? []), pattern]);
}

function isExpected(page: Page, text: string): boolean {
  return EXPECTED_HTTP_ERROR.test(text) || (expectedOnPage.get(page) ?? []).some((pattern) => pattern.test(text));
}

export interface Story {
  readonly server: AppServer;
  readonly api: ApiHelper;
  /** A fresh browser context (own storage), optionally logged in as `session`. */
  open(path: string, options?: { session?: Session; viewport?: { width: number; height: number } }): Promise<Page>;
  /** Saves a screenshot for people to look at (CI keeps the files; they are not assertions). */
  screenshot(page: Page, name: string): Promise<void>;
}

/** Every open page of a failed story, as it was when the test gave up (named after the test). */
async function saveFailureScreenshots(contexts: BrowserContext[]): Promise<void> {
  const dir = join(SCREENSHOT_DIR, 'failures');
  mkdirSync(dir, { recursive: true });
  const testName = (expect.getState().currentTestName ?? 'unnamed').replace(/[^\w-]+/g, '-').slice(0, 120);
  const pages = contexts.flatMap((context) => context.pages());
  await Promise.all(
    pages.map((page, index) =>
      // A page that crashed cannot be captured; the test's own error already says why it failed.
      page
        .screenshot({ path: join(dir, `${testName}-${index + 1}.png`), fullPage: true })
        .then(() => console.error(`Saved ${dir}/${testName}-${index + 1}.png (${page.url()})`))
        .catch(() => undefined),
    ),
  );
}

/**
 * Registers the hooks of one story file: a server on a fresh database, a browser, and a console watch.
 * `settings` are extra environment for the server; a function is read when the server starts, after
 * the file's earlier beforeAll hooks (a service the server talks to, started first, on a port of its own).
 */
export function useStory(settings: Record<string, string> | (() => Record<string, string>) = {}): Story {
  let server: AppServer;
  let browser: Browser;
  let api: ApiHelper;
  let contexts: BrowserContext[] = [];
  let consoleErrors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAppServer(typeof settings === 'function' ? settings() : settings),
      chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true }),
    ]);
    api = new ApiHelper(server.url);
  });

  afterEach(async () => {
    if ((globalThis as { __storyFailed?: boolean }).__storyFailed) await saveFailureScreenshots(contexts);
    await Promise.all(contexts.map((context) => context.close()));
    contexts = [];
    const errors = consoleErrors;
    consoleErrors = [];
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  return {
    get server() {
      return server;
    },
    get api() {
      return api;
    },
    async open(path, options = {}) {
      const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP, baseURL: server.url });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' && !isExpected(page, message.text())) {
          consoleErrors.push(`${page.url()}: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: uncaught ${error.message}`));
      if (options.session) {
        // Storage belongs to the origin: load a light page of it first, then sign in there.
        await page.goto('/api/health');
        await page.evaluate((session) => {
          localStorage.setItem('jwt', session.token);
          localStorage.setItem('techit-user', JSON.stringify(session.user));
        }, options.session);
      }
      await page.goto(path);
      // The server's first HTML holds a static shell (and, on post, profile, tag and notices pages,
      // the page's content rendered by the server: decision 044) until the app takes it over. The
      // stories are about the app: they start once it has. (Stories about the first HTML open
      // /api/health and navigate themselves, or use a context without JavaScript.)
      await page.locator('.boot-shell').waitFor({ state: 'detached' });
      return page;
    },
    async screenshot(page, name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
    },
  };
}
