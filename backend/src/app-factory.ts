import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { AppLogger } from './logging/app-logger';
import { createAppLogger } from './logging/pino-logger';
import { requestChildLogger } from './logging/request-line';
import { registerConditionalGet } from './http/conditional-get';
import { ReadCache, registerReadCache } from './http/read-cache';
import { registerSignedInReadCache } from './http/signed-in-read-cache';
import { ReaderStateService } from './reader-state/reader-state.service';
import { FRAMEWORK_ERROR_OPTIONS } from './http/framework-errors';
import { HttpExceptionFilter } from './http/http-exception.filter';
import { registerArticleBodyLimit, registerJsonBodyParser } from './http/json-body-parser';
import { RequestLogController, registerRequestId, requestIdOf } from './logging/request-logging';
import { isServedUpload, registerSecurityHeaders } from './http/security-headers';
import { serverTimeoutOptions } from './http/server-timeouts';
import { createValidationPipe } from './common/validation';
import type { AppConfig } from './config/app-config';
import { resolveJwtSecret } from './config/jwt-secret';
import { createDatabase, type QueryObserver } from './database/create-database';
import { migrateToLatest } from './database/migrations';
import { registerReadRouting } from './database/read-routing.hook';
import { registerApiRateLimit } from './rate-limit/api-rate-limit.hook';
import { uploadsDirectory } from './uploads/uploads.module';
import { NotificationStreams } from './notifications/notification-streams';
import { PagesService } from './pages/pages.service';
import { registerWebApp } from './web/web-app';
import { FEED_ROOT_ROUTES } from './feeds/feed-routes';

/**
 * JSON bodies are small; 100 KB is far above the largest valid one without an article (a
 * 1,000-character notice). The routes that take an article get ARTICLE_BODY_LIMIT instead
 * (registerArticleBodyLimit).
 */
const JSON_BODY_LIMIT = 100 * 1024;
const ASSETS_DIR = resolve(__dirname, '../assets');

/**
 * Builds the whole application (migrated database, API, uploads, web app, API docs) without
 * listening: main.ts listens, tests drive it in-process.
 */
export async function createApp(config: AppConfig, onQuery?: QueryObserver): Promise<NestFastifyApplication> {
  // The statement timeout bounds requests; the CLIs (seed, import, restore) open theirs without one.
  const { db, dialect } = createDatabase(
    { ...config, statementTimeoutMs: config.databaseStatementTimeoutMs, backgroundCheckpoints: true },
    onQuery,
  );
  let jwtSecret: string;
  try {
    await migrateToLatest(db, dialect);
    jwtSecret = await resolveJwtSecret(config, db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const logger = createAppLogger(config.logLevel);
  const adapter = new FastifyAdapter({
    bodyLimit: JSON_BODY_LIMIT,
    ...serverTimeoutOptions(config),
    ...FRAMEWORK_ERROR_OPTIONS,
    loggerInstance: logger,
    childLoggerFactory: requestChildLogger,
    genReqId: requestIdOf,
    logController: new RequestLogController(),
    // On close, keep-alive sockets with no request in progress are closed at once (graceful-shutdown.ts).
    forceCloseConnections: 'idle',
    // Whose X-Forwarded-For is believed: the client address every per-IP rate limit counts by.
    trustProxy: config.trustProxy,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, jwtSecret, db, dialect),
    adapter,
    {
      logger: new AppLogger(logger),
      // Bodies are parsed by registerJsonBodyParser (JSON and text/plain) and @fastify/multipart only.
      bodyParser: false,
    },
  );
  // The feeds, robots.txt and the sitemaps are files of the site's root (feeds/feed-routes.ts).
  app.setGlobalPrefix('api', { exclude: FEED_ROOT_ROUTES });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());

  const fastify = app.getHttpAdapter().getInstance();
  registerRequestId(fastify);
  // Before every other hook, so that all of a visitor's read runs on the replica (when there is one).
  registerReadRouting(fastify, config.databaseReadUrl !== null && dialect === 'postgres');
  // Before the read cache, which may answer from memory: its replies need the headers too.
  await registerSecurityHeaders(fastify, config);
  registerJsonBodyParser(fastify);
  // Before Nest adds its routes (app.init below): the hook sees each one as it is added.
  registerArticleBodyLimit(fastify);
  // Before the read cache, so that a reply served from memory counts against the API-wide limit too.
  registerApiRateLimit(app, config);
  // Before compression: the ETag is the hash of the JSON itself, whatever encoding goes out.
  registerConditionalGet(fastify);
  const readCache = new ReadCache(config.readCacheTtlMs);
  registerReadCache(fastify, readCache);
  // After the visitors' cache (which empties both on writes), before compression like it.
  registerSignedInReadCache(fastify, readCache, app.get(ReaderStateService));
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    // Brotli's default (quality 11) costs more CPU than it saves bytes on replies made per request.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });

  await app.register(fastifyMultipart, { limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 5 } });
  const uploadsDir = uploadsDirectory(config);
  mkdirSync(uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: [uploadsDir, ASSETS_DIR],
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    // Upload names are fresh ids, never reused: a file at a URL never changes.
    maxAge: '365d',
    immutable: true,
    // Only our re-encoded images and the default avatar: nothing else there is ever served.
    allowedPath: isServedUpload,
    setHeaders: (response) => void response.header('X-Content-Type-Options', 'nosniff'),
  });
  await registerWebApp(fastify, config.webDistDir, {
    service: app.get(PagesService),
    cache: readCache,
    publicUrl: config.publicUrl,
  });
  // Open notification streams never finish by themselves: end them when the server starts closing
  // (graceful shutdown closes the server before the modules), so the close does not wait the full
  // grace period and their clients reconnect, with Last-Event-ID, to an instance still running.
  const streams = app.get(NotificationStreams);
  fastify.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('TechIt API')
      .setDescription('Posts, notices, likes, comments, follows and profiles. Errors are always { "error": "…" }.')
      .setVersion('1.0')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });

  await app.init();
  await fastify.ready();
  return app;
}
