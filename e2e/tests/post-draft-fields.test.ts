import { postFromDraft, postToDraft } from '../../frontend/src/features/posts/components/post-draft-fields';

type PostFormValues = Parameters<typeof postToDraft>[0];

const EMPTY: PostFormValues = { title: '', category: '', desc: '', link1: '', link2: '' };

describe("a post form's values as a draft's fields (autosave, decision 031)", () => {
  it('keeps every field exactly as typed, and the body once the form has one', () => {
    const values: PostFormValues = { title: ' Ü 日本 ', category: 'Doubt', desc: 'a\n\n b ', link1: 'x.io', link2: '' };
    expect(postToDraft(values)).toEqual({
      title: ' Ü 日本 ',
      category: 'Doubt',
      desc: 'a\n\n b ',
      link1: 'x.io',
      link2: '',
    });
    const withBody: PostFormValues = { ...values, body: '```ts\nconst a = 1;\n```\n' };
    expect(postToDraft(withBody)).toMatchObject({ body: '```ts\nconst a = 1;\n```\n' });
    expect(postFromDraft(postToDraft(withBody), { ...EMPTY, body: '' })).toEqual(withBody);
  });

  it("fills what a draft lacks from the form's values without one, and drops a category it does not know", () => {
    const edited: PostFormValues = {
      title: 'Stored',
      category: 'Informative',
      desc: 'Stored desc',
      link1: '',
      link2: '',
    };
    expect(postFromDraft({ desc: 'New desc' }, edited)).toEqual({ ...edited, desc: 'New desc' });
    expect(postFromDraft({ category: 'Rumour' as never }, EMPTY).category).toBe('');
    expect(postFromDraft({ category: '' }, edited).category).toBe('');
    // A form without a body gets none from the draft.
    expect(postFromDraft({ body: 'text' }, EMPTY)).not.toHaveProperty('body');
  });
});
