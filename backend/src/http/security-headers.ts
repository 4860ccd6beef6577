import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';

/** Where Cloudinary serves stored images from (CLOUDINARY_URL set). */
export const CLOUDINARY_IMAGE_ORIGIN = 'https://res.cloudinary.com';

type Directives = Record<string, string[]>;

/**
 * The web app, the API and its docs (Swagger UI loads only script files). No inline script and no
 * eval: a script runs only if it is a file of this origin. Styles may be inline because Ant Design
 * writes its theme's CSS variables into a <style> at run time, and its dialogs lock scrolling with
 * another (docs/decisions/012).
 */
export function appDirectives(config: Pick<AppConfig, 'cloudinaryUrl'> & Partial<Pick<AppConfig, 's3'>>): Directives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    // blob: previews the picture a user has chosen, before it is uploaded.
    'img-src': [
      "'self'",
      'data:',
      'blob:',
      ...(config.cloudinaryUrl ? [CLOUDINARY_IMAGE_ORIGIN] : []),
      // Images in S3 are fetched from S3_PUBLIC_URL's origin (the bucket or a CDN).
      ...(config.s3 ? [new URL(config.s3.publicUrl).origin] : []),
    ],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Uploaded files are only ever images. Should a file there ever be opened as a page (an SVG
 * typed into the address bar), it runs in a sandbox with nothing allowed.
 */
export const UPLOAD_DIRECTIVES: Directives = {
  'default-src': ["'none'"],
  'img-src': ["'self'"],
  'style-src': ["'unsafe-inline'"],
  'frame-ancestors': ["'none'"],
  sandbox: [],
};

/**
 * The files /uploads/ serves: images this server re-encoded to WebP (every size of them) and the
 * default avatar. Anything else that might land in those folders is a 404, whatever its name.
 */
export function isServedUpload(pathName: string): boolean {
  return /^\/[0-9a-f]{24}[0-9a-z.-]*\.webp$/.test(pathName) || pathName === '/default-avatar.svg';
}

function helmetOptions(directives: Directives): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives },
    // Sent only over TLS (see registerSecurityHeaders); computed here so helmet keeps its value.
    strictTransportSecurity: { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
  };
}

type HeaderSet = Record<string, string>;

/**
 * The headers @fastify/helmet sets for these options. They depend only on the options, yet the
 * plugin rebuilds helmet's middleware on every request (about 7 µs on an idle core, against some
 * 55 µs for a whole cached read); so each set is computed once, through the plugin itself, on a
 * throwaway instance, and replayed per request.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<HeaderSet> {
  const probe = Fastify({ logger: false });
  let headers: HeaderSet = {};
  try {
    await probe.register(fastifyHelmet, options);
    probe.get('/', (_request, reply) => {
      headers = Object.fromEntries(
        Object.entries(reply.raw.getHeaders()).map(([name, value]) => [name, String(value)]),
      );
      return '';
    });
    await probe.inject({ method: 'GET', url: '/' });
  } finally {
    await probe.close();
  }
  if (!headers['content-security-policy']) throw new Error('@fastify/helmet set no Content-Security-Policy');
  return headers;
}

/**
 * Security headers on every reply (API, web app, uploads, errors, replies from the read cache):
 * helmet's set with the policies above. HSTS goes out only when the request came over TLS (a TLS
 * server, or X-Forwarded-Proto: https from a proxy trusted by TRUST_PROXY): over plain HTTP it
 * would be meaningless, and a browser reaching a development server by name must not pin it.
 * Register it before any hook that may answer early.
 */
export async function registerSecurityHeaders(
  fastify: FastifyInstance,
  config: Pick<AppConfig, 'cloudinaryUrl'> & Partial<Pick<AppConfig, 's3'>>,
): Promise<void> {
  const [app, uploads] = await Promise.all([
    helmetHeaders(helmetOptions(appDirectives(config))),
    helmetHeaders(helmetOptions(UPLOAD_DIRECTIVES)),
  ]);
  const hsts = app['strict-transport-security'];
  const withoutHsts = (set: HeaderSet): HeaderSet =>
    Object.fromEntries(Object.entries(set).filter(([name]) => name !== 'strict-transport-security'));
  const plain = { app: withoutHsts(app), uploads: withoutHsts(uploads) };

  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    void reply.headers(request.url.startsWith('/uploads/') ? plain.uploads : plain.app);
    if (request.protocol === 'https') void reply.header('strict-transport-security', hsts);
    done();
  });
}
