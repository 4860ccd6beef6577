import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { IMAGE_STORAGE, type ImageStorage } from './image-storage';
import { UploadsRepository } from './uploads.repository';

export interface SweepResult {
  /** Full-image URLs removed, with their variants. */
  removed: string[];
  /** Images left in place: referenced, or too young to judge. */
  kept: number;
}

const HOUR_MS = 3_600_000;

/**
 * Removes uploads no row ever came to reference: a picture uploaded for a post never written, or
 * a sign-up abandoned after the upload. The age gives the uploader time to use the URL; disk
 * dates an upload by its files' mtime (see DiskImageStorage.list).
 */
@Injectable()
export class OrphanSweepService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Uploads');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweepResult> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(IMAGE_STORAGE) private readonly storage: ImageStorage,
    private readonly uploads: UploadsRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.orphanSweepIntervalMs === 0 || !this.storage.list) return;
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) =>
        this.logger.warn(`Orphaned-upload sweep failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    }, this.config.orphanSweepIntervalMs);
    // A pending sweep never keeps the process alive.
    this.timer.unref();
  }

  /** Stops the timer and lets a pass in progress finish before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One pass over the stored images; a pass already running is joined, not doubled. */
  sweep(now: Date = new Date()): Promise<SweepResult> {
    this.running ??= this.pass(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(now: Date): Promise<SweepResult> {
    if (!this.storage.list) return { removed: [], kept: 0 };
    const images = await this.storage.list();
    const cutoff = now.getTime() - this.config.orphanMaxAgeHours * HOUR_MS;
    const old = images.filter((image) => image.storedAt.getTime() < cutoff).map((image) => image.url);
    const referenced = await this.uploads.referenced(old);
    const removed: string[] = [];
    for (const url of old) {
      if (referenced.has(url)) continue;
      await this.storage.remove(url);
      removed.push(url);
    }
    if (removed.length > 0) this.logger.log(`Removed ${removed.length} orphaned upload(s)`);
    return { removed, kept: images.length - removed.length };
  }
}
