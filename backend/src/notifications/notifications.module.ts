import { Module } from '@nestjs/common';
import { NotificationSignals } from './notification-signals';
import { NotificationStreams } from './notification-streams';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { signalTransportProvider } from './signal-transport.provider';
import { StreamAuthGuard } from './stream-auth.guard';

/**
 * Notifications (docs/decisions/039-notifications.md). Posts, users and notices import it and call
 * NotificationsService inside their own transactions, then `signal` after the commit. Signals
 * reach the other instances through Redis or PostgreSQL (signalTransportProvider, decision 040).
 */
@Module({
  controllers: [NotificationsController],
  providers: [
    signalTransportProvider,
    NotificationSignals,
    NotificationsRepository,
    NotificationsService,
    NotificationStreams,
    StreamAuthGuard,
  ],
  exports: [NotificationSignals, NotificationsService, NotificationStreams],
})
export class NotificationsModule {}
