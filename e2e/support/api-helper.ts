import type { LikeReply, Me, Notice, Post, SignInReply } from '@techit/contract/api-types';

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
    const response = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const payload = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${payload.error}`);
    return payload;
  }

  /** A new account, signed in. */
  async user(overrides: Partial<{ userName: string; email: string; password: string }> = {}): Promise<Session> {
    sequence += 1;
    const userName = overrides.userName ?? `user${sequence}_${process.pid % 10000}`;
    const password = overrides.password ?? 'correct horse battery';
    await this.request('POST', '/signup', {
      userName,
      email: overrides.email ?? `${userName.toLowerCase()}@example.com`,
      password,
    });
    const reply = await this.request<SignInReply>('POST', '/signin', { userName, password });
    return { token: reply.token, user: reply.user, password };
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

  comment(session: Session, postId: string, text: string): Promise<Post> {
    return this.request<Post>('PUT', '/comment', { postId, text }, session.token);
  }
}
