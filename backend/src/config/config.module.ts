import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { AppConfig } from './app-config';

export const APP_CONFIG = Symbol('APP_CONFIG');
export const JWT_SECRET = Symbol('JWT_SECRET');

/** The settings are parsed before Nest starts (see main.ts) and handed in here, once. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, jwtSecret: string): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: JWT_SECRET, useValue: jwtSecret },
      ],
      exports: [APP_CONFIG, JWT_SECRET],
    };
  }
}
