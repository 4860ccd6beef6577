import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { LogLevel as NestLogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { registerConditionalGet } from './common/conditional-get';
import { ReadCache, registerReadCache } from './common/read-cache';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { registerJsonBodyParser } from './common/json-body-parser';
import { createValidationPipe } from './common/validation';
import type { AppConfig, LogLevel } from './config/app-config';
import { resolveJwtSecret } from './config/jwt-secret';
import { createDatabase, type QueryObserver } from './database/create-database';
import { migrateToLatest } from './database/migrations';
import { uploadsDirectory } from './uploads/uploads.module';
import { registerWebApp } from './web/web-app';

/** JSON bodies are small; 100 KB is far above the largest valid one (a 1,000-character notice). */
const JSON_BODY_LIMIT = 100 * 1024;
const ASSETS_DIR = resolve(__dirname, '../assets');

const NEST_LEVELS: Record<LogLevel, NestLogLevel[] | false> = {
  silent: false,
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/**
 * Builds the whole application (migrated database, API, uploads, web app, API docs) without
 * listening: main.ts listens, tests drive it in-process.
 */
export async function createApp(config: AppConfig, onQuery?: QueryObserver): Promise<NestFastifyApplication> {
  const jwtSecret = resolveJwtSecret(config);
  const { db, dialect } = createDatabase(config, onQuery);
  try {
    await migrateToLatest(db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const adapter = new FastifyAdapter({ bodyLimit: JSON_BODY_LIMIT });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, jwtSecret, db, dialect),
    adapter,
    {
      logger: NEST_LEVELS[config.logLevel],
      // Bodies are parsed by registerJsonBodyParser (JSON and text/plain) and @fastify/multipart only.
      bodyParser: false,
    },
  );
  app.setGlobalPrefix('api');
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());

  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBodyParser(fastify);
  // Before compression: the ETag is the hash of the JSON itself, whatever encoding goes out.
  registerConditionalGet(fastify);
  registerReadCache(fastify, new ReadCache(config.readCacheTtlMs));
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
    setHeaders: (response) => void response.header('X-Content-Type-Options', 'nosniff'),
  });
  await registerWebApp(fastify, config.webDistDir);

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
