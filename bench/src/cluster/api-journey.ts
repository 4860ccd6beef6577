import { type CallOptions, field, list, text } from '@techit/testkit/api-client';
import { type ApiReply, call, expectStatus, expectThat } from './api-call';
import { gradientPng } from './png-image';

export interface JourneyResult {
  passed: boolean;
  stepsPassed: number;
  stepsTotal: number;
  /** The step that failed and why; null when every step passed. */
  failure: string | null;
  /** Replies per instance (nginx's X-Instance) over the steps that went through the balancer. */
  instances: Record<string, number>;
}

const UPLOAD_URL = /^\/uploads\/[0-9a-f]{24}-\d+x\d+\.webp$/;

/**
 * The API journey from sign-up to deleting the post, through the balancer, every reply checked.
 * Where a step is about the instances themselves (a token signed by one is accepted by all; a
 * revoked one is refused by all) it calls each instance directly.
 */
export async function runApiJourney(balancerUrl: string, instanceUrls: string[], tag: string): Promise<JourneyResult> {
  const instances: Record<string, number> = {};
  const steps: [string, () => Promise<void>][] = [];
  const via = async (method: string, path: string, options?: CallOptions): Promise<ApiReply> => {
    const reply = await call(balancerUrl, method, path, options);
    instances[reply.instance || '(none)'] = (instances[reply.instance || '(none)'] ?? 0) + 1;
    return reply;
  };
  const step = (name: string, run: () => Promise<void>): void => {
    steps.push([name, run]);
  };

  const password = `cluster-${tag}-password`;
  const author = { userName: `author_${tag}`, email: `author_${tag}@example.com`, id: '', token: '' };
  const reader = { userName: `reader_${tag}`, email: `reader_${tag}@example.com`, id: '', token: '' };
  let avatarUrl = '';
  let photoUrl = '';
  let postId = '';
  let commentId = '';
  let noticeId = '';

  step('GET /api/health answers from PostgreSQL', async () => {
    const reply = await via('GET', '/api/health');
    expectStatus(reply, 200, 'health');
    expectThat(text(reply.body, 'database') === 'postgres', `health says database ${text(reply.body, 'database')}`);
  });
  step('POST /api/upload takes a sign-up picture from a visitor', async () => {
    avatarUrl = await upload(via, gradientPng(96, 96, 40), null);
  });
  step('POST /api/signup creates two accounts', async () => {
    for (const user of [author, reader]) {
      const reply = await via('POST', '/api/signup', {
        json: { userName: user.userName, email: user.email, password, pic: user === author ? avatarUrl : undefined },
      });
      expectStatus(reply, 201, `sign-up of ${user.userName}`);
    }
  });
  step('POST /api/signup refuses a taken userName', async () => {
    const reply = await via('POST', '/api/signup', {
      json: { userName: author.userName, email: `other_${tag}@example.com`, password },
    });
    expectStatus(reply, 409, 'second sign-up with the same userName');
  });
  step('POST /api/signin returns a token and the user', async () => {
    for (const user of [author, reader]) {
      const reply = await via('POST', '/api/signin', { json: { userName: user.userName, password } });
      expectStatus(reply, 200, `sign-in of ${user.userName}`);
      user.token = text(reply.body, 'token');
      user.id = text(field(reply.body, 'user'), '_id');
      expectThat(user.token.length > 0 && user.id.length > 0, `sign-in of ${user.userName} returned no token or id`);
    }
    const me = await via('PUT', '/api/bio', { token: author.token, json: { bio: 'Writes about clusters' } });
    expectStatus(me, 200, 'PUT /api/bio');
    expectThat(text(me.body, 'pic') === avatarUrl, `the author's pic is ${text(me.body, 'pic')}, not ${avatarUrl}`);
  });
  step('a token signed by one instance is accepted by every instance', async () => {
    for (const [index, url] of instanceUrls.entries()) {
      const position = `Engineer ${index + 1}`;
      const reply = await call(url, 'PUT', '/api/position', { token: reader.token, json: { position } });
      expectStatus(reply, 200, `PUT /api/position on ${url}`);
      expectThat(text(reply.body, 'position') === position, `${url} did not store the position`);
    }
  });
  step('POST /api/createpost with an uploaded picture', async () => {
    photoUrl = await upload(via, gradientPng(160, 120, 200), author.token);
    const reply = await via('POST', '/api/createpost', {
      token: author.token,
      json: { title: `Cluster ${tag}`, desc: 'Three instances behind nginx', pic: photoUrl, category: 'Informative' },
    });
    expectStatus(reply, 201, 'create post');
    const post = field(reply.body, 'post');
    postId = text(post, '_id');
    expectThat(postId.length > 0, 'the new post has no _id');
    expectThat(text(post, 'photo') === photoUrl, `the post's photo is ${text(post, 'photo')}, not ${photoUrl}`);
    expectThat(text(field(post, 'postedBy'), '_id') === author.id, 'the post is not posted by its author');
  });
  step('GET /api/posts/:id shows the post to another user', async () => {
    const reply = await via('GET', `/api/posts/${postId}`, { token: reader.token });
    expectStatus(reply, 200, 'get post');
    const post = field(reply.body, 'post');
    expectThat(
      field(post, 'likesCount') === 0 && field(post, 'commentsCount') === 0,
      'a new post has likes or comments',
    );
  });
  step('PUT /api/like counts a like once, however often it is sent', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const reply = await via('PUT', '/api/like', { token: reader.token, json: { postId } });
      expectStatus(reply, 200, 'like');
      expectThat(field(reply.body, 'likesCount') === 1, `likesCount is ${String(field(reply.body, 'likesCount'))}`);
      expectThat(list(reply.body, 'likes')[0] === reader.id, 'the reply does not list the reader as liking it');
    }
  });
  step('PUT /api/comment adds a comment', async () => {
    const reply = await via('PUT', '/api/comment', { token: reader.token, json: { postId, text: `Nice, ${tag}` } });
    expectStatus(reply, 200, 'comment');
    expectThat(field(reply.body, 'commentsCount') === 1, 'commentsCount is not 1');
    const comments = list(reply.body, 'comments');
    expectThat(text(comments[0], 'text') === `Nice, ${tag}`, 'the comment is not in the reply');
    commentId = text(comments[0], '_id');
  });
  step('PUT /api/follow follows the author', async () => {
    const reply = await via('PUT', '/api/follow', { token: reader.token, json: { followId: author.id } });
    expectStatus(reply, 200, 'follow');
    expectThat(list(reply.body, 'following').includes(author.id), 'following does not list the author');
  });
  // Each read of what was just written is made by the one who wrote it: with the read cache on,
  // an instance may answer a visitor, or another member, with a reply it kept before a write made
  // on another instance, for up to READ_CACHE_TTL_MS; the writer's own reads are fresh on every
  // instance at once (docs/decisions/054-signed-in-cache-across-instances.md). The cluster's
  // reader-state checks test both sides of that.
  step('the feeds, top posts, profile and user posts show the post', async () => {
    const following = await via('GET', '/api/posts?feed=following&limit=10', { token: reader.token });
    expectStatus(following, 200, 'following feed');
    expectThat(hasPost(list(following.body, 'posts'), postId), 'the following feed lacks the post');
    const forYou = await via('GET', '/api/posts?feed=for-you&page=1&limit=10', { token: reader.token });
    expectStatus(forYou, 200, 'for-you feed');
    const listed = list(forYou.body, 'posts').find((post) => text(post, '_id') === postId);
    expectThat(listed !== undefined, 'the for-you feed lacks the post');
    expectThat(field(listed, 'likesCount') === 1 && field(listed, 'commentsCount') === 1, 'the feed has stale counts');
    const top = await via('GET', '/api/top-posts', { token: author.token });
    expectStatus(top, 200, 'top posts');
    expectThat(hasPost(list(top.body, 'posts'), postId), 'top posts lacks the post');
    const profile = await via('GET', `/api/user/${author.id}`, { token: reader.token });
    expectStatus(profile, 200, 'profile');
    expectThat(list(field(profile.body, 'user'), 'followers').includes(reader.id), 'the profile lacks the follower');
    const userPosts = await via('GET', `/api/userposts/${author.id}`, { token: author.token });
    expectStatus(userPosts, 200, 'user posts');
    expectThat(hasPost(list(userPosts.body, 'userPosts'), postId), "the author's posts lack the post");
  });
  step('PUT /api/editpost/:id edits for the author only', async () => {
    const edit = { title: `Cluster ${tag} (edited)`, category: 'Doubt', desc: 'Edited on one, read on another' };
    const refused = await via('PUT', `/api/editpost/${postId}`, { token: reader.token, json: edit });
    expectStatus(refused, 403, "editing someone else's post");
    const reply = await via('PUT', `/api/editpost/${postId}`, { token: author.token, json: edit });
    expectStatus(reply, 200, 'edit post');
    const read = await via('GET', `/api/posts/${postId}`, { token: author.token });
    expectThat(text(field(read.body, 'post'), 'title') === edit.title, 'the edit is not visible on the next read');
  });
  step('GET /api/posts/:id/comments, then DELETE /api/comment', async () => {
    const comments = await via('GET', `/api/posts/${postId}/comments`, { token: reader.token });
    expectStatus(comments, 200, 'comments');
    expectThat(text(list(comments.body, 'comments')[0], '_id') === commentId, 'the comment is not listed');
    const reply = await via('DELETE', `/api/comment/${postId}/${commentId}`, { token: reader.token });
    expectStatus(reply, 200, 'delete comment');
    expectThat(field(reply.body, 'commentsCount') === 0, 'commentsCount is not 0 after the delete');
  });
  step('PUT /api/unlike and /api/unfollow undo', async () => {
    const unlike = await via('PUT', '/api/unlike', { token: reader.token, json: { postId } });
    expectStatus(unlike, 200, 'unlike');
    expectThat(field(unlike.body, 'likesCount') === 0, 'likesCount is not 0 after the unlike');
    const unfollow = await via('PUT', '/api/unfollow', { token: reader.token, json: { unfollowId: author.id } });
    expectStatus(unfollow, 200, 'unfollow');
    expectThat(!list(unfollow.body, 'following').includes(author.id), 'still following after unfollow');
  });
  step('notices: create, list, delete', async () => {
    const created = await via('POST', '/api/createnotice', {
      token: author.token,
      json: { desc: `Meetup ${tag}`, tags: ['cluster'], links: ['https://example.com/meetup'] },
    });
    expectStatus(created, 201, 'create notice');
    noticeId = text(field(created.body, 'notice'), '_id');
    const all = await via('GET', '/api/allnotices', { token: author.token });
    expectStatus(all, 200, 'all notices');
    expectThat(
      list(all.body, 'notices').some((notice) => text(notice, '_id') === noticeId),
      'the notice is not listed',
    );
    const deleted = await via('DELETE', `/api/deletenotice/${noticeId}`, { token: author.token });
    expectStatus(deleted, 200, 'delete notice');
  });
  step('DELETE /api/deletepost/:id, then the post is gone everywhere', async () => {
    const reply = await via('DELETE', `/api/deletepost/${postId}`, { token: author.token });
    expectStatus(reply, 200, 'delete post');
    for (const url of instanceUrls) {
      const gone = await call(url, 'GET', `/api/posts/${postId}`, { token: author.token });
      expectStatus(gone, 404, `the deleted post on ${url}`);
    }
  });
  step('POST /api/logout-all revokes the token on every instance', async () => {
    const reply = await via('POST', '/api/logout-all', { token: reader.token });
    expectStatus(reply, 200, 'logout-all');
    for (const url of instanceUrls) {
      const refused = await call(url, 'PUT', '/api/position', { token: reader.token, json: { position: 'x' } });
      expectStatus(refused, 401, `the revoked token on ${url}`);
    }
    const again = await via('POST', '/api/signin', { json: { userName: reader.userName, password } });
    expectStatus(again, 200, 'signing in again after logout-all');
  });

  let stepsPassed = 0;
  for (const [name, run] of steps) {
    try {
      await run();
      stepsPassed += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { passed: false, stepsPassed, stepsTotal: steps.length, failure: `${name}: ${message}`, instances };
    }
  }
  return { passed: true, stepsPassed, stepsTotal: steps.length, failure: null, instances };
}

async function upload(
  via: (method: string, path: string, options?: CallOptions) => Promise<ApiReply>,
  png: Buffer,
  token: string | null,
): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'picture.png');
  const reply = await via('POST', '/api/upload', { form, token: token ?? undefined });
  expectStatus(reply, 201, 'upload');
  const url = text(reply.body, 'url');
  expectThat(UPLOAD_URL.test(url), `the upload's url is ${url}`);
  return url;
}

function hasPost(posts: unknown[], id: string): boolean {
  return posts.some((post) => text(post, '_id') === id);
}
