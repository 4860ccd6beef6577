import { Controller, Inject, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { UploadReply } from '@techit/contract/api-types';
import type { FastifyRequest } from 'fastify';
import { ApiErrors } from '../common/api-errors.decorator';
import { AppError, BadRequestError, UnsupportedMediaTypeError } from '../common/app-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { UploadsService } from './uploads.service';

class UploadResponse implements UploadReply {
  @ApiProperty({ example: '/uploads/6743a1f2c0ffee0123456789.webp' }) url: string;
}

const FIELD = 'file';

@ApiTags('uploads')
@Controller()
export class UploadsController {
  constructor(
    private readonly uploads: UploadsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Open to visitors: sign-up uploads the picture before the account exists. */
  @Post('upload')
  @RateLimit('upload')
  @ApiOperation({
    summary: 'Upload an image (JPEG, PNG, WebP, GIF or AVIF)',
    description: 'Re-encoded to WebP within 1600×1600 with all metadata removed. Use the returned url as pic.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: { type: 'object', required: [FIELD], properties: { [FIELD]: { type: 'string', format: 'binary' } } },
  })
  @ApiCreatedResponse({ type: UploadResponse })
  @ApiErrors(400, 413, 415)
  async upload(@Req() request: FastifyRequest): Promise<UploadReply> {
    if (!request.isMultipart()) {
      throw new UnsupportedMediaTypeError(`Send the image as multipart/form-data in a field named "${FIELD}"`);
    }
    const bytes = await readMultipart(async () => {
      let image: Buffer | null = null;
      // Every part is read, so a second file meets the files limit (413) instead of being ignored;
      // plain form fields are ignored.
      for await (const part of request.parts({ limits: { fileSize: this.config.uploadMaxBytes, files: 1 } })) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== FIELD) throw new BadRequestError(`No image was sent in the field "${FIELD}"`);
        // toBuffer() stops reading at the size limit and throws a 413 error.
        image = await part.toBuffer();
      }
      if (!image) throw new BadRequestError(`No image was sent in the field "${FIELD}"`);
      return image;
    });
    return { url: await this.uploads.store(bytes) };
  }
}

/**
 * The multipart parser throws plain Errors for a malformed body (no boundary, a body cut short):
 * those are the sender's fault, so 400, not 500. Errors that carry a status (the size limit's
 * 413) and our own pass through unchanged.
 */
async function readMultipart(read: () => Promise<Buffer>): Promise<Buffer> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw new BadRequestError(
      `The multipart body could not be read; send the image as multipart/form-data in a field named "${FIELD}"`,
    );
  }
}
