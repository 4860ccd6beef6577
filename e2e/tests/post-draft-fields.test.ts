import { postFromDraft, postToDraft } from '../../frontend/src/features/posts/components/post-draft-fields';

type PostFormValues = Parameters<typeof postToDraft>[0];

const EMPTY: PostFormValues = { title: '', category: '', desc: '', body: '', link1: '', link2: '', tags: [] };

describe("a post form's values as a draft's fields (autosave, decision 031)", () => {
  it('keeps every field exactly as typed, the Markdown body too', () => {
    const values: PostFormValues = {
      title: ' Ü 日本 ',
      category: 'Doubt',
      desc: 'a\n\n b ',
      body: '```ts\nconst a = 1;\n```\n',
      link1: 'x.io',
      link2: '',
      tags: ['rust', 'web-dev'],
    };
    expect(postToDraft(values)).toEqual({
      title: ' Ü 日本 ',
      category: 'Doubt',
      desc: 'a\n\n b ',
      body: '```ts\nconst a = 1;\n```\n',
      link1: 'x.io',
      link2: '',
      tags: ['rust', 'web-dev'],
    });
    expect(postFromDraft(postToDraft(values), EMPTY)).toEqual(values);
  });

  it("fills what a draft lacks from the form's values without one, and drops a category it does not know", () => {
    const edited: PostFormValues = {
      title: 'Stored',
      category: 'Informative',
      desc: 'Stored desc',
      body: 'Stored body',
      link1: '',
      link2: '',
      tags: ['stored'],
    };
    expect(postFromDraft({ desc: 'New desc' }, edited)).toEqual({ ...edited, desc: 'New desc' });
    expect(postFromDraft({ category: 'Rumour' as never }, EMPTY).category).toBe('');
    expect(postFromDraft({ category: '' }, edited).category).toBe('');
    expect(postFromDraft({ title: 'Only a title' }, edited).body).toBe('Stored body');
    expect(postFromDraft({ title: 'Only a title' }, edited).tags).toEqual(['stored']);
    expect(postFromDraft({ tags: [] }, edited).tags).toEqual([]);
  });
});
