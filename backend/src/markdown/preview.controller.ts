import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { PreviewReply } from '@techit/contract/api-types';
import { Authenticated } from '../auth/authenticated.decorator';
import { ApiErrors } from '../common/api-errors.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { PreviewDto } from './dto/preview.dto';
import { PreviewResponse } from './dto/preview.response';
import { MarkdownService } from './markdown.service';

@ApiTags('markdown')
@Controller()
export class PreviewController {
  constructor(private readonly markdown: MarkdownService) {}

  @Post('preview')
  @HttpCode(200)
  @Authenticated()
  @RateLimit('preview')
  @ApiOperation({
    summary: 'Render Markdown as it will be published',
    description:
      "The very function that renders a post body (`post`), a comment or a post desc (`comment`) and a notice (`notice`) on save, so the preview is what gets published. Raw HTML is escaped; only http(s), mailto and this site's links survive.",
  })
  @ApiOkResponse({ type: PreviewResponse })
  @ApiErrors(400)
  async preview(@Body() body: PreviewDto): Promise<PreviewReply> {
    return { html: await this.markdown.render(body.markdown, body.kind) };
  }
}
