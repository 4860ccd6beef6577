import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { ImageStorage } from '../uploads/image-storage';
import { type AccountRepository, EXPORT_BATCH } from './account.repository';

/**
 * A user's data as one ZIP (docs/decisions/049-accounts-people-control.md), streamed: each file is
 * a generator that reads the database EXPORT_BATCH rows at a time only when yazl reaches that
 * entry (addReadStreamLazy), and the response pulls the archive as the client reads it, so memory
 * stays flat however much the user wrote (the heap is capped at 192 MB, decision 017).
 *
 * Layout: README.md; json/<section>.json (arrays, one object per row); markdown/<section>.md for
 * what the user wrote (posts, comments, notices, drafts); images/<name> for the uploaded images of
 * the user's posts and profile that the storage can read back.
 */
export interface ExportedProfile {
  _id: string;
  userName: string;
  email: string;
  pic: string;
  position: string;
  bio: string;
  theme: string;
  createdAt: string;
}

type Rows<T> = (after: string) => Promise<T[]>;

/** Every row of a keyset-paged query, one page in memory at a time. */
async function* allRows<T>(page: Rows<T>, keyOf: (row: T) => string): AsyncGenerator<T> {
  let after = '';
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length < EXPORT_BATCH) return;
    after = keyOf(rows[rows.length - 1]);
  }
}

/** A JSON array written item by item. */
async function* jsonArray<T>(
  rows: AsyncIterable<T> | Iterable<T>,
  toItem: (row: T) => unknown,
): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const row of rows) {
    yield `${first ? '\n' : ',\n'}  ${JSON.stringify(toItem(row))}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

function stringList(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function fieldsOf(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A stored image's file name in the archive: the last path segment of its URL. */
export function imageEntryName(url: string): string {
  return `images/${url.slice(url.lastIndexOf('/') + 1)}`;
}

export class AccountExportWriter {
  constructor(
    private readonly repository: AccountRepository,
    private readonly storage: ImageStorage,
  ) {}

  /** The archive as a stream; entries are read from the database as the stream is consumed. */
  write(profile: ExportedProfile): Readable {
    const zip = new ZipFile();
    const userId = profile._id;
    const repo = this.repository;
    // A failure part-way (a database error, an unreadable image) ends the download: the status is
    // sent already, so the reply is cut short and the client sees an incomplete download. yazl
    // pipes each entry's stream without listening for its errors, so each is listened to here: an
    // unhandled 'error' would bring the whole server down.
    const fail = (error: unknown) =>
      (zip.outputStream as Readable).destroy(error instanceof Error ? error : new Error(String(error)));
    zip.on('error', fail);
    const text = (name: string, content: () => AsyncIterable<string> | Iterable<string>) =>
      zip.addReadStreamLazy(name, (done) => done(null, Readable.from(content()).on('error', fail)));

    const posts = () =>
      (async function* () {
        for await (const page of pages(repo.postsPage.bind(repo, userId))) {
          const tags = await repo.tagsOf(page.map((row) => row.id));
          for (const row of page) yield { ...row, tags: tags.get(row.id) ?? [] };
        }
      })();
    const comments = () =>
      allRows(
        (after) => repo.commentsPage(userId, after),
        (row) => row.id,
      );
    const notices = () =>
      allRows(
        (after) => repo.noticesPage(userId, after),
        (row) => row.id,
      );
    const drafts = () =>
      allRows(
        (after) => repo.draftsPage(userId, after),
        (row) => row.id,
      );

    text('README.md', () => [
      `# Your TechIt data\n\nExported for ${profile.userName} on ${new Date().toISOString()}.\n\n`,
      '- `json/`: everything as JSON arrays: your profile, posts, comments, notices, drafts, the posts you\n',
      '  liked and bookmarked, who you follow and who follows you, and the tags you follow or mute.\n',
      '- `markdown/`: what you wrote, readable as it is.\n',
      '- `images/`: the pictures you uploaded for your posts and your profile.\n',
    ]);
    text('json/profile.json', () => [`${JSON.stringify(profile, null, 2)}\n`]);
    text('json/posts.json', () =>
      jsonArray(posts(), (row) => ({
        _id: row.id,
        title: row.title,
        desc: row.description,
        body: row.body,
        photo: row.photo,
        category: row.category,
        link1: row.link1,
        link2: row.link2,
        tags: row.tags,
        likesCount: Number(row.likes_count),
        commentsCount: Number(row.comments_count),
        createdAt: row.created_at,
        editedAt: row.edited_at,
      })),
    );
    text('json/comments.json', () =>
      jsonArray(comments(), (row) => ({
        _id: row.id,
        postId: row.post_id,
        postTitle: row.post_title,
        parentId: row.parent_id,
        text: row.text,
        createdAt: row.created_at,
        editedAt: row.edited_at,
      })),
    );
    text('json/notices.json', () =>
      jsonArray(notices(), (row) => ({
        _id: row.id,
        desc: row.description,
        links: stringList(row.links),
        tags: stringList(row.tags),
        createdAt: row.created_at,
      })),
    );
    for (const table of ['likes', 'bookmarks'] as const) {
      text(`json/${table}.json`, () =>
        jsonArray(
          allRows(
            (after) => repo.markedPostsPage(table, userId, after),
            (row) => row.post_id,
          ),
          (row) => ({
            postId: row.post_id,
            title: row.title,
            author: { _id: row.author_id, userName: row.author_user_name },
            at: row.created_at,
          }),
        ),
      );
    }
    for (const direction of ['following', 'followers'] as const) {
      text(`json/${direction}.json`, () =>
        jsonArray(
          allRows(
            (after) => repo.followsPage(direction, userId, after),
            (row) => row.id,
          ),
          (row) => ({ _id: row.id, userName: row.user_name, since: row.created_at }),
        ),
      );
    }
    text('json/drafts.json', () =>
      jsonArray(drafts(), (row) => ({
        _id: row.id,
        kind: row.kind,
        postId: row.post_id,
        fields: fieldsOf(row.fields),
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      })),
    );
    text('json/tags.json', async function* () {
      const prefs = await repo.tagPrefs(userId);
      yield* jsonArray(prefs, (row) => ({ tag: row.tag, kind: row.kind, since: row.created_at }));
    });

    const storage = this.storage;
    text('markdown/posts.md', async function* () {
      yield '# Posts\n';
      for await (const row of posts()) {
        const tags = row.tags.map((tag) => `#${tag}`).join(' ');
        yield `\n## ${row.title}\n\n_${row.created_at}_${tags === '' ? '' : ` · ${tags}`}\n\n${row.description}\n`;
        if (row.body !== '') yield `\n${row.body}\n`;
        if (row.photo !== '')
          yield `\n![](${storage.owns(row.photo) ? `../${imageEntryName(row.photo)}` : row.photo})\n`;
        for (const link of [row.link1, row.link2].filter((value) => value !== '')) yield `\n<${link}>\n`;
      }
    });
    text('markdown/comments.md', async function* () {
      yield '# Comments\n';
      for await (const row of comments()) yield `\n## On "${row.post_title}"\n\n_${row.created_at}_\n\n${row.text}\n`;
    });
    text('markdown/notices.md', async function* () {
      yield '# Notices\n';
      for await (const row of notices()) {
        yield `\n_${row.created_at}_\n\n${row.description}\n`;
        for (const link of stringList(row.links)) yield `\n<${link}>\n`;
      }
    });
    text('markdown/drafts.md', async function* () {
      yield '# Drafts\n';
      for await (const row of drafts()) {
        const fields = fieldsOf(row.fields);
        const title = typeof fields.title === 'string' && fields.title !== '' ? fields.title : '(untitled)';
        yield `\n## ${row.kind === 'notice' ? 'Notice' : title} (draft)\n\n_saved ${row.updated_at}_\n\n`;
        for (const key of ['desc', 'body'] as const) {
          const value = fields[key];
          if (typeof value === 'string' && value !== '') yield `${value}\n\n`;
        }
      }
    });

    void this.addImages(zip, profile, fail).then(() => zip.end(), fail);
    return zip.outputStream as Readable;
  }

  /**
   * Each image once (a picture used twice is stored once), opened only when the archive reaches
   * it: one file open at a time. One gone meanwhile (freed by a change) is an empty entry.
   */
  private async addImages(zip: ZipFile, profile: ExportedProfile, fail: (error: unknown) => void): Promise<void> {
    const read = this.storage.read?.bind(this.storage);
    if (!read) return;
    const urls = new Set<string>();
    if (this.storage.owns(profile.pic)) urls.add(profile.pic);
    for await (const page of pages(this.repository.postsPage.bind(this.repository, profile._id))) {
      for (const row of page) if (this.storage.owns(row.photo)) urls.add(row.photo);
    }
    for (const url of urls) {
      // Already compressed (WebP): stored as they are.
      zip.addReadStreamLazy(imageEntryName(url), { compress: false }, (done) => {
        read(url).then(
          (stream) => done(null, stream ? stream.on('error', fail) : Readable.from([])),
          (error: unknown) => done(error instanceof Error ? error : new Error(String(error)), Readable.from([])),
        );
      });
    }
  }
}

/** The pages of a keyset query by id, for what needs a whole page at once (the tags of its posts). */
async function* pages<T extends { id: string }>(page: Rows<T>): AsyncGenerator<T[]> {
  let after = '';
  for (;;) {
    const rows = await page(after);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_BATCH) return;
    after = rows[rows.length - 1].id;
  }
}
