import { ApiProperty } from '@nestjs/swagger';
import type { PreviewReply } from '@techit/contract/api-types';

export class PreviewResponse implements PreviewReply {
  @ApiProperty({ description: 'Sanitised HTML: token classes for code, no inline styles or scripts' })
  html: string;
}
