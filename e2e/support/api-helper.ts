import type {
  BlockReply,
  BookmarkReply,
  LikeReply,
  Me,
  MuteReply,
  Notice,
  Post,
  ProfileUser,
  ReportReply,
  ReportRequest,
  ResolveReportsReply,
  ResolveReportsRequest,
} from '@techit/contract/api-types';
import type { ReportTargetKind, Role } from '@techit/contract/enums';
import { callApi, field, signUpAndIn } from '@techit/testkit/api-client';

export interface Session {
  token: string;
  user: Me;
  password: string;
}

let sequence = 0;

/** Sets up data through the real API, so a story starts from the state it describes. */
export class ApiHelper {
  constructor(private readonly baseUrl: string) {}

  async request<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    const reply = await callApi(this.baseUrl, method, `/api${path}`, { json: body, token });
    if (reply.status < 200 || reply.status >= 300) {
      throw new Error(`${method} ${path} answered ${reply.status}: ${String(field(reply.body, 'error'))}`);
    }
    return reply.body as T;
  }

  /** A new account, signed in. */
  async user(overrides: Partial<{ userName: string; email: string; password: string }> = {}): Promise<Session> {
    sequence += 1;
    const userName = overrides.userName ?? `user${sequence}_${process.pid % 10000}`;
    const signedIn = await signUpAndIn(this.baseUrl, { ...overrides, userName });
    return { token: signedIn.token, user: signedIn.user, password: signedIn.password };
  }

  async post(session: Session, overrides: Record<string, unknown> = {}): Promise<Post> {
    sequence += 1;
    const reply = await this.request<{ post: Post }>(
      'POST',
      '/createpost',
      { title: `Post ${sequence}`, desc: `About post ${sequence}`, ...overrides },
      session.token,
    );
    return reply.post;
  }

  async notice(session: Session, overrides: Record<string, unknown> = {}): Promise<Notice> {
    sequence += 1;
    const reply = await this.request<{ notice: Notice }>(
      'POST',
      '/createnotice',
      { desc: `Notice ${sequence}`, tags: [], links: [], ...overrides },
      session.token,
    );
    return reply.notice;
  }

  follow(session: Session, followId: string): Promise<Me> {
    return this.request<Me>('PUT', '/follow', { followId }, session.token);
  }

  like(session: Session, postId: string): Promise<LikeReply> {
    return this.request<LikeReply>('PUT', '/like', { postId }, session.token);
  }

  bookmark(session: Session, postId: string): Promise<BookmarkReply> {
    return this.request<BookmarkReply>('PUT', '/bookmark', { postId }, session.token);
  }

  /** `session` blocks `userId` (docs/decisions/048-blocks-and-mutes.md). */
  block(session: Session, userId: string): Promise<BlockReply> {
    return this.request<BlockReply>('PUT', '/block', { userId }, session.token);
  }

  unblock(session: Session, userId: string): Promise<BlockReply> {
    return this.request<BlockReply>('PUT', '/unblock', { userId }, session.token);
  }

  mute(session: Session, userId: string): Promise<MuteReply> {
    return this.request<MuteReply>('PUT', '/mute', { userId }, session.token);
  }

  unmute(session: Session, userId: string): Promise<MuteReply> {
    return this.request<MuteReply>('PUT', '/unmute', { userId }, session.token);
  }

  /** Whether `session` blocks and mutes `userId`, as the profile's viewer field says. */
  async relations(session: Session, userId: string): Promise<{ blocks: boolean; mutes: boolean } | undefined> {
    const reply = await this.request<{ viewer?: { blocks: boolean; mutes: boolean } }>(
      'GET',
      `/user/${userId}`,
      undefined,
      session.token,
    );
    return reply.viewer;
  }

  comment(session: Session, postId: string, text: string): Promise<Post> {
    return this.request<Post>('PUT', '/comment', { postId, text }, session.token);
  }

  /** A reply to comment `parentId`; answers the new comment's id (the newest of the post's by this author with this text). */
  async reply(session: Session, postId: string, parentId: string, text: string): Promise<string> {
    await this.request<Post>('PUT', '/comment', { postId, text, parentId }, session.token);
    return this.commentId(postId, text);
  }

  /** POST /api/reports: `session` reports a post, comment, notice or user to the moderators. */
  report(session: Session, body: ReportRequest): Promise<ReportReply> {
    return this.request<ReportReply>('POST', '/reports', body, session.token);
  }

  /** PUT /api/admin/users/:id/role, as an admin (a moderator is made this way). */
  setRole(admin: Session, userId: string, role: Role): Promise<ProfileUser> {
    return this.request<ProfileUser>('PUT', `/admin/users/${userId}/role`, { role }, admin.token);
  }

  /** PUT /api/reports/:kind/:id/resolve, as a moderator. */
  resolve(
    moderator: Session,
    kind: ReportTargetKind,
    targetId: string,
    body: ResolveReportsRequest,
  ): Promise<ResolveReportsReply> {
    return this.request<ResolveReportsReply>('PUT', `/reports/${kind}/${targetId}/resolve`, body, moderator.token);
  }

  /** PUT /api/updatetheme: the account's theme (the web app follows it when signed in). */
  theme(session: Session, theme: 'light' | 'dark'): Promise<Me> {
    return this.request<Me>('PUT', '/updatetheme', { theme }, session.token);
  }

  /** The id of the post's comment saying `text` (its newest such), from the whole thread. */
  async commentId(postId: string, text: string): Promise<string> {
    const { comments } = await this.request<{ comments: Post['comments'] }>('GET', `/posts/${postId}/comments`);
    const found = comments.findLast((comment) => comment.text === text);
    if (!found) throw new Error(`No comment says ${text}`);
    return found._id;
  }
}
