import type { PostRevision } from '@techit/contract/api-types';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import type { TestUser } from './factories';

const ID = /^[0-9a-f]{24}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A revision as GET /api/posts/:id/revisions answers it for an edit by `editor` (with the default
 * picture) that changed exactly `changes`; its id and time are matched by form.
 */
export function expectedRevision(editor: TestUser, changes: PostRevision['changes']): PostRevision {
  return {
    _id: expect.stringMatching(ID) as string,
    editedBy: { _id: editor.id, userName: editor.userName, pic: DEFAULT_PROFILE_PIC },
    createdAt: expect.stringMatching(ISO) as string,
    changes,
  };
}
