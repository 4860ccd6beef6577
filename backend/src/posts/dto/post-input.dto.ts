import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import { normaliseTags } from '@techit/contract/tag-rules';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { IsHttpUrl, IsPictureUrl } from '../../common/url-rules';
import { DraftIdField } from '../../drafts/dto/draft-input.dto';
import { LinkText, say, Trim, TrimToUndefined } from '../../common/validation';

/**
 * A required, trimmed text field with a length limit. `missing` is what a form says next to the
 * field when it is left empty; `noun` names the field in the other sentences ("the title").
 */
function RequiredText(label: string, max: number, noun: string, missing: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ maxLength: max }),
    Trim(),
    IsNotEmpty(say(`${label} is required`, missing)),
    IsString(say(`${label} must be text`, `${capitalized(noun)} must be text.`)),
    MaxLength(
      max,
      say(`${label} must be at most ${max} characters`, `${capitalized(noun)} can have at most ${max} characters.`),
    ),
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An optional http(s) link (`https://` added when none is typed); blank counts as not sent. */
function OptionalLink(name: string, noun: string, description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description }),
    LinkText(),
    IsOptional(),
    IsHttpUrl(
      say(
        `${name} must be an http(s) URL of at most ${LIMITS.linkMax} characters`,
        `${capitalized(noun)} must be a web address, such as github.com/you/project.`,
      ),
    ),
  );
}

/** An optional picture URL: one this server issued, or an http(s) URL. */
function OptionalPicture(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description }),
    TrimToUndefined(),
    IsOptional(),
    IsString(say('pic must be text', 'The picture must be an uploaded image or a web address.')),
    IsPictureUrl(
      say(
        'pic must be an uploaded image URL or an http(s) URL',
        'The picture must be an uploaded image or a web address.',
      ),
    ),
  );
}

/**
 * On create no category, blank or absent, is a post without one (stored as ''). The edit form is
 * the spec's (section 5: "title, category and description required"), so editing asks for one.
 */
function OptionalCategory(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ enum: ['', ...CATEGORIES], description: 'Empty or missing: no category' }),
    TrimToUndefined(),
    IsOptional(),
    IsIn(
      CATEGORIES,
      say(
        `category must be one of: ${CATEGORIES.join(', ')} (or empty)`,
        `Choose ${CATEGORIES.join(' or ')}, or leave the category blank.`,
      ),
    ),
  );
}

function RequiredCategory(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ enum: CATEGORIES }),
    Trim(),
    IsNotEmpty(say('Category is required', `Choose a category: ${CATEGORIES.join(' or ')}.`)),
    IsIn(
      CATEGORIES,
      say(`Category must be one of: ${CATEGORIES.join(', ')}`, `Choose a category: ${CATEGORIES.join(' or ')}.`),
    ),
  );
}

/**
 * The optional Markdown article (at most LIMITS.postBodyMax characters). Kept as typed apart from
 * trailing white space (a leading indent is Markdown: a code block); only white space is no body.
 */
function OptionalBody(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ maxLength: LIMITS.postBodyMax, description }),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trimEnd() : value)),
    IsOptional(),
    IsString(say('Body must be text', 'The article must be text.')),
    MaxLength(
      LIMITS.postBodyMax,
      say(
        `Body must be at most ${LIMITS.postBodyMax} characters`,
        `The article can have at most ${LIMITS.postBodyMax} characters.`,
      ),
    ),
  );
}

/** What a post's tags fail on, or undefined when they are fine (a list of texts that normalises). */
function tagsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every((tag): tag is string => typeof tag === 'string'))
    return 'tags must be a list of texts';
  const checked = normaliseTags(value);
  return checked.ok ? undefined : checked.error;
}

/**
 * A post's tags: a list of names, normalised by the contract's one rule (tag-rules.ts: `#` and
 * case dropped, duplicates merged, at most LIMITS.postTagsMax); a bad one is refused by name.
 */
function OptionalTags(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: [String],
      maxItems: LIMITS.postTagsMax,
      description: `${description}. Each: [a-z0-9][a-z0-9-]{0,29} after lower-casing and dropping a leading #; duplicates merged, order kept.`,
    }),
    Transform(({ value }: { value: unknown }) => {
      if (!Array.isArray(value) || !value.every((tag): tag is string => typeof tag === 'string')) return value;
      const checked = normaliseTags(value);
      return checked.ok ? checked.tags : value;
    }),
    IsOptional(),
    ValidateBy({
      name: 'isPostTags',
      validator: {
        validate: (value: unknown) => tagsProblem(value) === undefined,
        defaultMessage: (args) => tagsProblem(args?.value) ?? 'tags are invalid',
      },
    }),
  );
}

const TITLE = ['Title', LIMITS.postTitleMax, 'the title', 'Give your post a title.'] as const;
const DESCRIPTION = ['Description', LIMITS.postDescMax, 'the description', 'Describe your post.'] as const;

export class CreatePostDto {
  @RequiredText(...TITLE)
  title: string;

  @RequiredText(...DESCRIPTION)
  desc: string;

  @OptionalBody('The article: Markdown (CommonMark + GFM); empty or missing: none')
  body?: string;

  @OptionalPicture('The picture: a URL from POST /api/upload or an http(s) URL; stored as photo')
  pic?: string;

  @OptionalCategory()
  category?: Category;

  @OptionalTags('0 to 4 tags; missing: none')
  tags?: string[];

  @OptionalLink('link1', 'the code link', 'Code link (http or https)')
  link1?: string;

  @OptionalLink('link2', 'the demo link', 'Demo link (http or https)')
  link2?: string;

  @DraftIdField()
  draftId?: string;
}

export class EditPostDto {
  @RequiredText(...TITLE)
  title: string;

  @RequiredCategory()
  category: Category;

  @RequiredText(...DESCRIPTION)
  desc: string;

  @OptionalBody('The article: Markdown; missing keeps the current one, empty removes it')
  body?: string;

  @OptionalTags('0 to 4 tags; missing keeps the current ones, [] removes them')
  tags?: string[];

  @OptionalLink('link1', 'the code link', 'Code link; empty or missing removes it')
  link1?: string;

  @OptionalLink('link2', 'the demo link', 'Demo link; empty or missing removes it')
  link2?: string;

  @OptionalPicture('A new picture URL; empty or missing keeps the current one')
  pic?: string;

  @DraftIdField()
  draftId?: string;
}

export class PostIdDto {
  @ApiProperty()
  @IsNotEmpty({ message: 'postId is required' })
  @IsString({ message: 'postId must be text' })
  postId: string;
}

const COMMENT_TEXT = ['Comment', LIMITS.commentMax, 'the comment', 'Write a comment first.'] as const;

/** A comment id as ids are written (24 hex characters); whether it exists is the service's question. */
export const COMMENT_ID = /^[0-9a-fA-F]{24}$/;

export class CommentDto extends PostIdDto {
  @RequiredText(...COMMENT_TEXT)
  text: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'Reply to this comment of the same post (missing or null: a comment at the top). 404 when it is not a comment of the post, 409 when it was deleted (a "[deleted]" placeholder).',
  })
  @IsOptional()
  @IsString({ message: 'parentId must be a comment id' })
  @Matches(COMMENT_ID, { message: 'parentId must be a comment id' })
  parentId?: string | null;
}

/** PUT /api/comment/:postId/:commentId: the new text, under the same rules as a new comment's. */
export class EditCommentDto {
  @RequiredText(...COMMENT_TEXT)
  text: string;
}
